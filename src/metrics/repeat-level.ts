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
  const n = src.rows.length;
  const tasks = new Float64Array(n);
  const rollouts = new Float64Array(n);
  const repeatKeys = new Set<number>();
  let sortedByTask = true;
  for (let i = 0; i < n; i++) {
    const row = src.rows[i]!;
    tasks[i] = src.taskOf(row);
    rollouts[i] = src.rolloutOf(row);
    repeatKeys.add(rollouts[i]!);
    if (!(tasks[i]! >= (i > 0 ? tasks[i - 1]! : -Infinity))) sortedByTask = false;
  }
  if (repeatKeys.size < 2) return [];
  const columns = src.table.columns.map((name, c) => ({ name, c })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const allTasks = distinctCount(tasks, n, sortedByTask);
  const out: Array<Record<string, unknown>> = [];
  let incomplete = 0;
  // Scratch reused by every repeat and column, as large as the largest repeat: typed arrays, no per-value garbage.
  const sizes = new Map<number, number>();
  for (let i = 0; i < n; i++) sizes.set(rollouts[i]!, (sizes.get(rollouts[i]!) ?? 0) + 1);
  const largest = Math.max(...sizes.values());
  const picked = new Int32Array(largest);
  const pickedTasks = new Float64Array(largest);
  const values = new Float64Array(largest);
  const scratch = new Float64Array(largest);
  for (const r of [...repeatKeys].sort((a, b) => a - b)) {
    let m = 0;
    for (let i = 0; i < n; i++) {
      const x = rollouts[i]!;
      if (x === r || (x !== x && r !== r)) (pickedTasks[m] = tasks[i]!), (picked[m++] = src.rows[i]!);
    }
    const present = distinctCount(pickedTasks, m, sortedByTask);
    const entry: Record<string, unknown> = { _ng_rollout_index: r, sample_count: present, missing_count: allTasks - present };
    if (allTasks > present) incomplete++;
    for (const { name, c } of columns) {
      const column = src.table.column(c);
      let k = 0;
      for (let i = 0; i < m; i++) {
        const x = column[picked[i]!]!;
        if (!Number.isNaN(x)) values[k++] = x;
      }
      if (k === 0) continue;
      const mean = pairwiseSum(values, 0, k) / k;
      let std = 0;
      if (k > 1) {
        for (let i = 0; i < k; i++) scratch[i] = (mean - values[i]!) * (mean - values[i]!);
        std = Math.sqrt(pairwiseSum(scratch, 0, k) / (k - 1));
      }
      scratch.set(values.subarray(0, k));
      const sorted = scratch.subarray(0, k).sort();
      const sem = std / Math.sqrt(k);
      entry[`mean/${name}`] = pyFloat(mean);
      entry[`median/${name}`] = pyFloat(median(sorted));
      entry[`std/${name}`] = pyFloat(std);
      entry[`sem/${name}`] = pyFloat(sem);
      entry[`min/${name}`] = pyFloat(sorted[0]!);
      entry[`max/${name}`] = pyFloat(sorted[k - 1]!);
      entry[`p25/${name}`] = pyFloat(percentileLinear(sorted, 0.25));
      entry[`p75/${name}`] = pyFloat(percentileLinear(sorted, 0.75));
      const ci = tInterval(mean, sem, k);
      if (k > 1 && sem === 0) warn(`repeat ${r}: ${name} is identical in all ${k} tasks, so its confidence interval collapses to a point`);
      if (ci) [entry[`ci_low_95/${name}`], entry[`ci_high_95/${name}`]] = [pyFloat(ci[0]), pyFloat(ci[1])];
    }
    out.push(entry);
  }
  if (incomplete > 0) {
    warn(`${incomplete} repeat(s) are missing rollouts for some tasks: repeat-level statistics come from unequal sample sizes and may not be comparable`);
  }
  return out;
}

/** How many distinct values (a Set's count: NaN once, −0 = 0) the first n hold; sorted input needs no Set. */
function distinctCount(values: Float64Array, n: number, sorted: boolean): number {
  if (!sorted) {
    const set = new Set<number>();
    for (let i = 0; i < n; i++) set.add(values[i]!);
    return set.size;
  }
  let count = 0;
  for (let i = 0; i < n; i++) if (i === 0 || values[i] !== values[i - 1]) count++;
  return count;
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
