/** metrics.md §7 worked examples (values are Python repr, verified against NeMo Gym by the spec authors). */
import { describe, expect, test } from "bun:test";
import { computeAggregateMetrics } from "./baseline.ts";
import { addAvgSampleStdDev, computePassMajorityMetrics, highestKMetrics } from "./pass-k.ts";
import { bigRatio, comb, pairwiseSum, pyRound, pySum } from "./numeric.ts";
import { formatPyFloat, parsePythonJson, stringifyPython } from "./pyjson.ts";
import { summarize, tInterval, weightedWelch, welchInterval } from "./intervals.ts";
import { studentTQuantile } from "./student-t.ts";

type Row = Record<string, unknown>;
const py = (v: unknown) => stringifyPython(v);
const parseLines = (text: string) => text.trim().split("\n").map((l) => parsePythonJson(l) as Row);
/** Relative closeness for values that go through a t quantile (scipy itself is only ~1e-15 exact). */
const near = (got: number, want: number, rel = 1e-12) => expect(Math.abs(got - want)).toBeLessThanOrEqual(rel * Math.abs(want));

describe("§7A baseline aggregate", () => {
  // Parsed from JSON text so that 1.0 and 0.0 stay Python floats (JS literals cannot say so).
  const rows = parseLines(`
{"_ng_task_index":0,"_ng_rollout_index":0,"reward":1.0,"correct":true,"response":{"usage":{"input_tokens":10,"output_tokens":5,"total_tokens":15}}}
{"_ng_task_index":0,"_ng_rollout_index":1,"reward":0.0,"correct":false,"response":{"usage":{"input_tokens":12,"output_tokens":7,"total_tokens":19}}}
{"_ng_task_index":0,"_ng_rollout_index":2,"reward":1.0,"correct":true,"response":{"usage":{"input_tokens":11,"output_tokens":6,"total_tokens":17}}}
{"_ng_task_index":1,"_ng_rollout_index":0,"reward":0.5,"correct":false,"judge":"B","response":{"usage":{"input_tokens":20,"output_tokens":10,"total_tokens":30}}}
{"_ng_task_index":2,"_ng_rollout_index":0,"reward":null,"correct":false,"response":{"usage":{"input_tokens":8,"output_tokens":4,"total_tokens":12}}}
{"_ng_task_index":2,"_ng_rollout_index":1,"reward":0.25,"correct":true,"response":{"usage":{"input_tokens":9,"output_tokens":3,"total_tokens":12}}}`);
  const m = computeAggregateMetrics(rows, { repeatLevel: false });

  test("agent_metrics", () => {
    const a = m.agent_metrics;
    expect(Object.keys(a).slice(0, 5)).toEqual(["mean/reward", "mean/correct", "mean/input_tokens", "mean/output_tokens", "mean/total_tokens"]);
    expect([a["mean/reward"], a["mean/correct"], a["mean/input_tokens"], a["mean/output_tokens"], a["mean/total_tokens"]].map(py)).toEqual(["0.55", "0.5", "11.666666666666666", "5.833333333333333", "17.5"]);
    expect([a["max/reward"], a["max/correct"], a["max/input_tokens"], a["min/reward"], a["min/output_tokens"]].map(py)).toEqual(["1.0", "1.0", "20.0", "0.0", "3.0"]);
    expect([a["median/reward"], a["median/correct"], a["median/input_tokens"], a["median/output_tokens"], a["median/total_tokens"]].map(py)).toEqual(["0.5", "0.5", "10.5", "5.5", "16.0"]);
    expect([a["std/reward"], a["std/correct"], a["std/input_tokens"], a["std/output_tokens"], a["std/total_tokens"]].map(py)).toEqual([
      "0.4472135954999579", "0.5477225575051661", "4.320493798938574", "2.48327740429189", "6.715653356152326",
    ]);
    expect(Object.keys(m.key_metrics)).toEqual(Object.keys(a).slice(0, 5));
    expect(Object.keys(a).some((k) => k.includes("judge"))).toBe(false);
  });

  test("group rows", () => {
    const [g0, g1, g2] = m.group_level_metrics as Row[];
    expect([g0!["mean/reward"], g0!["median/reward"], g0!["std/reward"], g0!["std/correct"], g0!["std/input_tokens"], g0!["std/total_tokens"]].map(py)).toEqual([
      "0.6666666666666666", "1.0", "0.5773502691896258", "0.5773502691896258", "1.0", "2.0",
    ]);
    const stds1 = Object.entries(g1!).filter(([k]) => k.startsWith("std/"));
    expect(stds1.length).toBe(5);
    expect(stds1.every(([, v]) => py(v) === "0.0")).toBe(true);
    expect([g2!["mean/reward"], g2!["median/reward"], g2!["std/correct"], g2!["std/input_tokens"], g2!["std/output_tokens"], g2!["std/total_tokens"]].map(py)).toEqual([
      "0.25", "0.25", "0.7071067811865476", "0.7071067811865476", "0.7071067811865476", "0.0",
    ]);
    expect("std/reward" in g2!).toBe(false);
    expect((g2!.rollout_infos as Row[])[0]!.reward).toBeNull();
    expect(g0!.sample).toEqual({ agent_ref: { name: "agent" } });
    expect([g0!.num_rollouts, g0!.expected_num_rollouts, g0!.missing_num_rollouts, py(g0!.reward_profile_completion_pct)]).toEqual([3, 3, 0, "100.0"]);
  });

  test("doc example: tasks [1,1,1,1], [0,0,0,0], [1,0,1,0]", () => {
    const rs = [[1, 1, 1, 1], [0, 0, 0, 0], [1, 0, 1, 0]].flatMap((t, i) => t.map((reward, j) => ({ _ng_task_index: i, _ng_rollout_index: j, reward })));
    const doc = computeAggregateMetrics(rs, { repeatLevel: false });
    expect([doc.agent_metrics["mean/reward"], doc.agent_metrics["median/reward"], doc.agent_metrics["std/reward"]].map(py)).toEqual(["0.5", "0.5", "0.5222329678670935"]);
    expect(py((doc.group_level_metrics[2] as Row)["std/reward"])).toBe("0.5773502691896257");
  });
});

