/** NeMo Gym 0.7 repeat-level metrics: statistics per rollout index (one "repeat" of every task) and across repeats. */
import { median, pairwiseSum, percentileLinear } from "./numeric.ts";
import { tInterval } from "./intervals.ts";
import { pyFloat } from "./pyjson.ts";

/** What the repeat statistics need from a table: per row, its task and rollout index. */
export interface RepeatSource {
  /** Columns by name and their values by row (a NumericTable, or a TableView's `asColumns()`). */
  table: { readonly columns: string[]; column(c: number): Float64Array };
  /** Row numbers of one agent, in (task, rollout) order. */
  rows: ArrayLike<number>;
  taskOf: (row: number) => number;
  rolloutOf: (row: number) => number;
}

function seriesStats(values: number[]) {
  const n = values.length;
  const mean = pairwiseSum(values) / n;
  let std = 0;
  if (n > 1) {
    const sq = values.map((x) => (mean - x) * (mean - x));
    std = Math.sqrt(pairwiseSum(sq) / (n - 1));
  }
  const sorted = Float64Array.from(values).sort();
  return { n, mean, std, sorted };
}

/**
 * One element per rollout index (only when the agent has ≥ 2 of them, else []): `sample_count`,
 * `missing_count`, then per column (alphabetical) mean/median/std/sem/min/max/p25/p75 and a 95 % t-interval.
 */
export function repeatLevelMetrics(src: RepeatSource, warn: (message: string) => void = () => {}): Array<Record<string, unknown>> {
  const byRepeat = new Map<number, number[]>();
  const allTasks = new Set<number>();
  for (let i = 0; i < src.rows.length; i++) {
    const row = src.rows[i]!;
    allTasks.add(src.taskOf(row));
    const r = src.rolloutOf(row);
    let list = byRepeat.get(r);
    if (!list) byRepeat.set(r, (list = []));
    list.push(row);
  }
  if (byRepeat.size < 2) return [];
  const columns = src.table.columns.map((name, c) => ({ name, c })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out: Array<Record<string, unknown>> = [];
  let incomplete = 0;
  for (const r of [...byRepeat.keys()].sort((a, b) => a - b)) {
    const rows = byRepeat.get(r)!;
    const present = new Set(rows.map((row) => src.taskOf(row))).size;
    const entry: Record<string, unknown> = { _ng_rollout_index: r, sample_count: present, missing_count: allTasks.size - present };
    if (allTasks.size > present) incomplete++;
    for (const { name, c } of columns) {
      const column = src.table.column(c);
      const values = rows.map((row) => column[row]!).filter((x) => !Number.isNaN(x));
      if (values.length === 0) continue;
      const s = seriesStats(values);
      const sem = s.std / Math.sqrt(s.n);
      entry[`mean/${name}`] = pyFloat(s.mean);
      entry[`median/${name}`] = pyFloat(median(s.sorted));
      entry[`std/${name}`] = pyFloat(s.std);
      entry[`sem/${name}`] = pyFloat(sem);
      entry[`min/${name}`] = pyFloat(s.sorted[0]!);
      entry[`max/${name}`] = pyFloat(s.sorted[s.n - 1]!);
      entry[`p25/${name}`] = pyFloat(percentileLinear(s.sorted, 0.25));
      entry[`p75/${name}`] = pyFloat(percentileLinear(s.sorted, 0.75));
      const ci = tInterval(s.mean, sem, s.n);
      if (s.n > 1 && sem === 0) warn(`repeat ${r}: ${name} is identical in all ${s.n} tasks, so its confidence interval collapses to a point`);
      if (ci) [entry[`ci_low_95/${name}`], entry[`ci_high_95/${name}`]] = [pyFloat(ci[0]), pyFloat(ci[1])];
    }
    out.push(entry);
  }
  if (incomplete > 0) {
    warn(`${incomplete} repeat(s) are missing rollouts for some tasks: repeat-level statistics come from unequal sample sizes and may not be comparable`);
  }
  return out;
}

/** The cross-repeat keys merged into agent_metrics: mean/median/se and a 95 % interval of every per-repeat `mean/…`. */
export function acrossRepeatMetrics(repeats: Array<Record<string, unknown>>, warn: (message: string) => void = () => {}): Record<string, unknown> {
  const columns: string[] = [];
  for (const entry of repeats) for (const k of Object.keys(entry)) if (k.startsWith("mean/") && !columns.includes(k)) columns.push(k);
  const out: Record<string, unknown> = {};
  for (const col of columns) {
    const values = repeats.map((e) => Number(e[col] ?? NaN)).filter((x) => !Number.isNaN(x));
    if (values.length === 0) continue;
    const s = seriesStats(values);
    const se = s.std / Math.sqrt(s.n);
    out[`mean_across_repeats/${col}`] = pyFloat(s.mean);
    out[`median_across_repeats/${col}`] = pyFloat(median(s.sorted));
    out[`se_across_repeats/${col}`] = pyFloat(se);
    if (s.n > 1 && se === 0) warn(`${col} is identical in every repeat, so its confidence interval collapses to a point`);
    const ci = tInterval(s.mean, se, s.n);
    if (ci) [out[`ci_low_95_across_repeats/${col}`], out[`ci_high_95_across_repeats/${col}`]] = [pyFloat(ci[0]), pyFloat(ci[1])];
  }
  return out;
}
