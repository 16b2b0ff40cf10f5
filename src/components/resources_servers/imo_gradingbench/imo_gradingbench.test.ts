import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { reverifyPublished } from "../../../testing/published-rollouts.ts";
import { fullResponse, post, readJsonFile, readJsonlFile } from "../_common/testing.ts";
import createGradingbench, { extractGrade, maeMetrics } from "./index.ts";

const dir = import.meta.dir;
type Case = { args: any[]; expected: any };
const golden = readJsonFile<Record<string, Case[]>>(join(dir, "..", "..", "..", ".."), "fixtures/qa/golden.json");
const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
const OUTPUTS = ["reward", "extracted_grade", "binary_match", "score_diff"];
const reply = (text: string) => fullResponse({ output: [{ type: "reasoning", id: "r", summary: [{ type: "summary_text", text: "thinking: correct" }] }, { type: "message", role: "assistant", content: [{ type: "output_text", text }] }] });

describe("imo_gradingbench: the grade (labelled by NeMo Gym's own extract_grade, scripts/qa-golden.py)", () => {
  test("the last word, markdown and punctuation stripped, one of the four grades", () => {
    for (const { args, expected } of golden["imo_gradingbench.extract_grade"]!) expect([args[0], extractGrade(args[0])]).toEqual([args[0], expected]);
  });
  test("binary match and score difference; a bad gold grade scores 0 with no difference; a row's own `reward` is replaced", async () => {
    const app = createGradingbench();
    const r = await post(app, "/verify", { responses_create_params: { input: "q" }, response: reply("almost"), expected_answer: " Correct ", reward: "Correct", grading_id: "g1" });
    expect([r.body.reward, r.body.extracted_grade, r.body.binary_match, r.body.score_diff]).toEqual([0, "almost", true, 1]);
    expect(Object.keys(r.body)).toEqual(["responses_create_params", "response", "reward", "expected_answer", "extracted_grade", "binary_match", "score_diff", "grading_id", "problem_id"]);
    const bad = await post(app, "/verify", { responses_create_params: { input: "q" }, response: reply("partial"), expected_answer: "7" });
    expect([bad.body.reward, bad.body.binary_match, bad.body.score_diff]).toEqual([0, false, null]);
  });
  test("MAE: pooled over the first k rollouts, and each task's best", () => {
    const tasks = [[{ score_diff: 6 }, { score_diff: 0 }], [{ score_diff: null }, { score_diff: 1 }], [{ score_diff: null }]];
    expect(JSON.parse(JSON.stringify(maeMetrics(tasks, 2)))).toEqual({
      "pass@1[avg-of-1]/mae": 6, "pass@1[avg-of-1]/mae_count": 1, "pass@1/mae": 6, "pass@1/mae_count": 1,
      "pass@1[avg-of-2]/mae": 7 / 3, "pass@1[avg-of-2]/mae_count": 3, "pass@2/mae": 0.5, "pass@2/mae_count": 2, mae: 7 / 3, mae_count: 3,
    });
  });
});

describe("imo_gradingbench: NeMo Gym's published rollouts", () => {
  test("5 of 5 through /verify", async () => {
    const app = createGradingbench();
    for (const rollout of rollouts) {
      const r = await post(app, "/verify", Object.fromEntries(Object.entries(rollout).filter(([k]) => !OUTPUTS.includes(k))));
      expect(r.status).toBe(200);
      expect(OUTPUTS.map((k) => r.body[k])).toEqual(OUTPUTS.map((k) => rollout[k]));
    }
    expect(rollouts).toHaveLength(5);
  });
  test("gym eval reverify on the binary re-scores them exactly, with exact/binarized accuracy and MAE", async () => {
    const r = await reverifyPublished("imo_gradingbench", rollouts, OUTPUTS, { force: true });
    expect(r.code).toBe(0);
    expect(r.rows.map((row) => [row.grading_id, row.reward, row.score_diff])).toEqual(rollouts.map((row) => [row.grading_id, row.reward, row.score_diff]));
    const { agent_metrics: m, key_metrics: key } = (r.metrics as any[])[0];
    expect(["pass@1/exact_accuracy", "pass@1/binarized_accuracy", "mae", "mae_count"].every((k) => k in m)).toBe(true);
    expect(Object.keys(key)).toContain("mae");
  }, 120_000);
});
