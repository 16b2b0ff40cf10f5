import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { reverifyPublished } from "../../../testing/published-rollouts.ts";
import { fullResponse, post, readJsonFile, readJsonlFile } from "../_common/testing.ts";
import createHotpotqa from "./index.ts";
import { answerExactMatch, answerF1, gtAlternatives, isCorrect, isCorrectStrict, parseGeneration, shouldRemove } from "./scoring.ts";

const dir = import.meta.dir;
type Case = { args: string[]; expected: any };
const golden = readJsonFile<Record<string, Case[]>>(join(dir, "..", "..", "..", ".."), "fixtures/qa/golden.json");
const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
const OUTPUTS = ["reward", "extracted_answer", "answer_em", "answer_f1", "is_correct", "is_correct_strict", "gt_should_remove", "gt_remove_reason"];
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe("hotpotqa_qa scoring (labelled by NeMo Gym's own scoring.py, scripts/qa-golden.py)", () => {
  test("parse_generation: fenced JSON first, then the last balanced object with an answer, else the text", () => {
    for (const { args, expected } of golden["hotpotqa.parse_generation"]!) expect([args[0], parseGeneration(args[0]!)]).toEqual([args[0], expected[0]]);
  });
  test("normalize_gt: alternatives and the unreliable-ground-truth flag", () => {
    for (const { args, expected } of golden["hotpotqa.normalize_gt"]!) {
      expect([args[0], gtAlternatives(args[0]!).sort(byCodePoint)]).toEqual([args[0], expected.alternatives]);
      expect([args[0], ...shouldRemove(args[0]!)]).toEqual([args[0], expected.should_remove, expected.remove_reason]);
    }
  });
  test("exact match, F1, lenient and strict substring matches over 696 (ground truth, answer) pairs", () => {
    const f1 = golden["hotpotqa.answer_f1_score"]!;
    const em = golden["hotpotqa.answer_exact_match"]!;
    const scores = golden["hotpotqa.scores"]!;
    expect(scores.length).toBe(696);
    for (let i = 0; i < scores.length; i++) {
      const [gt, ans] = scores[i]!.args as [string, string];
      const alts = gtAlternatives(gt);
      expect([gt, ans, answerF1(gt, ans), answerExactMatch(gt, ans), isCorrect(alts, ans), isCorrectStrict(alts, ans)]).toEqual([gt, ans, f1[i]!.expected, em[i]!.expected, ...scores[i]!.expected]);
    }
  });
});

describe("hotpotqa_qa: NeMo Gym's published rollouts", () => {
  test("5 of 5: every score, flag and the key order through /verify", async () => {
    const app = createHotpotqa();
    for (const rollout of rollouts) {
      const r = await post(app, "/verify", Object.fromEntries(Object.entries(rollout).filter(([k]) => !OUTPUTS.includes(k))));
      expect(r.status).toBe(200);
      for (const k of OUTPUTS) expect([k, r.body[k]]).toEqual([k, rollout[k]]);
      expect(Object.keys(r.body).slice(0, 11)).toEqual(["responses_create_params", "response", "reward", "expected_answer", ...OUTPUTS.slice(1)]);
      expect(Object.keys(r.body).slice(11)).toEqual(["agent_ref", "question", "id", "type", "level"]);
    }
    expect(rollouts).toHaveLength(5);
  });
  test("gym eval reverify on the binary re-scores them exactly, with the filtered metrics", async () => {
    const r = await reverifyPublished("hotpotqa_qa", rollouts, OUTPUTS, { force: true });
    expect(r.code).toBe(0);
    expect(r.rows.map((row) => [row.id, row.reward, row.answer_f1])).toEqual(rollouts.map((row) => [row.id, row.reward, row.answer_f1]));
    const metrics = JSON.stringify(r.metrics);
    for (const k of ["filtered_pass@1/answer_f1", "unfiltered_num_tasks", "majority@1/is_correct_strict"]) expect(metrics).toContain(k);
  }, 120_000);
  test("missing expected_answer is a 422; the reward prints as a float", async () => {
    const response = fullResponse({ output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: '{"answer": "yes"}' }] }] });
    const app = createHotpotqa();
    const bad = await post(app, "/verify", { responses_create_params: { input: "q" }, response });
    expect(bad.status).toBe(422);
    const res = await app.request("http://localhost/verify", { method: "POST", body: JSON.stringify({ responses_create_params: { input: "q" }, response, expected_answer: "yes" }) });
    expect(await res.text()).toContain('"reward":1.0,"expected_answer":"yes","extracted_answer":"yes","answer_em":1.0,"answer_f1":1.0');
  });
});