describe("§7B pass@k / majority@k (mcqa-style)", () => {
  const t = (cells: Array<[number, string | null]>, task: number) => cells.map(([reward, ans], i) => ({ _ng_task_index: task, _ng_rollout_index: i, reward, extracted_answer: ans }));
  const tasks = [
    t([[1, "A"], [1, "A"], [0, "B"], [0, null]], 0),
    t([[0, "C"], [1, "D"], [0, "C"], [1, "D"]], 1),
    t([[0, null], [0, null], [0, "E"], [0, "F"]], 2),
  ];
  const result = computePassMajorityMetrics(tasks, { answerKey: "extracted_answer" });
  const m = result.metrics;
  const expected: Record<string, string> = {
    "pass@1/accuracy": "33.333333333333336", "pass@2/accuracy": "55.555555555555564", "pass@3/accuracy": "66.66666666666667", "pass@4/accuracy": "66.66666666666667",
    "pass@1[avg-of-1]/accuracy": "33.333333333333336", "pass@1[avg-of-2]/accuracy": "50.0", "pass@1[avg-of-3]/accuracy": "33.333333333333336", "pass@1[avg-of-4]/accuracy": "33.333333333333336",
    "majority@1/accuracy": "33.333333333333336", "majority@2/accuracy": "50.0", "majority@3/accuracy": "33.333333333333336", "majority@4/accuracy": "50.0",
    "pass@1/no_answer": "25.0", "pass@2/no_answer": "44.44444444444445", "pass@3/no_answer": "58.333333333333336", "pass@4/no_answer": "66.66666666666667",
    "pass@1[avg-of-3]/no_answer": "22.222222222222218", "pass@1[avg-of-4]/no_answer": "25.0",
    "majority@1/no_answer": "0.0", "majority@2/no_answer": "0.0", "majority@3/no_answer": "0.0", "majority@4/no_answer": "0.0",
    "pass@1[avg-of-2]/accuracy/std_dev_across_runs": "23.570226039551585", "pass@1[avg-of-2]/accuracy/std_err_across_runs": "16.666666666666668",
    "pass@1[avg-of-4]/accuracy/std_dev_across_runs": "27.21655269759087", "pass@1[avg-of-4]/accuracy/std_err_across_runs": "13.608276348795435",
  };
  for (const [k, v] of Object.entries(expected)) test(k, () => expect(py(m[k])).toBe(v));

  test("per_sample_aggregate and key order", () => {
    expect(py(m.per_sample_aggregate)).toBe(
      '{"accuracy":[33.333333333333336,66.66666666666667,0.0,33.333333333333336],"no_answer":[33.333333333333336,33.333333333333336,0.0,33.333333333333336]}',
    );
    expect(Object.keys(m).slice(0, 6)).toEqual(["pass@1/accuracy", "pass@1[avg-of-1]/accuracy", "majority@1/accuracy", "pass@1/no_answer", "pass@1[avg-of-1]/no_answer", "majority@1/no_answer"]);
  });

  test("avg_sample_std_dev for k = 2, 3, 4 (0–1 scale)", () => {
    addAvgSampleStdDev(result);
    expect([2, 3, 4].map((k) => py(m[`pass@1[avg-of-${k}]/accuracy/avg_sample_std_dev`]))).toEqual(["0.23570226039551587", "0.3849001794597506", "0.38490017945975047"]);
  });

  test("mcqa key metrics through highest_k_metrics", () => {
    const am: Row = { "mean/reward": 0.3333333333333333, ...m };
    const key = {
      "mean/reward": am["mean/reward"],
      ...highestKMetrics(am, "pass@1[avg-of-{k}]", ["accuracy", "no_answer"]),
      ...highestKMetrics(am, "pass@{k}", ["no_answer"]),
      ...highestKMetrics(am, "majority@{k}", ["accuracy"]),
      "pass@1/accuracy": am["pass@1/accuracy"],
    };
    expect(py(key)).toBe('{"mean/reward":0.3333333333333333,"pass@1[avg-of-4]/accuracy":33.333333333333336,"pass@1[avg-of-4]/no_answer":25.0,"pass@4/no_answer":66.66666666666667,"majority@4/accuracy":50.0,"pass@1/accuracy":33.333333333333336}');
  });

  test("continuous rewards use libm-free squares within 4 ulp (N5)", () => {
    const cont = computePassMajorityMetrics([[{ reward: 0.24 }, { reward: 0.14 }], [{ reward: 0.05 }, { reward: 0.63 }]]).metrics;
    near(cont["pass@1[avg-of-2]/accuracy/std_dev_across_runs"] as number, 16.97056274847714, 4 * 2.220446049250313e-16);
    near(cont["pass@1[avg-of-2]/accuracy/std_err_across_runs"] as number, 11.999999999999998, 4 * 2.220446049250313e-16);
  });
});

