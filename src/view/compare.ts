/**
 * The Compare screen's numbers: `gym eval compare`'s report on the two runs (their aggregate metrics, or entries
 * made from the rows when a run has none), rollouts paired by (task, rollout), per-task means and their flips.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { pairedInterval } from "../metrics/intervals.ts";
import { runPaths } from "../outputs/paths.ts";
import { compareRuns, type CompareReport } from "../stages/compare/index.ts";
import { loadRun, type RunSource } from "../stages/compare/load.ts";
import { rolloutKey, textAt, type SampleColumns } from "./columns.ts";

export interface TaskMean {
  task: number;
  a: number;
  b: number;
  /** Row positions of the task's first rollout in each run (for the side-by-side transcript). */
  a_row: number;
  b_row: number;
}

export interface CompareView {
  a: string;
  b: string;
  paired_rollouts: { n: number; delta: number | null; low: number | null; high: number | null };
  tasks: TaskMean[];
  /** Tasks whose mean reward differs: better (b above a) first by size, then worse. */
  flips: Array<TaskMean & { direction: "better" | "worse" }>;
  report: { metric: string; delta: number | null; paired_delta: number | null; paired_ci_low: number | null; paired_ci_high: number | null; delta_ci_low: number | null; delta_ci_high: number | null; pass_to_fail: number | null; fail_to_pass: number | null; mode: string; source: string[] } | null;
  warnings: string[];
}

interface Side {
  name: string;
  file: string;
  columns: SampleColumns;
}

function taskMeans(c: SampleColumns): Map<number, { sum: number; n: number; first: number; rewards: number[] }> {
  const out = new Map<number, { sum: number; n: number; first: number; rewards: number[] }>();
  for (let i = 0; i < c.count; i++) {
    const t = c.task[i]!;
    const r = c.reward[i]!;
    if (Number.isNaN(t) || Number.isNaN(r)) continue;
    const acc = out.get(t) ?? { sum: 0, n: 0, first: i, rewards: [] };
    acc.sum += r;
    acc.n++;
    acc.rewards.push(r);
    out.set(t, acc);
  }
  return out;
}

/** A run as `eval compare` reads it: its aggregate-metrics file, else one entry made from the rows' rewards. */
function source(side: Side): { run: RunSource; from: string } {
  const file = runPaths(side.file).aggregateMetrics;
  if (fs.existsSync(file)) return { run: loadRun(side.file, file), from: `${side.name}'s ${path.basename(file)}` };
  const tasks = taskMeans(side.columns);
  const agent = side.columns.agent.values.find(Boolean) || "agent";
  const byRollout = new Map<number, { sum: number; n: number }>();
  for (let i = 0; i < side.columns.count; i++) {
    const k = side.columns.rollout[i]!;
    const r = side.columns.reward[i]!;
    if (Number.isNaN(k) || Number.isNaN(r)) continue;
    const acc = byRollout.get(k) ?? { sum: 0, n: 0 };
    acc.sum += r;
    acc.n++;
    byRollout.set(k, acc);
  }
  let sum = 0;
  let n = 0;
  for (const t of tasks.values()) (sum += t.sum), (n += t.n);
  const entry = {
    agent_ref: { name: agent },
    agent_metrics: n ? { "mean/reward": sum / n } : {},
    key_metrics: n ? { "mean/reward": sum / n } : {},
    group_level_metrics: [...tasks].sort((x, y) => x[0] - y[0]).map(([task, t]) => ({
      _ng_task_index: task, "mean/reward": t.sum / t.n, "min/reward": Math.min(...t.rewards), "max/reward": Math.max(...t.rewards),
      num_rollouts: t.n, rollout_infos: t.rewards.map((reward) => ({ reward })),
    })),
    repeat_level_metrics: [...byRollout].sort((x, y) => x[0] - y[0]).map(([k, r]) => ({ _ng_rollout_index: k, "mean/reward": r.sum / r.n })),
  };
  return { run: { rollouts: side.file, aggregateMetrics: `${side.name} (rows)`, entries: [entry] }, from: `${side.name} (rewards of its rows)` };
}

/** Compares run B against run A (A is the baseline). */
export function compareView(a: Side, b: Side): CompareView {
  const warnings: string[] = [];
  const ta = taskMeans(a.columns);
  const tb = taskMeans(b.columns);
  const tasks: TaskMean[] = [...ta.keys()].filter((t) => tb.has(t)).sort((x, y) => x - y).map((task) => {
    const x = ta.get(task)!;
    const y = tb.get(task)!;
    return { task, a: x.sum / x.n, b: y.sum / y.n, a_row: x.first, b_row: y.first };
  });
  const flips = tasks
    .filter((t) => t.a !== t.b)
    .map((t) => ({ ...t, direction: t.b > t.a ? ("better" as const) : ("worse" as const) }))
    .sort((p, q) => (p.direction === q.direction ? Math.abs(q.b - q.a) - Math.abs(p.b - p.a) || p.task - q.task : p.direction === "better" ? -1 : 1));

  const rewardsB = new Map<string, number>();
  for (let i = 0; i < b.columns.count; i++) rewardsB.set(rolloutKey(b.columns.task[i]!, b.columns.rollout[i]!), b.columns.reward[i]!);
  const differences: number[] = [];
  for (let i = 0; i < a.columns.count; i++) {
    const y = rewardsB.get(rolloutKey(a.columns.task[i]!, a.columns.rollout[i]!));
    const x = a.columns.reward[i]!;
    if (y !== undefined && !Number.isNaN(x) && !Number.isNaN(y) && !Number.isNaN(a.columns.task[i]!)) differences.push(y - x);
  }
  const paired = differences.length > 1 ? pairedInterval(differences) : null;
  const mean = differences.length ? differences.reduce((s, d) => s + d, 0) / differences.length : null;

  let report: CompareView["report"] = null;
  try {
    const [sa, sb] = [source(a), source(b)];
    const full: CompareReport = compareRuns({ baseline: [sa.run], candidate: [sb.run], command: "gym view" });
    warnings.push(...full.warnings);
    const comparison = full.comparisons[0];
    const row = comparison?.metrics.find((m) => m.metric === "mean/reward") ?? comparison?.metrics.find((m) => m.is_key_metric);
    const c = row?.candidates[0];
    const flipsOf = comparison?.flips[0];
    report = {
      metric: row?.metric ?? "mean/reward", delta: c?.delta ?? null, paired_delta: c?.paired_delta ?? null, paired_ci_low: c?.paired_ci_low ?? null,
      paired_ci_high: c?.paired_ci_high ?? null, delta_ci_low: c?.delta_ci_low ?? null, delta_ci_high: c?.delta_ci_high ?? null,
      pass_to_fail: flipsOf?.pass_to_fail_count ?? null, fail_to_pass: flipsOf?.fail_to_pass_count ?? null, mode: flipsOf?.mode ?? "unavailable",
      source: [sa.from, sb.from],
    };
  } catch (error) {
    warnings.push(`eval compare could not compare these runs: ${(error as Error).message}`);
  }
  return {
    a: a.name, b: b.name, paired_rollouts: { n: differences.length, delta: paired?.delta ?? mean, low: paired?.low ?? null, high: paired?.high ?? null },
    tasks, flips, report, warnings,
  };
}
