/** Sample flips for `gym eval compare`: which tasks went from pass to fail (or back), or changed score. */
import { numericValue } from "../../metrics/pyjson.ts";
import { entryFor, type RunSource } from "./load.ts";

type Row = Record<string, unknown>;

export interface TaskFlip {
  task_index: number;
  baseline_score: number;
  candidate_score: number;
  delta: number;
  direction: "pass_to_fail" | "fail_to_pass" | "changed";
  baseline_rewards: number[] | null;
  candidate_rewards: number[] | null;
}

export interface FlipSummary {
  candidate_index: number;
  mode: "binary" | "continuous" | "unavailable";
  reason: string | null;
  field: "reward";
  common_task_count: number;
  baseline_only_task_count: number;
  candidate_only_task_count: number;
  pass_to_fail_count: number | null;
  fail_to_pass_count: number | null;
  tied_count: number | null;
  unchanged_count: number | null;
  net: number | null;
  flips: TaskFlip[];
}

interface TaskScore {
  score: number;
  binary: boolean;
  rewards: number[] | null;
}

function tasksOf(runs: RunSource[], agent: string): Map<number, TaskScore> | null {
  const sums = new Map<number, { s: number; n: number; binary: boolean; rewards: number[] | null }>();
  let any = false;
  for (const run of runs) {
    for (const g of ((entryFor(run, agent)?.group_level_metrics as Row[] | undefined) ?? [])) {
      const mean = numericValue(g["mean/reward"]);
      const task = numericValue(g._ng_task_index);
      if (mean === undefined || task === undefined) continue;
      any = true;
      const lo = numericValue(g["min/reward"]);
      const hi = numericValue(g["max/reward"]);
      const in01 = (x: number) => x === 0 || x === 1;
      const binary = lo === undefined && hi === undefined ? in01(mean) : in01(lo ?? NaN) && in01(hi ?? NaN);
      const infos = (g.rollout_infos as Row[] | undefined) ?? [];
      const rewards = infos.map((i) => numericValue(i.reward));
      const n = numericValue(g.num_rollouts) ?? 1;
      const acc = sums.get(task) ?? { s: 0, n: 0, binary: true, rewards: [] };
      acc.s += mean * n;
      acc.n += n;
      acc.binary &&= binary;
      acc.rewards = acc.rewards && rewards.every((r) => r !== undefined) ? [...acc.rewards, ...(rewards as number[])] : null;
      sums.set(task, acc);
    }
  }
  if (!any) return null;
  return new Map([...sums].map(([t, a]) => [t, { score: a.s / a.n, binary: a.binary, rewards: a.rewards }]));
}

const empty = (reason: string): FlipSummary => ({
  candidate_index: 0, mode: "unavailable", reason, field: "reward", common_task_count: 0, baseline_only_task_count: 0, candidate_only_task_count: 0,
  pass_to_fail_count: null, fail_to_pass_count: null, tied_count: null, unchanged_count: null, net: null, flips: [],
});

/** Joins both sides' group rows on the task index and classifies every common task. */
export function sampleFlips(baseline: RunSource[], candidate: RunSource[], bAgent: string, cAgent: string): FlipSummary {
  const b = tasksOf(baseline, bAgent);
  const c = tasksOf(candidate, cAgent);
  if (!b || !c) return empty(`${!b ? "baseline" : "candidate"} has no per-task mean/reward`);
  const common = [...b.keys()].filter((t) => c.has(t)).sort((x, y) => x - y);
  const counts = { common_task_count: common.length, baseline_only_task_count: b.size - common.length, candidate_only_task_count: [...c.keys()].filter((t) => !b.has(t)).length };
  if (common.length === 0) return { ...empty("no task is on both sides"), ...counts };
  const binary = [...b.values(), ...c.values()].every((s) => s.binary);
  const flips: TaskFlip[] = [];
  let p2f = 0, f2p = 0, tied = 0, unchanged = 0;
  for (const t of common) {
    const x = b.get(t)!;
    const y = c.get(t)!;
    const flip = (direction: TaskFlip["direction"]) =>
      flips.push({ task_index: t, baseline_score: x.score, candidate_score: y.score, delta: y.score - x.score, direction, baseline_rewards: x.rewards, candidate_rewards: y.rewards });
    if (!binary) {
      if (x.score !== y.score) flip("changed");
      continue;
    }
    if (x.score === 0.5 || y.score === 0.5) tied++;
    else if (x.score > 0.5 && y.score <= 0.5) p2f++, flip("pass_to_fail");
    else if (x.score <= 0.5 && y.score > 0.5) f2p++, flip("fail_to_pass");
    else unchanged++;
  }
  const rank = (f: TaskFlip) => (f.direction === "pass_to_fail" ? 0 : 1);
  flips.sort((p, q) => (binary ? rank(p) - rank(q) : 0) || Math.abs(q.delta) - Math.abs(p.delta) || p.task_index - q.task_index);
  return {
    candidate_index: 0, mode: binary ? "binary" : "continuous", reason: null, field: "reward", ...counts,
    pass_to_fail_count: binary ? p2f : null, fail_to_pass_count: binary ? f2p : null, tied_count: binary ? tied : null,
    unchanged_count: binary ? unchanged : null, net: binary ? f2p - p2f : null, flips,
  };
}