describe("§7N and §0 primitives", () => {
  const r = [0.6, 0.0, 0.1, 0.4, 0.1, 0.1, 0.6, 0.7, 0.9, 0.1];
  test("three summations of the same numbers", () => {
    expect(r.reduce((a, b) => a + b, 0)).toBe(3.6000000000000005);
    expect(pairwiseSum(r)).toBe(3.5999999999999996);
    expect(pySum(r)).toBe(3.6);
    expect(pairwiseSum(new Array(10).fill(0.1))).toBe(1.0);
    expect(pySum(new Array(10).fill(0.1))).toBe(1.0);
    expect(pySum([1e16, 1.0, 1.0])).toBe(1.0000000000000002e16);
    expect(pySum([1e16, 1n, 1n])).toBe(1e16);
  });
  test("ten one-rollout tasks: mean/reward 0.36 and pass@1 36.0", () => {
    const rows = r.map((reward, i) => ({ _ng_task_index: i, _ng_rollout_index: 0, reward }));
    expect(py(computeAggregateMetrics(rows, { repeatLevel: false }).agent_metrics["mean/reward"])).toBe("0.36");
    const pk = computePassMajorityMetrics(rows.map((row) => [row])).metrics;
    expect([py(pk["pass@1/accuracy"]), py(pk["pass@1[avg-of-1]/accuracy"])]).toEqual(["36.0", "36.0"]);
  });
  test("N3 Python round", () => {
    expect([pyRound(0.0625, 3), pyRound(1.125, 2), pyRound(2.675, 2), pyRound(1.005, 2), pyRound(0.0005, 3), pyRound(0.9995, 3)]).toEqual([0.062, 1.12, 2.67, 1.0, 0.001, 1.0]);
    expect([pyRound(-0.0625, 3), pyRound(0.5, 0), pyRound(1.5, 0), pyRound(2.5, 0)]).toEqual([-0.062, 0, 2, 2]);
  });
  test("N4 binomial ratio past 2^53", () => {
    expect(1 - bigRatio(comb(54, 24), comb(58, 24))).toBe(0.8906922478610318);
    expect(1 - Number(comb(54, 24)) / Number(comb(58, 24))).toBe(0.890692247861032);
  });
  test("repr-style float printing", () => {
    expect([1.0, 1e-5, 0.0001, 1e16, 1.5e16, 123456789012345.6, -0.0, 2.5e-7, 1e22].map(formatPyFloat)).toEqual([
      "1.0", "1e-05", "0.0001", "1e+16", "1.5e+16", "123456789012345.6", "-0.0", "2.5e-07", "1e+22",
    ]);
  });
});

