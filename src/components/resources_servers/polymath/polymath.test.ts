import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { reverifyPublished } from "../../../testing/published-rollouts.ts";
import { post, readJsonFile, readJsonlFile } from "../_common/testing.ts";
import { mathScoreFn } from "../math_with_judge/index.ts";
import createPolymath from "./index.ts";
import { weightedPassMajorityMetrics } from "./weighted.ts";

const dir = import.meta.dir;
type Case = { args: any[]; expected: any };
const golden = readJsonFile<Record<string, Case[]>>(join(dir, "..", "..", "..", ".."), "fixtures/qa/golden.json");
const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
const inputs = readJsonlFile(dir, "data/example_rollouts_materialized_inputs.jsonl");
const OUTPUTS = ["reward", "extracted_answer", "library_reward", "judge_evaluations"];
const config = { judge_model_server: { type: "responses_api_models", name: "policy_model" }, judge_responses_create_params: { input: [] }, should_use_judge: false };

describe("polymath: weighted metrics (labelled by NeMo Gym's own _compute_weighted_pass_majority_metrics)", () => {
  test("4 task sets: every key, in order, every value", () => {
    for (const { args, expected } of golden["polymath.weighted"]!) {
      const got = JSON.parse(JSON.stringify(weightedPassMajorityMetrics(args[0], mathScoreFn, "extracted_answer")));
      expect(Object.keys(got)).toEqual(Object.keys(expected));
      expect(got).toEqual(expected);
    }
  });
});

describe("polymath: NeMo Gym's published rollouts", () => {
  test("5 of 5 through /verify (math-verify), weight and language carried, key order", async () => {
    const app = createPolymath(config);
    for (const rollout of rollouts) {
      const r = await post(app, "/verify", Object.fromEntries(Object.entries(rollout).filter(([k]) => !OUTPUTS.includes(k))));
      expect(r.status).toBe(200);
      expect([...OUTPUTS, "weight", "language"].map((k) => r.body[k])).toEqual([...OUTPUTS, "weight", "language"].map((k) => rollout[k]));
      expect(Object.keys(r.body)).toEqual(["responses_create_params", "response", "reward", "expected_answer", "extracted_answer", "library_reward", "judge_evaluations", "weight", "language"]);
    }
    expect(rollouts).toHaveLength(5);
  });
  test("gym eval reverify on the binary with NeMo Gym's materialized inputs; per-language and weighted metrics", async () => {
    const joined: Record<string, any>[] = rollouts.map((r, i) => ({ ...inputs[i], ...r, _ng_task_index: inputs[i]!._ng_task_index, _ng_rollout_index: inputs[i]!._ng_rollout_index }));
    const r = await reverifyPublished("polymath", joined, OUTPUTS, { force: true });
    expect(r.code).toBe(0);
    expect(r.rows.map((row) => [row._ng_task_index, row.reward, row.weight])).toEqual(joined.map((row) => [row._ng_task_index, row.reward, row.weight]));
    const metrics = (r.metrics as any[])[0].agent_metrics;
    expect([metrics["en/pass@1/symbolic_accuracy"], metrics["zh/pass@1/symbolic_accuracy"]]).toEqual([(100 * 2) / 3, 100]);
    // weights 1, 2, 4, 1, 2 with rewards 1, 1, 0, 1, 1
    expect(Number(metrics["pass@1/symbolic_accuracy_weighted"])).toBeCloseTo(60, 12);
  }, 120_000);
});
