import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { post, readJsonlFile } from "../_common/testing.ts";
import { mathVerify } from "../_math_verify/index.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { judgeDirectory, replayJudgeApp, textResponse } from "../_judge/replay.ts";
import createMath from "./index.ts";
import { JUDGE_SYSTEM_MESSAGE, judgePrompt, judgeSaysEqual } from "./judge.ts";

const textResponseBody = (text: string) => textResponse(text, "resp_policy");

const dir = import.meta.dir;
const config = { judge_model_server: { type: "responses_api_models", name: "policy_model" }, judge_responses_create_params: { input: [] }, should_use_judge: false };

describe("math_with_judge: NeMo Gym's published example rollouts", () => {
  const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
  for (const [i, r] of rollouts.entries()) {
    test(`row ${i}: reward ${r.reward}, extracted ${JSON.stringify(r.extracted_answer)}`, async () => {
      const app = createMath(config);
      const body = { responses_create_params: r.responses_create_params, response: r.response, question: "q", expected_answer: r.expected_answer };
      const reply = await post(app, "/verify", body);
      expect(reply.status).toBe(200);
      expect(Object.keys(reply.body)).toEqual(["responses_create_params", "response", "reward", "expected_answer", "extracted_answer", "library_reward", "judge_evaluations"]);
      // Known difference, row 1: ((2±√3)^2016 identity) overflows double precision here, so the port scores 0
      // where math-verify's SymPy simplify scores 1. Every other row matches NeMo Gym's published reward.
      const want = i === 1 ? 0 : r.reward;
      expect(reply.body.reward).toBe(want);
      expect(reply.body.library_reward).toBe(want);
      // Row 1 (the 2016-power identity) prints through SymPy's own term ordering; the rest match exactly.
      if (i !== 1) expect(reply.body.extracted_answer).toBe(r.extracted_answer);
    });
  }
  test("expected_answer missing is a 422 in NeMo Gym's shape", async () => {
    const app = createMath(config);
    const r = rollouts[0]!;
    const reply = await post(app, "/verify", { responses_create_params: r.responses_create_params, response: r.response, question: "q" });
    expect(reply.status).toBe(422);
    expect(JSON.stringify(reply.body)).toContain("expected_answer");
  });
});

describe("math_with_judge: the equality judge (should_use_judge: true)", () => {
  const seen: JsonObject[] = [];
  // The judge says equal when both answers mention "42", else not equal; the second call sees the swapped order.
  const judgeApp = replayJudgeApp((_path, body) => {
    seen.push(body);
    const prompt = String(((body.input as JsonObject[])[1] as JsonObject).content);
    return textResponse(prompt.includes("forty-two") ? "Both are 42. My final verdict is [[A=B]]" : "My final verdict is different [[A!=B]]");
  });
  const app = () => createMath({ ...config, should_use_judge: true }, { name: "math_with_judge", servers: judgeDirectory("policy_model", judgeApp) });
  const request = (expected: string, text: string) => ({
    responses_create_params: { input: [{ role: "user", content: "q" }] },
    response: textResponseBody(text),
    question: "What is six times seven?",
    expected_answer: expected,
  });

  test("a library miss asks the judge twice with the answers swapped; both equal gives reward 1", async () => {
    seen.length = 0;
    const reply = await post(app(), "/verify", request("42", "It is forty-two"));
    expect(reply.status).toBe(200);
    expect(reply.body.library_reward).toBe(0);
    expect(reply.body.reward).toBe(1);
    expect(reply.body.judge_evaluations.length).toBe(2);
    const [first, second] = seen.map((b) => String(((b.input as JsonObject[])[1] as JsonObject).content));
    expect((seen[0]!.input as JsonObject[])[0]).toMatchObject({ role: "system", content: JUDGE_SYSTEM_MESSAGE });
    // No extracted answer: the judge sees the whole generated text.
    expect(reply.body.extracted_answer).toBe(null);
    expect(first).toBe(judgePrompt("What is six times seven?", "42", "It is forty-two"));
    expect(second).toBe(judgePrompt("What is six times seven?", "It is forty-two", "42"));
  });
  test("a first 'different' verdict stops after one call with reward 0", async () => {
    seen.length = 0;
    const reply = await post(app(), "/verify", request("42", "The answer is 41"));
    expect(reply.body).toMatchObject({ reward: 0, library_reward: 0, extracted_answer: "41" });
    expect(reply.body.judge_evaluations.length).toBe(1);
    expect(seen.length).toBe(1);
  });
  test("a library hit never calls the judge", async () => {
    seen.length = 0;
    const reply = await post(app(), "/verify", request("42", "\\boxed{42}"));
    expect(reply.body).toMatchObject({ reward: 1, library_reward: 1, judge_evaluations: null });
    expect(seen.length).toBe(0);
  });
  test("the first label in the text decides; no label or a non-message last item is 'not equal'", () => {
    expect(judgeSaysEqual(textResponse("[[A=B]] ... [[A!=B]]"))).toBe(true);
    expect(judgeSaysEqual(textResponse("[[A!=B]] ... [[A=B]]"))).toBe(false);
    expect(judgeSaysEqual(textResponse("equal"))).toBe(false);
    expect(judgeSaysEqual({ output: [{ type: "reasoning", summary: [] }] })).toBe(false);
  });
});

describe("math-verify port: golden verdicts of math-verify 0.8.0 (fixtures/math/golden.jsonl)", () => {
  const file = join(dir, "..", "..", "..", "..", "fixtures", "math", "golden.jsonl");
  const rows = readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
  test(`agreement on ${rows.length} pairs is at least 99.5% (all 2,952 on this machine)`, () => {
    let agree = 0;
    for (const r of rows) if (mathVerify(r.expected_answer, r.response_text).reward === r.reward) agree++;
    expect(rows.length).toBeGreaterThanOrEqual(2000);
    expect(agree / rows.length).toBeGreaterThanOrEqual(0.995);
  }, 120_000);
  test("a runaway input finishes with reward 0 (1 MB answer, deep braces)", () => {
    expect(mathVerify("1", "{".repeat(5000) + "1" + "}".repeat(5000)).reward).toBeGreaterThanOrEqual(0);
    expect(mathVerify("1", "x".repeat(1 << 20)).reward).toBe(0);
  });
});
