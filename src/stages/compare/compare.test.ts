import { describe, expect, test } from "bun:test";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { compareRuns, renderCompareMarkdown } from "./index.ts";
import { loadRun } from "./load.ts";

type Row = Record<string, unknown>;
const near = (got: number | null, want: number, rel = 1e-12) => expect(Math.abs(got! - want)).toBeLessThanOrEqual(rel * Math.abs(want));

/** A minimal aggregate-metrics file: repeat means for Welch, per-task rows for pairing and flips. */
function writeRun(dir: string, name: string, repeatMeans: number[], tasks: Array<[number, number[]]>): string {
  const rollouts = path.join(dir, `${name}.jsonl`);
  const mean = repeatMeans.reduce((a, b) => a + b, 0) / repeatMeans.length;
  const groups = tasks.map(([t, rewards]) => ({
    _ng_task_index: t,
    "mean/reward": rewards.reduce((a, b) => a + b, 0) / rewards.length,
    "min/reward": Math.min(...rewards),
    "max/reward": Math.max(...rewards),
    num_rollouts: rewards.length,
    expected_num_rollouts: rewards.length,
    rollout_infos: rewards.map((reward, r) => ({ rollout_id: `${t}:${r}`, reward })),
  }));
  const entry = {
    agent_ref: { name: "agent" },
    agent_metrics: { "mean/reward": mean, "mean/score": mean, "std/score": 1, "mean_across_repeats/mean/score": mean, "pass@1/accuracy": 50 },
    key_metrics: { "mean/score": mean },
    group_level_metrics: groups,
    repeat_level_metrics: repeatMeans.map((m, i) => ({ _ng_rollout_index: i, sample_count: tasks.length, missing_count: 0, "mean/score": m })),
  };
  fs.writeFileSync(path.join(dir, `${name}_aggregate_metrics.json`), JSON.stringify([entry]));
  return rollouts;
}

describe("compare", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gym-compare-test-"));
  // §7E repeat values; tasks chosen so that per-task differences of mean/reward are [+0.5, 0, -0.5 ...].
  const base = writeRun(dir, "base", [70, 72, 68, 71], [[0, [1, 1]], [1, [0, 0]], [2, [1, 0]], [3, [0, 0]]]);
  const cand = writeRun(dir, "cand", [74, 75, 73, 77, 76], [[0, [0, 0]], [1, [1, 1]], [2, [1, 1]], [3, [0, 0]], [4, [1, 1]]]);
  const report = compareRuns({ baseline: [loadRun(base)], candidate: [loadRun(cand)] });
  const row = (m: string) => report.comparisons[0]!.metrics.find((r) => r.metric === m)!;

  test("Welch interval of candidate − baseline (§7E: Δ 4.75, ν 6.302353651176825, 95% [2.0684009103454426, 7.431599089654558])", () => {
    const c = row("mean/score").candidates[0]!;
    expect(c.delta).toBe(4.75);
    expect(c.delta_ci_method).toBe("welch");
    near(c.delta_ci_df, 6.302353651176825);
    near(c.delta_ci_low, 2.0684009103454426);
    near(c.delta_ci_high, 7.431599089654558);
    expect([c.repeat_values_n, row("mean/score").baseline!.repeat_values_n]).toEqual([5, 4]);
  });

  test("paired per-task interval, hand-derived", () => {
    // mean/score has no per-task rows, so no paired interval; mean/reward has: tasks 0..3 in common,
    // d = [0-1, 1-0, 1-0.5, 0-0] = [-1, 1, 0.5, 0]; mean 0.125; Σ(d−0.125)² = 1.265625+0.765625+0.140625+0.015625
    // = 2.1875; s² = 0.7291666…; SE = √(0.7291666…/4) = 0.42695628191498325; t(0.975, 3) = 3.1824463052837078;
    // CI = 0.125 ± 1.3587654418980075 = [-1.2337654418980075, 1.4837654418980075].
    const c = row("mean/reward").candidates[0]!;
    const se = Math.sqrt(2.1875 / 3 / 4);
    expect(c.paired_task_count).toBe(4);
    expect(c.paired_delta).toBe(0.125);
    near(c.paired_ci_low, 0.125 - 3.1824463052837078 * se);
    near(c.paired_ci_high, 0.125 + 3.1824463052837078 * se);
    near(c.paired_ci_low, -1.2337654418980075);
    near(c.paired_ci_high, 1.4837654418980075);
    expect(c.recommended_interval).toBe("paired");
    expect(row("mean/score").candidates[0]!.recommended_interval).toBe("welch");
    expect(c.paired_mde).toBeGreaterThan(0);
  });

  test("rows: own rows only for point estimates; flips in binary mode (§7G rules)", () => {
    expect(report.comparisons[0]!.metrics.map((r) => r.metric)).toEqual(["mean/reward", "mean/score", "pass@1/accuracy"]);
    const f = report.comparisons[0]!.flips[0]!;
    expect(f.mode).toBe("binary");
    expect([f.common_task_count, f.candidate_only_task_count, f.pass_to_fail_count, f.fail_to_pass_count, f.tied_count, f.unchanged_count, f.net]).toEqual([4, 1, 1, 1, 1, 1, 0]);
    expect(f.flips.map((x) => [x.task_index, x.direction])).toEqual([[0, "pass_to_fail"], [1, "fail_to_pass"]]);
    const md = renderCompareMarkdown(report);
    expect(md).toContain("Which interval to trust");
    expect(md).toContain("| mean/score | 70.25 |");
  });

  test("pooling concatenates repeats (§7F) and --confidence-level changes only the difference interval", () => {
    const b1 = writeRun(dir, "b1", [70, 72], [[0, [1]]]);
    const b2 = writeRun(dir, "b2", [68, 71], [[0, [1]]]);
    const pooled = compareRuns({ baseline: [loadRun(b1), loadRun(b2)], candidate: [loadRun(cand)], confidenceLevel: 0.9 });
    const r = pooled.comparisons[0]!.metrics.find((m) => m.metric === "mean/score")!;
    expect(r.baseline!.value).toBe(70.25);
    near(r.candidates[0]!.delta_ci_low, 2.614008121188382);
    near(r.baseline!.ci_low, 67.53246911620398);
    expect(r.baseline!.repeat_values_n).toBe(4);
    expect(pooled.baseline.sources.length).toBe(2);
    expect(pooled.comparisons[0]!.metrics.find((m) => m.metric === "pass@1/accuracy")!.baseline!.value).toBeNull();
  });
});

test("a rollouts file written after its metrics (here: an invalid line appended) is named in a warning; an untouched one is not", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gym-compare-stale-"));
  const base = writeRun(dir, "base", [70, 72], [[0, [1, 1]]]);
  const cand = writeRun(dir, "cand", [74, 75], [[0, [0, 1]]]);
  fs.writeFileSync(base, '{"_ng_task_index": 0}\n');
  fs.writeFileSync(cand, '{"_ng_task_index": 0}\n');
  const past = new Date(Date.now() - 60_000);
  fs.utimesSync(base, past, past);
  fs.utimesSync(cand, past, past);
  expect(compareRuns({ baseline: [loadRun(base)], candidate: [loadRun(cand)] }).warnings).toEqual([]);
  fs.appendFileSync(base, "{not json\n");
  const future = new Date(Date.now() + 60_000);
  fs.utimesSync(base, future, future);
  const warnings = compareRuns({ baseline: [loadRun(base)], candidate: [loadRun(cand)] }).warnings;
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain(`${base} changed after its metrics`);
  expect(warnings[0]).toContain("gym eval aggregate --input-glob");
});
