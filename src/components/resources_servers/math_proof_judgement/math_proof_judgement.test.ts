import { describe, expect, test } from "bun:test";
import { post, readJsonFile, readJsonlFile } from "../_common/testing.ts";
import createServer, { classificationMetrics, parseJudgement } from "./index.ts";

const dir = import.meta.dir;
const golden = readJsonFile<any>(dir, "_fixtures/golden.json");

describe("math_proof_judgement", () => {
  test("published rollouts: 5 of 5 rewards, extracted judgements and confusion one-hots", async () => {
    const rows = readJsonlFile(dir, "data/example.jsonl");
    const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
    const app = createServer();
    for (const rollout of rollouts) {
      const row = rows.find((r) => r.problem_id === rollout.problem_id)!;
      const reply = await post(app, "/verify", { ...row, response: rollout.response });
      for (const key of ["reward", "expected_judgement", "extracted_judgement", "tp", "fp", "fn", "tn", "problem_id"]) expect(reply.body[key]).toEqual(rollout[key]);
    }
    expect(rollouts).toHaveLength(5);
  });

  test("parse_judgement: golden verdicts from NeMo Gym's function", () => {
    for (const [text, verdict] of golden.parse_judgement) expect(parseJudgement(text)).toBe(verdict);
  });

  test("precision/recall/F1 for pass@1[avg-of-k], pass@k, majority@k equal NeMo Gym's on ragged tasks", () => {
    const ours = classificationMetrics(golden.tasks);
    expect(Object.keys(ours)).toEqual(Object.keys(golden.classification_metrics));
    for (const [key, value] of Object.entries(golden.classification_metrics)) expect(Number(ours[key])).toBe(value as number);
  });
});
