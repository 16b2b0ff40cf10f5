/** Per-row bookkeeping of the analysis stages in typed arrays: where each row came from (file, line, bytes) and its agent. */
import { Spool } from "../../metrics/spool.ts";

export interface RowIndexOptions {
  /** Keep where each row's bytes are (to copy or re-read rows). */
  bytes?: boolean;
  agent?: boolean;
  /** Keep (task, rollout) keys (when no RolloutTable holds them). */
  keys?: boolean;
  /** Keep the numbers in a temporary file until `finish()` (while a big file is parsed; see Spool). */
  spool?: boolean;
}

/**
 * Per-row bookkeeping in read order, a few bytes a row: byte length and the gap since the previous row
 * (offsets are rebuilt when needed), agent id, optional keys. Files and line numbers are kept as ranges
 * (a row's line moves only past blank lines), not per row. Retained bytes matter twice: the JS engine
 * lets garbage grow in proportion to what is kept alive.
 */
export class RowIndex {
  rows = 0;
  length: Int32Array;
  agent: Int32Array;
  task: Float64Array;
  rollout: Float64Array;
  private gap: Uint8Array;
  private readonly bigGaps = new Map<number, number>();
  private readonly fileStarts: number[] = [];
  private readonly lineMarks: number[] = []; // pairs: row, line
  private lastFile = -1;
  private lastLine = 0;
  private lastEnd = 0;
  private capacity = 1024;

  private spool: Spool | null;

  constructor(private readonly options: RowIndexOptions = {}) {
    this.spool = options.spool && (options.bytes || options.agent || options.keys) ? new Spool() : null;
    const n = (on: boolean | undefined) => (on && !this.spool ? this.capacity : 0);
    this.length = new Int32Array(n(options.bytes));
    this.gap = new Uint8Array(n(options.bytes));
    this.agent = new Int32Array(n(options.agent));
    this.task = new Float64Array(n(options.keys));
    this.rollout = new Float64Array(n(options.keys));
  }

  push(file: number, line: number, offset: number, length: number, agent = -1, task = 0, rollout = 0): number {
    const spool = this.spool;
    if (!spool && this.rows === this.capacity) this.grow(this.capacity * 2);
    const r = this.rows++;
    if (file !== this.lastFile) {
      this.fileStarts.push(r);
      this.lastFile = file;
      this.lastEnd = 0;
      this.lineMarks.push(r, line);
    } else if (line !== this.lastLine + 1) this.lineMarks.push(r, line);
    this.lastLine = line;
    if (this.options.bytes) {
      const gap = offset - this.lastEnd;
      this.lastEnd = offset + length;
      if (spool) spool.push(gap), spool.push(length);
      else this.setBytes(r, gap, length);
    }
    if (spool) {
      if (this.options.agent) spool.push(agent);
      if (this.options.keys) spool.push(task), spool.push(rollout);
      return r;
    }
    if (this.options.agent) this.agent[r] = agent;
    if (this.options.keys) {
      this.task[r] = task;
      this.rollout[r] = rollout;
    }
    return r;
  }

  private setBytes(r: number, gap: number, length: number): void {
    if (gap < 255) this.gap[r] = gap;
    else (this.gap[r] = 255), this.bigGaps.set(r, gap);
    this.length[r] = length;
  }

  /** Loads spooled rows into exact-size arrays: call once, after the last `push`, before reading. */
  finish(): void {
    const spool = this.spool;
    if (!spool) return;
    this.spool = null;
    try {
      const { bytes, agent, keys } = this.options;
      const n = this.rows;
      this.capacity = Math.max(n, 1);
      const size = (on: boolean | undefined) => (on ? this.capacity : 0);
      this.length = new Int32Array(size(bytes));
      this.gap = new Uint8Array(size(bytes));
      this.agent = new Int32Array(size(agent));
      this.task = new Float64Array(size(keys));
      this.rollout = new Float64Array(size(keys));
      const read = spool.reader();
      for (let r = 0; r < n; r++) {
        if (bytes) {
          const gap = read.next();
          this.setBytes(r, gap, read.next());
        }
        if (agent) this.agent[r] = read.next();
        if (keys) (this.task[r] = read.next()), (this.rollout[r] = read.next());
      }
    } finally {
      spool.dispose();
    }
  }

  /** Drops a spool left behind by a failed parse. */
  dispose(): void {
    this.spool?.dispose();
    this.spool = null;
  }

  /** The file (index) of a row. */
  fileOf(r: number): number {
    return upperBound(this.fileStarts, r, 1) - 1;
  }

  /** The line number of a row in its file. */
  lineOf(r: number): number {
    const mark = upperBound(this.lineMarks, r, 2) - 1;
    return this.lineMarks[mark * 2 + 1]! + (r - this.lineMarks[mark * 2]!);
  }

  /** Every row's file, offset and length (rebuilt, for copying rows). */
  locations(): { file: Int32Array; offset: Float64Array; length: Int32Array } {
    const file = new Int32Array(this.rows);
    const offset = new Float64Array(this.rows);
    let f = -1;
    let end = 0;
    for (let r = 0; r < this.rows; r++) {
      if (f + 1 < this.fileStarts.length && this.fileStarts[f + 1] === r) (f++, (end = 0));
      const gap = this.gap[r] === 255 ? this.bigGaps.get(r)! : this.gap[r]!;
      offset[r] = end + gap;
      end = offset[r]! + this.length[r]!;
      file[r] = f;
    }
    return { file, offset, length: this.length };
  }

  /** Makes room for `rows` rows (e.g. estimated from file sizes), so the arrays are not regrown. */
  reserve(rows: number): void {
    if (!this.spool && rows > this.capacity) this.grow(rows);
  }

  private grow(n: number): void {
    this.capacity = n;
    const more = <T extends Int32Array | Float64Array | Uint8Array>(a: T): T => {
      if (a.length === 0) return a;
      const b = new (a.constructor as new (n: number) => T)(n);
      b.set(a);
      return b;
    };
    this.length = more(this.length);
    this.gap = more(this.gap);
    this.agent = more(this.agent);
    this.task = more(this.task);
    this.rollout = more(this.rollout);
  }
}

/** The number of entries (of `stride`-sized records, keyed by their first number) that are ≤ x. */
function upperBound(sorted: number[], x: number, stride: number): number {
  let lo = 0;
  let hi = sorted.length / stride;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid * stride]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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
