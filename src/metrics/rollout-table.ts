/**
 * A columnar store of rollout rows in read order: the numbers NeMo Gym's statistics take (one Float64Array
 * per field) plus a shape id per row that says which fields a row has and how Python types them. Memory is
 * ~8 bytes per numeric field per row plus 12 per row — never the row text or a JS object per row.
 */
import { PyFloat } from "./pyjson.ts";
import { rolloutInfo, ROLLOUT_INDEX, stripForAggregate, TASK_INDEX } from "./records.ts";
import { Spool } from "./spool.ts";

type Row = Record<string, unknown>;

/** How Python holds a value: not a number (left out), int (bools count as ints), float, bool, None. */
export const enum Kind {
  None = 0,
  Int = 1,
  Float = 2,
  Bool = 3,
  Null = 4,
}

function kindOf(v: unknown): Kind {
  if (typeof v === "number") return Number.isInteger(v) ? Kind.Int : Kind.Float;
  if (v instanceof PyFloat) return Kind.Float;
  if (typeof v === "boolean") return Kind.Bool;
  return Kind.None;
}

function numberOf(v: unknown): number {
  return typeof v === "number" ? v : v instanceof PyFloat ? v.value : v ? 1 : 0;
}

/** One `rollout_infos` member drawn from the table: its key and where its value comes from. */
export interface InfoField {
  key: string;
  column: number;
  kind: Kind;
}

/** The fields one kind of row has. Rows of one shape share a key list and the Python type of every field. */
export interface Shape {
  /** numericRecord order: table column and Python kind (Int or Float) of each numeric field. */
  columns: Int32Array;
  ints: Uint8Array;
  /** Where each field's value sits: index i ≥ 0 in the row's values, or −1 − i in usage's values. */
  sources: Int32Array;
  /** `rollout_infos` fields after id, task and rollout (reward first when present); null: rows keep their own. */
  info: InfoField[] | null;
  taskKind: Kind;
  rolloutKind: Kind;
}

/** A row whose `rollout_infos` item or task value cannot be told by its shape (kept whole; rare). */
interface OddRow {
  info: Row;
  task: unknown;
}

export interface RolloutTableOptions {
  /** Top-level fields left out, as `/aggregate_metrics` strips them (aggregate); none for profile. */
  strip?: readonly string[];
  /** Keep the numbers in a temporary file until `finish()` (while a big file is parsed; see Spool). */
  spool?: boolean;
}

const ARRAY_INDEX = /^(0|[1-9][0-9]{0,9})$/;
const INFO_HEAD = new Set(["rollout_id", TASK_INDEX, ROLLOUT_INDEX, "reward"]);
const NO_KEYS: string[] = [];
const NO_USAGE: Row = {};

function usageOf(row: Row): Row {
  const response = row.response;
  if (response && typeof response === "object" && !Array.isArray(response) && !(response instanceof PyFloat)) {
    const usage = (response as Row).usage;
    if (usage && typeof usage === "object" && !Array.isArray(usage) && !(usage instanceof PyFloat)) return usage as Row;
  }
  return NO_USAGE;
}

/** A finished table as plain data (see `RolloutTable.state`). */
export interface TableState {
  rows: number;
  task: Float64Array<ArrayBuffer>;
  rollout: Float64Array<ArrayBuffer>;
  shapeOf: Int32Array<ArrayBuffer>;
  columns: string[];
  shapes: Shape[];
  data: Float64Array<ArrayBuffer>[];
}

/** Appends rollout rows; `add` returns the row number (read order). */
export class RolloutTable {
  rows = 0;
  /** The values rows sort and group by (`vr.get(key, 0)` as a number). */
  task: Float64Array<ArrayBuffer> = new Float64Array(1024);
  rollout: Float64Array<ArrayBuffer> = new Float64Array(1024);
  shapeOf: Int32Array<ArrayBuffer> = new Int32Array(1024);
  readonly columns: string[] = [];
  readonly shapes: Shape[] = [];
  readonly odd = new Map<number, OddRow>();
  private readonly columnIndex = new Map<string, number>();
  private data: Float64Array<ArrayBuffer>[] = [];
  private capacity = 1024;
  private readonly strip: Set<string>;
  private readonly shapeIds = new Map<string, number>();
  // The previous row's layout: consecutive rows nearly always share it.
  private lastKeys: string[] = NO_KEYS;
  private lastUsageKeys: string[] = NO_KEYS;
  private lastKinds = new Uint8Array(64);
  private lastShape = -1;
  private kinds = new Uint8Array(64);
  private stripCheckKeys: string[] = NO_KEYS;
  private stripCheckResult = false;

