/** Numeric tables and pandas-style `describe` (mean/max/min/median/std) with NeMo Gym's exact numerics. */
import { median, pairwiseSum } from "./numeric.ts";
import { pyFloat, type PyNumber } from "./pyjson.ts";

/** The statistics NeMo Gym reports per column, in the order their keys appear (stat-major). */
export const BASE_STATS = ["mean", "max", "min", "median", "std"] as const;

/**
 * Columns of numbers, one row per rollout, in the order rows were added (callers add them sorted by
 * task and rollout, so column order is pandas' "first appearance"). A missing value is NaN, as in pandas.
 * Memory: 8 bytes per row per numeric column — never the row text.
 */
export class NumericTable {
  readonly columns: string[] = [];
  private readonly index = new Map<string, number>();
  private data: Float64Array[] = [];
  private intCount: number[] = [];
  rows = 0;
  private capacity = 1024;

  /** Adds one row's numeric fields (already filtered: bool → int, numbers only), in the row's key order. */
  add(entries: Iterable<[string, PyNumber]>): number {
    if (this.rows === this.capacity) this.grow();
    const row = this.rows++;
    for (const [key, num] of entries) {
      let c = this.index.get(key);
      if (c === undefined) {
        c = this.columns.length;
        this.index.set(key, c);
        this.columns.push(key);
        this.data.push(new Float64Array(this.capacity).fill(NaN));
        this.intCount.push(0);
      }
      this.data[c]![row] = num.value;
      if (num.isInt && !Number.isNaN(num.value)) this.intCount[c]!++;
    }
    return row;
  }

  private grow(): void {
    this.capacity *= 2;
    this.data = this.data.map((old) => {
      const next = new Float64Array(this.capacity).fill(NaN);
      next.set(old);
      return next;
    });
  }

  /** A column's values (NaN where missing), as a view. */
  column(c: number): Float64Array {
    return this.data[c]!.subarray(0, this.rows);
  }

  /** pandas gives a column an int dtype only when every row has an int there (a gap makes it float). */
  isIntColumn(c: number): boolean {
    return this.intCount[c] === this.rows;
  }

  /** Whether every column is int-typed: then max/min print as ints, otherwise as floats. */
  allIntColumns(): boolean {
    return this.columns.every((_, c) => this.isIntColumn(c));
  }
}

interface ColumnStats {
  mean: number;
  max: number;
  min: number;
  median: number;
  std: number;
  complete: boolean;
}

function columnStats(values: Float64Array, rows: ArrayLike<number> | null, start: number, end: number): ColumnStats {
  const n = rows ? rows.length : end - start;
  const filled = new Float64Array(n);
  const present: number[] = [];
  let max = -Infinity;
  let min = Infinity;
  for (let i = 0; i < n; i++) {
    const x = values[rows ? rows[i]! : start + i]!;
    if (Number.isNaN(x)) continue;
    filled[i] = x;
    present.push(x);
    if (x > max) max = x;
    if (x < min) min = x;
  }
  const count = present.length;
  if (count === 0) return { mean: NaN, max: NaN, min: NaN, median: NaN, std: NaN, complete: false };
  const mean = pairwiseSum(filled) / count;
  let std = NaN;
  if (count >= 2) {
    const sq = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const x = values[rows ? rows[i]! : start + i]!;
      if (Number.isNaN(x)) continue;
      const d = mean - x;
      sq[i] = d * d;
    }
    std = Math.sqrt(pairwiseSum(sq) / (count - 1));
  }
  const sorted = Float64Array.from(present).sort();
  return { mean, max, min, median: median(sorted), std, complete: count === n };
}

/**
 * pandas `describe` of one frame (a task's rows, or an agent's): `mean/…`, `max/…`, `min/…`, `median/…`,
 * `std/…` over every table column, undefined values left out. `rows` lists row numbers, or null for
 * the contiguous range [start, end).
 */
export function describeFrame(table: NumericTable, rows: ArrayLike<number> | null, start = 0, end = table.rows): Record<string, unknown> {
  const stats = table.columns.map((_, c) => columnStats(table.column(c), rows, start, end));
  // NeMo Gym: when no column has a std (e.g. one rollout), complete columns report std 0 instead.
  if (stats.every((s) => Number.isNaN(s.std))) for (const s of stats) if (s.complete) s.std = 0;
  const intExtremes = table.allIntColumns();
  const out: Record<string, unknown> = {};
  for (const stat of BASE_STATS) {
    table.columns.forEach((name, c) => {
      const v = stats[c]![stat];
      if (Number.isNaN(v)) return;
      out[`${stat}/${name}`] = (stat === "max" || stat === "min") && intExtremes ? v : pyFloat(v);
    });
  }
  return out;
}