describe("§7R repeat-level metrics", () => {
  const cells = [[[1.0, 100], [0.0, 150], [1.0, 120]], [[1.0, 110], [1.0, 130], [0.0, 160]]];
  const rows = cells.flatMap((repeat, r) => repeat.map(([reward, out], t) => ({ _ng_task_index: t, _ng_rollout_index: r, reward: parsePythonJson(reward!.toFixed(1)), response: { usage: { output_tokens: out } } })));
  const warnings: string[] = [];
  const m = computeAggregateMetrics(rows, { warn: (w) => warnings.push(w) });
  test("repeat 0 statistics", () => {
    const r0 = m.repeat_level_metrics![0]!;
    expect([r0._ng_rollout_index, r0.sample_count, r0.missing_count]).toEqual([0, 3, 0]);
    expect(["mean", "median", "std", "sem", "p25", "p75"].map((s) => py(r0[`${s}/reward`]))).toEqual(["0.6666666666666666", "1.0", "0.5773502691896258", "0.33333333333333337", "0.5", "1.0"]);
    expect(["mean", "median", "std", "sem", "p25", "p75"].map((s) => py(r0[`${s}/output_tokens`]))).toEqual(["123.33333333333333", "120.0", "25.166114784235834", "14.529663145135581", "110.0", "135.0"]);
    near(r0["ci_low_95/reward"] as number, -0.7675509099164876);
    near(r0["ci_high_95/reward"] as number, 2.100884243249821);
    near(r0["ci_low_95/output_tokens"] as number, 60.81723853957557);
    near(r0["ci_high_95/output_tokens"] as number, 185.84942812709107);
    expect(Object.keys(r0).slice(3, 5)).toEqual(["mean/output_tokens", "median/output_tokens"]);
  });
  test("across repeats", () => {
    const a = m.agent_metrics;
    expect(py(a["mean_across_repeats/mean/output_tokens"])).toBe("128.33333333333334");
    expect(py(a["se_across_repeats/mean/output_tokens"])).toBe("5.000000000000007");
    near(a["ci_low_95_across_repeats/mean/output_tokens"] as number, 64.80230965245978);
    near(a["ci_high_95_across_repeats/mean/output_tokens"] as number, 191.86435701420692);
    expect(py(a["se_across_repeats/mean/reward"])).toBe("0.0");
    expect([a["ci_low_95_across_repeats/mean/reward"], a["ci_high_95_across_repeats/mean/reward"]]).toEqual([0.6666666666666666, 0.6666666666666666]);
    expect(warnings.some((w) => w.includes("mean/reward"))).toBe(true);
  });
});

describe("§7E–H intervals", () => {
  const b = summarize([70, 72, 68, 71]);
  const c = summarize([74, 75, 73, 77, 76]);
  test("E: Welch for single runs", () => {
    expect([b.mean, b.variance, c.mean, c.variance]).toEqual([70.25, 2.9166666666666665, 75.0, 2.5]);
    const w95 = welchInterval(b, c, 0.95)!;
    expect([w95.delta, w95.se, w95.df]).toEqual([4.75, 1.1086778913041726, 6.302353651176825]);
    near(w95.t!, 2.4187359653218197);
    near(w95.low, 2.0684009103454426);
    near(w95.high, 7.431599089654558);
    const w90 = welchInterval(b, c, 0.9)!;
    near(w90.t!, 1.9266117738660626);
    near(w90.low, 2.614008121188382);
    near(w90.high, 6.885991878811618);
    near(studentTQuantile(0.975, 3), 3.1824463052837078);
    near(studentTQuantile(0.975, 4), 2.7764451051977934);
    const sb = tInterval(b.mean, Math.sqrt(b.variance) / 2, 4)!;
    near(sb[0], 67.53246911620398);
    near(sb[1], 72.96753088379602);
  });
  test("E on the 0–1 scale: same ν and t", () => {
    const w = welchInterval(summarize([0.7, 0.72, 0.68, 0.71]), summarize([0.74, 0.75, 0.73, 0.77, 0.76]), 0.95)!;
    near(w.df!, 6.302353651176825, 1e-9);
    near(w.low, 0.020684009103454426, 1e-9);
  });
  test("F: pooling concatenates repeats (not run means)", () => {
    const pooled = summarize([...[70, 72], ...[68, 71]]);
    expect(pooled).toEqual(b);
  });
  test("H: compare-suite, two benchmarks at equal weight", () => {
    const A = { baseline: summarize([60, 64, 62]), candidate: summarize([66, 70, 65, 69]), weight: 0.5 };
    const B = { baseline: summarize([85, 83, 87]), candidate: summarize([86, 88]), weight: 0.5 };
    const agg = weightedWelch([A, B], 0.9)!;
    expect([agg.delta, agg.se * agg.se, agg.se]).toEqual([3.75, 1.2708333333333333, 1.1273124382057236]);
    near(agg.df!, 7.496977837474815);
    near(agg.low, 1.6353278065264587);
    near(agg.high, 5.864672193473542);
    const agg95 = weightedWelch([A, B], 0.95)!;
    near(agg95.low, 1.11973679850413);
    const a = weightedWelch([{ ...A, weight: 1 }], 0.9)!;
    near(a.df!, 4.854383358098069);
    near(a.low, 2.136150204922645);
    const bb = weightedWelch([{ ...B, weight: 1 }], 0.9)!;
    near(bb.df!, 49 / 17);
    near(bb.low, -1.6554357599056262);
  });
});