  private spool: Spool | null;

  constructor(options: RolloutTableOptions = {}) {
    this.strip = new Set(options.strip ?? []);
    this.spool = options.spool ? new Spool() : null;
  }

  /** Loads spooled rows into exact-size arrays: call once, after the last `add`, before reading. */
  finish(): void {
    const spool = this.spool;
    if (!spool) return;
    this.spool = null;
    try {
      const n = this.rows;
      this.capacity = Math.max(n, 1);
      this.task = new Float64Array(this.capacity);
      this.rollout = new Float64Array(this.capacity);
      this.shapeOf = new Int32Array(this.capacity);
      this.data = this.columns.map(() => new Float64Array(this.capacity).fill(NaN));
      const read = spool.reader();
      for (let r = 0; r < n; r++) {
        this.task[r] = read.next();
        this.rollout[r] = read.next();
        const s = (this.shapeOf[r] = read.next());
        const columns = this.shapes[s]!.columns;
        for (let i = 0; i < columns.length; i++) this.data[columns[i]!]![r] = read.next();
      }
    } finally {
      spool.dispose();
    }
  }

  /**
   * The finished table as plain data (typed arrays, shapes), to post to another thread: `transfer` lists
   * the buffers that can move instead of being copied. Tables with odd rows keep PyFloat objects, which do
   * not survive the copy: the caller keeps those on its own thread.
   */
  state(): { state: TableState; transfer: ArrayBuffer[] } {
    if (this.spool || this.odd.size > 0) throw new Error("RolloutTable.state(): table not finished, or odd rows");
    const state: TableState = { rows: this.rows, task: this.task, rollout: this.rollout, shapeOf: this.shapeOf, columns: this.columns, shapes: this.shapes, data: this.data };
    const buffers = new Set<ArrayBuffer>([this.shapeOf.buffer, ...this.data.map((d) => d.buffer)]);
    return { state, transfer: [...buffers] };
  }

  /** A table rebuilt from `state()` (for reading: statistics and group rows). */
  static fromState(state: TableState, options: RolloutTableOptions = {}): RolloutTable {
    const table = new RolloutTable({ strip: options.strip });
    table.rows = state.rows;
    table.task = state.task;
    table.rollout = state.rollout;
    table.shapeOf = state.shapeOf;
    table.columns.push(...state.columns);
    table.shapes.push(...state.shapes);
    state.columns.forEach((c, i) => table.columnIndex.set(c, i));
    table.data = state.data;
    table.capacity = state.task.length;
    return table;
  }

  /** Takes back the buffers `state()` moved away (another thread could not use them). */
  restore(state: TableState): void {
    this.shapeOf = state.shapeOf;
    this.data = state.data;
  }

  /** Drops a spool left behind by a failed parse. */
  dispose(): void {
    this.spool?.dispose();
    this.spool = null;
  }

  /** A column's values for rows [0, rows) (NaN where a row lacks the field). */
  column(c: number): Float64Array {
    return this.data[c]!.subarray(0, this.rows);
  }

  value(c: number, row: number): number {
    return this.data[c]![row]!;
  }

