/**
 * Writes group rows (one task's statistics, counts and `rollout_infos`) straight from a RolloutTable as
 * UTF-8 bytes, identical to `stringifyPython` of the objects NeMo Gym builds — without building them.
 */
import { ByteText, utf8 } from "./byte-text.ts";
import { BASE_STATS } from "./frame.ts";
import { formatPyFloat, intText, stringifyPython } from "./pyjson.ts";
import { Kind, type RolloutTable } from "./rollout-table.ts";
import { ROLLOUT_INDEX, TASK_INDEX } from "./records.ts";
import type { TableView } from "./table-view.ts";

/** orjson's compact layout (indent 0) or an indent of N spaces, every line shifted right by `shift`. */
export class Layout {
  readonly colon: string;
  private readonly breaks: string[] = [];

  constructor(readonly indent = 0, readonly shift = 0) {
    this.colon = indent ? ": " : ":";
  }

  /** What goes before a member or item at `depth`: a newline and its indentation ("" when compact). */
  nl(depth: number): string {
    return (this.breaks[depth] ??= this.indent ? `\n${" ".repeat(this.shift + this.indent * depth)}` : "");
  }

  /** Any value, as stringifyPython prints it at `depth`. */
  value(v: unknown, depth: number): string {
    if (!this.indent) return stringifyPython(v);
    return stringifyPython(v, { indent: this.indent }).replaceAll("\n", this.nl(depth));
  }
}

/** A computed float as Python prints it (pyFloat): `1.0`, `0.5`; non-finite → null (orjson). */
export function floatText(x: number): string {
  return Number.isFinite(x) ? formatPyFloat(x) : "null";
}

/** A raw number as stringifyPython prints it: whole → int digits, else float. */
export function numberText(x: number): string {
  return !Number.isFinite(x) ? "null" : Number.isInteger(x) ? intText(x) : formatPyFloat(x);
}

const OPEN = utf8("{");
const CLOSE = utf8("}");
const OPEN_LIST = utf8("[");
const CLOSE_LIST = utf8("]");
const COMMA = utf8(",");
const QUOTE = utf8('"');
const COLON_IN_ID = utf8(":");
const TRUE = utf8("true");
const FALSE = utf8("false");
const NULL = utf8("null");

export class GroupWriter {
  private readonly statKeys: Uint8Array[][];
  private readonly infoKeys = new Map<number, Uint8Array[]>();
  private readonly head: Uint8Array[];
  private readonly taskKey: Uint8Array;
  private readonly breaks: Uint8Array[];
  private lastX = NaN;
  private lastText = "null";
  private prevX = NaN;
  private prevText = "null";

  constructor(private readonly table: RolloutTable, private readonly view: TableView, private readonly layout: Layout) {
    const d1 = layout.nl(1);
    const key = (k: string) => utf8(`,${d1}${JSON.stringify(k)}${layout.colon}`);
    this.statKeys = BASE_STATS.map((stat) => view.names.map((name) => key(`${stat}/${name}`)));
    this.head = ["sample", "num_rollouts", "expected_num_rollouts", "missing_num_rollouts", "reward_profile_completion_pct", "rollout_infos"].map(key);
    this.taskKey = utf8(`${d1}${JSON.stringify(TASK_INDEX)}${layout.colon}`);
    this.breaks = [0, 1, 2, 3].map((d) => utf8(layout.nl(d)));
  }

  /** The `_ng_task_index` value of a row as stringifyPython prints it at `depth`. */
  private task(out: ByteText, row: number, depth: number): void {
    const odd = this.table.odd.size === 0 ? undefined : this.table.odd.get(row);
    if (odd) return out.text(this.layout.value(odd.task, depth));
    this.index(out, this.table.shapes[this.table.shapeOf[row]!]!.taskKind, this.table.task[row]!);
  }

  private index(out: ByteText, kind: Kind, x: number): void {
    if (kind === Kind.Int) out.int(x);
    else if (kind === Kind.Bool) out.bytes(x ? TRUE : FALSE);
    else out.float(x);
  }

