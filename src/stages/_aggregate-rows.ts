/** Per-row bookkeeping of the analysis stages in typed arrays: where each row came from (file, line, bytes) and its agent. */

/** Growable columns of small numbers, one entry per row in read order (≈ 24 bytes a row; 40 with keys). */
export class RowIndex {
  rows = 0;
  file = new Int32Array(1024);
  line = new Int32Array(1024);
  offset = new Float64Array(1024);
  length = new Int32Array(1024);
  agent = new Int32Array(1024);
  /** (task, rollout) keys, kept only when constructed `withKeys`. */
  task: Float64Array;
  rollout: Float64Array;

  constructor(private readonly withKeys = false) {
    this.task = new Float64Array(withKeys ? 1024 : 0);
    this.rollout = new Float64Array(withKeys ? 1024 : 0);
  }

  push(file: number, line: number, offset: number, length: number, agent: number, task = 0, rollout = 0): number {
    if (this.rows === this.file.length) this.grow();
    const r = this.rows++;
    this.file[r] = file;
    this.line[r] = line;
    this.offset[r] = offset;
    this.length[r] = length;
    this.agent[r] = agent;
    if (this.withKeys) {
      this.task[r] = task;
      this.rollout[r] = rollout;
    }
    return r;
  }

  private grow(): void {
    const n = this.file.length * 2;
    const more = <T extends Int32Array | Float64Array>(a: T): T => {
      if (a.length === 0) return a;
      const b = new (a.constructor as new (n: number) => T)(n);
      b.set(a);
      return b;
    };
    this.file = more(this.file);
    this.line = more(this.line);
    this.offset = more(this.offset);
    this.length = more(this.length);
    this.agent = more(this.agent);
    this.task = more(this.task);
    this.rollout = more(this.rollout);
  }
}

/** Small ids for repeated names (agents), in first-seen order. */
export class NameIds {
  readonly names: string[] = [];
  private readonly ids = new Map<string, number>();
  private last = "";
  private lastId = -1;

  id(name: string): number {
    if (name === this.last && this.lastId >= 0) return this.lastId;
    let id = this.ids.get(name);
    if (id === undefined) this.ids.set(name, (id = this.names.push(name) - 1));
    this.last = name;
    this.lastId = id;
    return id;
  }
}

/** JSON.parse's view of a blank line (spaces, tabs, a BOM): skipped by every reader, like `text.trim() === ""`. */
export function isBlank(text: string): boolean {
  return text.trim() === "";
}