  /** Adds one parsed row (whole-valued floats as PyFloat, as jsonl/rows.ts reads them). */
  add(row: Row): number {
    const spool = this.spool;
    if (!spool && this.rows === this.capacity) this.grow();
    const r = this.rows++;
    const t = row[TASK_INDEX] ?? 0;
    const ro = row[ROLLOUT_INDEX] ?? 0;
    if (spool) spool.push(indexNumber(t)), spool.push(indexNumber(ro));
    else {
      this.task[r] = indexNumber(t);
      this.rollout[r] = indexNumber(ro);
    }
    let usage = usageOf(row);
    let keys = Object.keys(row);
    let usageKeys = usage === NO_USAGE ? NO_KEYS : Object.keys(usage);
    if (this.strip.size > 0 && usageKeys.length > 0 && this.usageNeedsStrip(usageKeys)) {
      // A usage field named like a stripped one: take the stripped row itself (its key order differs).
      row = stripForAggregate(row);
      usage = usageOf(row);
      keys = Object.keys(row);
      usageKeys = usage === NO_USAGE ? NO_KEYS : Object.keys(usage);
    }
    const values = Object.values(row);
    const usageValues = usage === NO_USAGE ? NO_KEYS : Object.values(usage);
    const n = keys.length + usageKeys.length + 2;
    if (this.kinds.length < n) {
      this.kinds = new Uint8Array(n * 2);
      this.lastKinds = new Uint8Array(n * 2);
      this.lastShape = -1;
    }
    const kinds = this.kinds;
    kinds[0] = kindOf(t);
    kinds[1] = kindOf(ro);
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      kinds[i + 2] = v === null ? Kind.Null : kindOf(v);
    }
    for (let i = 0; i < usageValues.length; i++) kinds[keys.length + 2 + i] = kindOf(usageValues[i]);
    let s = this.lastShape;
    if (s < 0 || !sameKeys(keys, this.lastKeys) || !sameKeys(usageKeys, this.lastUsageKeys) || !sameKinds(kinds, this.lastKinds, n)) {
      s = this.shapeFor(row, keys, usageKeys, kinds, n);
      this.lastShape = s;
      this.lastKeys = keys;
      this.lastUsageKeys = usageKeys;
      this.lastKinds.set(kinds.subarray(0, n));
    }
    const shape = this.shapes[s]!;
    const { columns, sources } = shape;
    if (spool) {
      spool.push(s);
      for (let i = 0; i < columns.length; i++) {
        const at = sources[i]!;
        spool.push(numberOf(at >= 0 ? values[at] : usageValues[-1 - at]));
      }
    } else {
      this.shapeOf[r] = s;
      for (let i = 0; i < columns.length; i++) {
        const at = sources[i]!;
        this.data[columns[i]!]![r] = numberOf(at >= 0 ? values[at] : usageValues[-1 - at]);
      }
    }
    if (shape.info === null) {
      const stats = this.strip.size > 0 ? stripForAggregate(row) : row;
      this.odd.set(r, { info: rolloutInfo(stats), task: t });
    }
    return r;
  }

  /** Whether usage has a field named like a stripped one (answer cached for the last usage layout). */
  private usageNeedsStrip(usageKeys: string[]): boolean {
    if (!sameKeys(usageKeys, this.stripCheckKeys)) {
      this.stripCheckKeys = usageKeys;
      this.stripCheckResult = usageKeys.some((k) => k === "response" || this.strip.has(k));
    }
    return this.stripCheckResult;
  }

  /** Whether a top-level key is a numeric-record candidate (not an index, not stripped). */
  private counts(k: string): boolean {
    return k !== TASK_INDEX && k !== ROLLOUT_INDEX && !this.strip.has(k);
  }

  private inRow(row: Row, k: string): boolean {
    return Object.hasOwn(row, k) && !this.strip.has(k);
  }

  private shapeFor(row: Row, keys: string[], usageKeys: string[], kinds: Uint8Array, n: number): number {
    const signature = `${JSON.stringify([keys, usageKeys])}${kinds.subarray(0, n).join(",")}`;
    const known = this.shapeIds.get(signature);
    if (known !== undefined) return known;
    const columns: number[] = [];
    const ints: number[] = [];
    const sources: number[] = [];
    const usageAt = new Map(usageKeys.map((k, i) => [k, i]));
    const usageKind = new Map(usageKeys.map((k, i) => [k, kinds[keys.length + 2 + i]!]));
    // numericRecord's order: the row's keys (usage wins a clash), then usage-only keys.
    const record = (k: string, kind: number, source: number) => {
      if (k === TASK_INDEX || k === ROLLOUT_INDEX || kind === Kind.None || kind === Kind.Null) return;
      columns.push(this.columnFor(k));
      ints.push(kind === Kind.Float ? 0 : 1);
      sources.push(source);
    };
    keys.forEach((k, i) => {
      if (!this.counts(k)) return;
      if (usageAt.has(k)) record(k, usageKind.get(k)!, -1 - usageAt.get(k)!);
      else record(k, kinds[i + 2]!, i);
    });
    usageKeys.forEach((k, i) => !this.inRow(row, k) && record(k, usageKind.get(k)!, -1 - i));
    const shape: Shape = {
      columns: Int32Array.from(columns),
      ints: Uint8Array.from(ints),
      sources: Int32Array.from(sources),
      info: this.infoFields(row, keys, usageKeys, kinds, usageKind),
      taskKind: kinds[0]!,
      rolloutKind: kinds[1]!,
    };
    const id = this.shapes.push(shape) - 1;
    this.shapeIds.set(signature, id);
    return id;
  }

  /** rolloutInfo's fields for this shape, or null when a row must keep its own (clashes, odd values). */
  private infoFields(row: Row, keys: string[], usageKeys: string[], kinds: Uint8Array, usageKind: Map<string, number>): InfoField[] | null {
    if (kinds[0] === Kind.None || kinds[1] === Kind.None) return null; // a string or object index
    const fields: InfoField[] = [];
    const seen = new Set(["rollout_id", TASK_INDEX, ROLLOUT_INDEX]);
    const rowKind = (k: string) => kinds[keys.indexOf(k) + 2]! as Kind;
    if (Object.hasOwn(row, "reward")) {
      const kind = rowKind("reward");
      if (kind === Kind.None || usageKind.has("reward")) return null;
      fields.push({ key: "reward", column: kind === Kind.Null ? -1 : this.columnFor("reward"), kind });
      seen.add("reward");
    }
    const add = (k: string, kind: Kind): boolean => {
      if (kind === Kind.None || kind === Kind.Null) return true;
      // Object key order puts array-index keys first, and a repeated key keeps its first place: rare, kept whole.
      if (seen.has(k) || ARRAY_INDEX.test(k)) return false;
      seen.add(k);
      fields.push({ key: k, column: this.columnFor(k), kind: kind === Kind.Bool ? Kind.Int : kind });
      return true;
    };
    for (const k of usageKeys) if (!add(k, usageKind.get(k)!)) return null;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      if (k === TASK_INDEX || k === ROLLOUT_INDEX || k === "reward" || k === "response" || this.strip.has(k)) continue;
      const kind = kinds[i + 2]! as Kind;
      if (kind === Kind.None || kind === Kind.Null) continue;
      // A usage field also at the top level: rolloutInfo prints the top-level value at the usage position.
      if (usageKind.has(k) || INFO_HEAD.has(k)) return null;
      if (!add(k, kind)) return null;
    }
    return fields;
  }

  private columnFor(k: string): number {
    let c = this.columnIndex.get(k);
    if (c === undefined) {
      c = this.columns.push(k) - 1;
      this.columnIndex.set(k, c);
      this.data.push(this.spool ? new Float64Array(0) : new Float64Array(this.capacity).fill(NaN));
    }
    return c;
  }

  /** Makes room for `rows` rows in all (e.g. estimated from file sizes), so the arrays are not regrown. */
  reserve(rows: number): void {
    if (!this.spool && rows > this.capacity) this.grow(rows);
  }

  private grow(to = this.capacity * 2): void {
    this.capacity = to;
    const grown = (old: Float64Array, fill: number) => {
      const next = new Float64Array(this.capacity);
      if (fill !== 0) next.fill(fill, old.length);
      next.set(old);
      return next;
    };
    this.task = grown(this.task, 0);
    this.rollout = grown(this.rollout, 0);
    const shapes = new Int32Array(this.capacity);
    shapes.set(this.shapeOf);
    this.shapeOf = shapes;
    this.data = this.data.map((d) => grown(d, NaN));
  }
}

function sameKeys(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameKinds(a: Uint8Array, b: Uint8Array, n: number): boolean {
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** `row.get(index, 0)` as NeMo Gym sorts by it: a number (bools 0/1; anything else as Number() does). */
function indexNumber(v: unknown): number {
  return typeof v === "number" ? v : v instanceof PyFloat ? v.value : typeof v === "boolean" ? Number(v) : Number(v);
}
