/**
 * Writes group rows (one task's statistics, counts and `rollout_infos`) straight from a RolloutTable as
 * text, byte-identical to `stringifyPython` of the objects NeMo Gym builds — without building them.
 */
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

function indexText(kind: Kind, x: number): string {
  return kind === Kind.Int ? intText(x) : kind === Kind.Bool ? (x ? "true" : "false") : floatText(x);
}

/** Python `str()` of an index value, for `rollout_id`. */
function idText(kind: Kind, x: number): string {
  return kind === Kind.Int ? String(x) : kind === Kind.Bool ? (x ? "True" : "False") : formatPyFloat(x);
}

export class GroupWriter {
  private readonly statKeys: string[][];
  private readonly infoKeys = new Map<number, string[]>();
  private readonly head: string[];

  constructor(private readonly table: RolloutTable, private readonly view: TableView, private readonly layout: Layout) {
    const d1 = layout.nl(1);
    const key = (k: string) => `,${d1}${JSON.stringify(k)}${layout.colon}`;
    this.statKeys = BASE_STATS.map((stat) => view.names.map((name) => key(`${stat}/${name}`)));
    this.head = ["sample", "num_rollouts", "expected_num_rollouts", "missing_num_rollouts", "reward_profile_completion_pct", "rollout_infos"].map(key);
  }

  /** The `_ng_task_index` value of a row as stringifyPython prints it at `depth`. */
  taskText(row: number, depth: number): string {
    const odd = this.table.odd.get(row);
    if (odd) return this.layout.value(odd.task, depth);
    return indexText(this.table.shapes[this.table.shapeOf[row]!]!.taskKind, this.table.task[row]!);
  }

  /**
   * One task's row of rows[start, end) (table rows in rollout order): `_ng_task_index`, describe,
   * `sample` (already printed at depth 1), counts against `expected`, and the rollout infos.
   */
  write(rows: ArrayLike<number>, start: number, end: number, sample: string, expected: number): string {
    const { layout, view } = this;
    const { stats } = view.describe(rows, start, end);
    let text = `{${layout.nl(1)}${JSON.stringify(TASK_INDEX)}${layout.colon}${this.taskText(rows[start]!, 1)}`;
    for (let s = 0; s < BASE_STATS.length; s++) {
      const extreme = (s === 1 || s === 2) && view.allInt; // max, min
      const values = stats[s]!;
      const keys = this.statKeys[s]!;
      for (let v = 0; v < values.length; v++) {
        const x = values[v]!;
        if (x !== x) continue;
        text += keys[v]! + (extreme ? numberText(x) : floatText(x));
      }
    }
    const n = end - start;
    const h = this.head;
    text += `${h[0]}${sample}${h[1]}${intText(n)}${h[2]}${intText(expected)}${h[3]}${intText(expected - n)}${h[4]}${floatText(expected === 0 ? 100 : (100 * n) / expected)}${h[5]}[`;
    const d2 = layout.nl(2);
    for (let i = start; i < end; i++) text += `${i > start ? "," : ""}${d2}${this.info(rows[i]!)}`;
    return `${text}${layout.nl(1)}]${layout.nl(0)}}`;
  }

  /** One `rollout_infos` item (an object at depth 2). */
  info(row: number): string {
    const { table, layout } = this;
    const odd = table.odd.get(row);
    if (odd) return layout.value(odd.info, 2);
    const s = table.shapeOf[row]!;
    const shape = table.shapes[s]!;
    let keys = this.infoKeys.get(s);
    if (!keys) {
      const d3 = layout.nl(3);
      keys = ["rollout_id", TASK_INDEX, ROLLOUT_INDEX, ...shape.info!.map((f) => f.key)].map((k, i) => `${i ? "," : ""}${d3}${JSON.stringify(k)}${layout.colon}`);
      this.infoKeys.set(s, keys);
    }
    const task = table.task[row]!;
    const rollout = table.rollout[row]!;
    let text = `{${keys[0]}"${idText(shape.taskKind, task)}:${idText(shape.rolloutKind, rollout)}"${keys[1]}${indexText(shape.taskKind, task)}${keys[2]}${indexText(shape.rolloutKind, rollout)}`;
    const fields = shape.info!;
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      let value: string;
      if (f.kind === Kind.Null) value = "null";
      else {
        const x = table.value(f.column, row);
        value = f.kind === Kind.Int ? intText(x) : f.kind === Kind.Bool ? (x ? "true" : "false") : floatText(x);
      }
      text += keys[i + 3]! + value;
    }
    return `${text}${layout.nl(2)}}`;
  }
}
