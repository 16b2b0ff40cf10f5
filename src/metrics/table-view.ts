/**
 * A frame over some rows of a RolloutTable (an agent's, or all of a profile's), in (task, rollout) order:
 * its columns in pandas' first-appearance order, their dtypes, and pandas `describe` of any row range —
 * the same numbers as `describeFrame` on a NumericTable filled in that order, without building one.
 */
import { BASE_STATS } from "./frame.ts";
import { pairwiseSum } from "./numeric.ts";
import { pyFloat } from "./pyjson.ts";
import type { RolloutTable } from "./rollout-table.ts";

/** Per view column: mean/max/min/median/std (NaN = not reported) of one range of rows. */
export interface Described {
  stats: Float64Array[]; // indexed like BASE_STATS, each per view column
  count: number;
}

export class TableView {
  /** Table column of each view column. */
  readonly columns: Int32Array;
  readonly names: string[];
  /** pandas prints max/min as ints only when every column is int-typed. */
  readonly allInt: boolean;
  private filled = new Float64Array(64);
  private present = new Float64Array(64);
  private readonly out: Described;
  private readonly complete: Uint8Array;

  constructor(readonly table: RolloutTable, readonly rows: Int32Array) {
    const position = new Map<number, number>();
    const order: number[] = [];
    // Shapes in first-seen order; a byte per shape says whether it was seen (a Set lookup per row costs more).
    const seen = new Uint8Array(table.shapes.length);
    const seenShapes: number[] = [];
    const shapeOf = table.shapeOf;
    for (let i = 0; i < rows.length; i++) {
      const s = shapeOf[rows[i]!]!;
      if (seen[s]) continue;
      seen[s] = 1;
      seenShapes.push(s);
      const columns = table.shapes[s]!.columns;
      for (let i = 0; i < columns.length; i++) if (!position.has(columns[i]!)) position.set(columns[i]!, order.push(columns[i]!) - 1);
    }
    this.columns = Int32Array.from(order);
    this.names = order.map((c) => table.columns[c]!);
    // A column is int-typed when every row has it as an int (a missing value makes pandas use float).
    const intEverywhere = new Uint8Array(order.length).fill(1);
    for (const s of seenShapes) {
      const shape = table.shapes[s]!;
      const has = new Uint8Array(order.length);
      shape.columns.forEach((c, i) => (has[position.get(c)!] = shape.ints[i]!));
      for (let v = 0; v < order.length; v++) if (!has[v]) intEverywhere[v] = 0;
    }
    this.allInt = intEverywhere.every((x) => x === 1);
    this.out = { stats: BASE_STATS.map(() => new Float64Array(order.length)), count: 0 };
    this.complete = new Uint8Array(order.length);
  }

  /** Values of a view column by table row (the view is made over a finished table: the arrays are kept). */
  values(v: number): Float64Array {
    return (this.valueArrays[v] ??= this.table.column(this.columns[v]!));
  }

  private readonly valueArrays: Float64Array[] = [];

  /**
   * pandas `describe` of rows[start, end) (numpy pairwise sums over the gaps-as-zero column, ddof 1,
   * numpy median), with NeMo Gym's quirk: when no column has a std, complete columns report 0.
   * The result is reused by the next call.
   */
  describe(rows: ArrayLike<number>, start: number, end: number): Described {
    const n = end - start;
    if (this.filled.length < n) {
      this.filled = new Float64Array(n);
      this.present = new Float64Array(n);
    }
    const [means, maxes, mins, medians, stds] = this.out.stats as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];
    let anyStd = false;
    for (let v = 0; v < this.columns.length; v++) {
      const values = this.values(v);
      const filled = this.filled;
      const present = this.present;
      let count = 0;
      let max = -Infinity;
      let min = Infinity;
      for (let i = 0; i < n; i++) {
        const x = values[rows[start + i]!]!;
        if (x !== x) {
          filled[i] = 0;
          continue;
        }
        filled[i] = x;
        present[count++] = x;
        if (x > max) max = x;
        if (x < min) min = x;
      }
      this.complete[v] = count === n ? 1 : 0;
      if (count === 0) {
        means[v] = maxes[v] = mins[v] = medians[v] = stds[v] = NaN;
        continue;
      }
      const mean = pairwiseSum(filled, 0, n) / count;
      let std = NaN;
      if (count >= 2) {
        // The sum is taken: `filled` can hold the squares now.
        const squares = filled;
        for (let i = 0; i < n; i++) {
          const x = values[rows[start + i]!]!;
          if (x !== x) {
            squares[i] = 0;
            continue;
          }
          const d = mean - x;
          squares[i] = d * d;
        }
        std = Math.sqrt(pairwiseSum(squares, 0, n) / (count - 1));
        anyStd = true;
      }
      means[v] = mean;
      maxes[v] = max;
      mins[v] = min;
      stds[v] = std;
      sortPresent(present, count);
      const mid = count >> 1;
      // numpy's median: the middle value, or the mean of the two middle values.
      medians[v] = count % 2 === 1 ? present[mid]! : (present[mid - 1]! + present[mid]!) / 2;
    }
    if (!anyStd) for (let v = 0; v < this.columns.length; v++) if (this.complete[v]) stds[v] = 0;
    this.out.count = n;
    return this.out;
  }

  /** `describe` as a record of Python-typed values (`mean/reward`: 0.5), as describeFrame returns it. */
  describeRow(rows: ArrayLike<number>, start = 0, end = rows.length): Record<string, unknown> {
    const { stats } = this.describe(rows, start, end);
    const out: Record<string, unknown> = {};
    BASE_STATS.forEach((stat, s) => {
      const extreme = (stat === "max" || stat === "min") && this.allInt;
      for (let v = 0; v < this.columns.length; v++) {
        const x = stats[s]![v]!;
        if (Number.isNaN(x)) continue;
        out[`${stat}/${this.names[v]}`] = extreme ? x : pyFloat(x);
      }
    });
    return out;
  }

  /** What repeat-level statistics read: the columns by name and their values by table row. */
  asColumns(): { columns: string[]; column(c: number): Float64Array } {
    return { columns: this.names, column: (c) => this.values(c) };
  }
}

/** Sorts the first `count` values as a Float64Array sort does (−0 before +0): insertion sort when short. */
function sortPresent(values: Float64Array, count: number): void {
  if (count > 24) {
    values.subarray(0, count).sort();
    return;
  }
  for (let i = 1; i < count; i++) {
    const x = values[i]!;
    let j = i - 1;
    while (j >= 0 && before(x, values[j]!)) {
      values[j + 1] = values[j]!;
      j--;
    }
    values[j + 1] = x;
  }
}

function before(a: number, b: number): boolean {
  return a < b || (a === 0 && b === 0 && 1 / a < 0 && 1 / b > 0);
}