  /**
   * One task's row of rows[start, end) (table rows in rollout order): `_ng_task_index`, describe,
   * `sample` (already printed at depth 1, as bytes or as text), counts against `expected`, and the rollout infos.
   */
  write(out: ByteText, rows: ArrayLike<number>, start: number, end: number, sample: Uint8Array | string, expected: number): void {
    const { view } = this;
    const { stats } = view.describe(rows, start, end);
    out.bytes(OPEN);
    out.bytes(this.taskKey);
    this.task(out, rows[start]!, 1);
    for (let s = 0; s < BASE_STATS.length; s++) {
      const extreme = (s === 1 || s === 2) && view.allInt; // max, min
      const values = stats[s]!;
      const keys = this.statKeys[s]!;
      for (let v = 0; v < values.length; v++) {
        const x = values[v]!;
        if (x !== x) continue;
        out.bytes(keys[v]!);
        if (extreme && Number.isInteger(x)) out.int(x);
        else if (extreme) out.text(numberText(x));
        else out.float(x);
      }
    }
    const n = end - start;
    const h = this.head;
    out.bytes(h[0]!);
    // Text goes straight into the buffer: a per-task encoded copy is off-heap garbage the GC under-counts.
    if (typeof sample === "string") out.text(sample);
    else out.bytes(sample);
    out.bytes(h[1]!);
    out.int(n);
    out.bytes(h[2]!);
    out.int(expected);
    out.bytes(h[3]!);
    out.int(expected - n);
    out.bytes(h[4]!);
    out.float(expected === 0 ? 100 : (100 * n) / expected);
    out.bytes(h[5]!);
    out.bytes(OPEN_LIST);
    const d2 = this.breaks[2]!;
    for (let i = start; i < end; i++) {
      if (i > start) out.bytes(COMMA);
      out.bytes(d2);
      this.info(out, rows[i]!);
    }
    out.bytes(this.breaks[1]!);
    out.bytes(CLOSE_LIST);
    out.bytes(this.breaks[0]!);
    out.bytes(CLOSE);
  }

  /** One `rollout_infos` item (an object at depth 2). */
  private info(out: ByteText, row: number): void {
    const { table, layout } = this;
    const odd = table.odd.size === 0 ? undefined : table.odd.get(row);
    if (odd) return out.text(layout.value(odd.info, 2));
    const s = table.shapeOf[row]!;
    const shape = table.shapes[s]!;
    let keys = this.infoKeys.get(s);
    if (!keys) {
      const d3 = layout.nl(3);
      keys = ["rollout_id", TASK_INDEX, ROLLOUT_INDEX, ...shape.info!.map((f) => f.key)].map((k, i) => utf8(`${i ? "," : ""}${d3}${JSON.stringify(k)}${layout.colon}`));
      this.infoKeys.set(s, keys);
    }
    const task = table.task[row]!;
    const rollout = table.rollout[row]!;
    out.bytes(OPEN);
    out.bytes(keys[0]!);
    out.bytes(QUOTE);
    this.id(out, shape.taskKind, task);
    out.bytes(COLON_IN_ID);
    this.id(out, shape.rolloutKind, rollout);
    out.bytes(QUOTE);
    out.bytes(keys[1]!);
    this.index(out, shape.taskKind, task);
    out.bytes(keys[2]!);
    this.index(out, shape.rolloutKind, rollout);
    const fields = shape.info!;
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      out.bytes(keys[i + 3]!);
      if (f.kind === Kind.Null) out.bytes(NULL);
      else {
        const x = table.value(f.column, row);
        if (f.kind === Kind.Int) out.int(x);
        else if (f.kind === Kind.Bool) out.bytes(x ? TRUE : FALSE);
        else this.float(out, x);
      }
    }
    out.bytes(this.breaks[2]!);
    out.bytes(CLOSE);
  }

  /** A float field of an info item: rewards repeat a few values (0.0, 1.0), so the last two printings are kept. */
  private float(out: ByteText, x: number): void {
    if ((x | 0) === x && (x !== 0 || 1 / x > 0)) return out.float(x);
    if (Object.is(x, this.lastX)) return out.text(this.lastText);
    if (Object.is(x, this.prevX)) return out.text(this.prevText);
    const text = floatText(x);
    (this.prevX = this.lastX), (this.prevText = this.lastText);
    (this.lastX = x), (this.lastText = text);
    out.text(text);
  }

  /** Python `str()` of an index value, for `rollout_id`. */
  private id(out: ByteText, kind: Kind, x: number): void {
    if (kind === Kind.Int) {
      // str() of a whole JS number: digits below 1e21, exponent form above (as the reference printed it).
      if (Math.abs(x) < 1e21 && !Object.is(x, -0)) out.int(x);
      else out.text(String(x));
    } else out.text(kind === Kind.Bool ? (x ? "True" : "False") : formatPyFloat(x));
  }
}
