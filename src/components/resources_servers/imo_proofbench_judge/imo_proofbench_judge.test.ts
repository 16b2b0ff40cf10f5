import { describe, expect, test } from "bun:test";
import { post, readJsonlFile } from "../_common/testing.ts";
import { judgeDirectory, promptOfRequest, replayJudgeApp, textCompletion, textResponse, type JudgeLookup } from "../_judge/replay.ts";
import { rescore } from "../_judge/parity.ts";
import { mathEqual } from "../_math_verify/math-equal.ts";
import { stripThinking as stripThinkingTraces } from "../_judge/text.ts";
import createServer, { NO_ANSWER, parseJudgementVerdict, parsePoints, searchBoxed } from "./index.ts";

const dir = import.meta.dir;
type Row = Record<string, any>;
const rows = readJsonlFile<Row>(dir, "data/example.jsonl");
const rollouts = readJsonlFile<Row>(dir, "data/example_rollouts.jsonl");
const config = (chat = true) => ({
  judge_model_server: { type: "responses_api_models", name: "judge_model" },
  judge_responses_create_params: { input: [], max_output_tokens: 16384, temperature: 0.0, top_p: 1.0 },
  use_chat_completions_for_judge: chat,
});
const server = (lookup: JudgeLookup, chat = true) => createServer(config(chat), { name: "imo_proofbench_judge", servers: judgeDirectory("judge_model", replayJudgeApp(lookup)) });
const answered = (text: string, extra: Row = {}) => ({
  responses_create_params: { input: [] },
  problem: "Prove X.",
  reference_solution: "Proof by induction.",
  rubric: "7: rigorous",
  ...extra,
  response: { ...rollouts[0]!.response, output: [{ id: "m", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }] },
});

describe("imo_proofbench_judge: published rollouts re-scored by a replaying judge", () => {
  test("5 of 5 exact, every field: three judged (their stored judge_output answered to the prompt holding their submission), two without a \\boxed{} (no call)", async () => {
    const used = new Set<Row>();
    const lookup: JudgeLookup = (path, body) => {
      expect(path).toBe("/v1/chat/completions");
      const prompt = promptOfRequest(body);
      const hit = rollouts.find((r) => !used.has(r) && r.extracted_answer && prompt.includes(`**PROPOSED SOLUTION**\n${r.extracted_answer}`) && prompt.includes(r.problem));
      if (hit) used.add(hit);
      return hit && textCompletion(hit.judge_output);
    };
    expect(await rescore(server(lookup), rollouts, rows)).toEqual([[], [], [], [], []]);
    expect(used.size).toBe(3);
  });
});

describe("imo_proofbench_judge: rules (NeMo Gym's own test verdicts)", () => {
  test("thinking stripped, an unpaired closing tag drops everything before it", () => {
    expect([stripThinkingTraces("<think>a</think> b"), stripThinkingTraces("<thinking>a\nb</thinking>c"), stripThinkingTraces("x</think> y"), stripThinkingTraces("a</thinking>b"), stripThinkingTraces("plain"), stripThinkingTraces("")]).toEqual(["b", "c", "y", "b", "plain", ""]);
  });
  test("the rightmost \\boxed{} with nested braces; none or unbalanced is null", () => {
    expect([searchBoxed("\\boxed{1} and \\boxed{2}"), searchBoxed("\\boxed{\\frac{1}{2}}"), searchBoxed("no box"), searchBoxed("\\boxed{1"), searchBoxed(""), searchBoxed("\\boxed x}")]).toEqual(["2", "\\frac{1}{2}", null, null, null, null]);
  });
  test("Skills' three verdict formats in priority order; points parsed from the first block", () => {
    const verdicts = ["Judgement: Yes", "**Judgement**: No", "Judgement: Yes\n<points>1 out of 7</points>", "Reasoning. \\boxed{Correct}", "Analysis. \\boxed{Incorrect}", "\\boxed{Correct} <points>0 out of 7</points>", "<points>7 out of 7</points>", "<points>6 out of 7</points>", "<points>1 out of 7</points>", "<points>0 out of 7</points>", "inconclusive verdict", ""];
    expect(verdicts.map(parseJudgementVerdict)).toEqual([true, false, true, true, false, true, true, true, false, false, null, null]);
    const points = ["Some reasoning. <points>7 out of 7</points>", "<POINTS>6 OUT OF 7</POINTS>", "<points>  6  out of 7  </points>", "<points>6 out of 7</points> ... <points>0 out of 7</points>", "nothing relevant", "", "<points>three out of 7</points>"];
    expect(points.map(parsePoints)).toEqual([7, 6, 6, 6, null, null, null]);
  });
  test("math_equal: NeMo Gym's test cases", () => {
    expect([mathEqual("3", "3"), mathEqual("180", " 180 "), mathEqual("3", null), mathEqual("3", ""), mathEqual(String.raw`$\binom{20}{10}^2 - \binom{20}{9}^2$ `, "5924217936"), mathEqual(String.raw`$\frac{1}{2}$`, "0.5")]).toEqual([true, true, false, false, true, true]);
    expect([mathEqual("3", "4"), mathEqual("hello", "world"), mathEqual("3", String.raw`\boxed{`)]).toEqual([false, false, false]);
  });
  test("math_equal: the rule's branches (letters A–J as strings, percentages, trailing dots, plain text, str(None))", () => {
    expect([mathEqual("B", "B"), mathEqual("B", "the answer is B"), mathEqual(" C ", "b"), mathEqual("50%", "50"), mathEqual("7.", "7"), mathEqual("two apples", "two  apples"), mathEqual("two apples", "three apples"), mathEqual(null, "None")]).toEqual([true, true, false, true, true, true, false, true]);
  });
});

describe("imo_proofbench_judge: verify", () => {
  test("the judge sees the boxed submission only, in NeMo Gym's prompt; 7 and 6 pass, 1 fails; Responses judges too", async () => {
    const seen: string[] = [];
    const seven = await post(server((_p, b) => (seen.push(promptOfRequest(b)), textCompletion("Excellent. <points>7 out of 7</points>"))), "/verify", answered("<think>reasoning</think>The answer is X. \\boxed{X}"));
    expect([seven.body.reward, seven.body.judge_correct, seven.body.judge_points, seven.body.no_judge_score, seven.body.extracted_answer]).toEqual([1, 1, 7, 0, "X"]);
    expect(seen[0]).toContain("**PROBLEM STATEMENT**\nProve X.");
    expect(seen[0]).toContain("**PROPOSED SOLUTION**\nX");
    const six = await post(server(() => textCompletion("<points>6 out of 7</points>")), "/verify", answered("<think>r</think>partial \\boxed{partial}"));
    const one = await post(server(() => textResponse("<points>1 out of 7</points>"), false), "/verify", answered("</think>weak attempt \\boxed{guess}"));
    expect([six.body.reward, six.body.judge_points, one.body.reward, one.body.judge_points]).toEqual([1, 6, 0, 1]);
    const none = await post(server(() => textCompletion("I cannot decide.")), "/verify", answered("\\boxed{y}"));
    expect([none.body.reward, none.body.no_judge_score, none.body.judge_points]).toEqual([0, 1, null]);
  });
  test("no \\boxed{}: Skills' prefilled No, no judge call; a math_equal hit: prefilled Yes, no judge call", async () => {
    let calls = 0;
    const s = server(() => (calls++, textCompletion("Judgement: Yes")));
    const empty = await post(s, "/verify", answered("<think>never closed"));
    expect([empty.body.reward, empty.body.judge_output, empty.body.extracted_answer, empty.body.judge_points]).toEqual([0, NO_ANSWER, "", null]);
    const symbolic = await post(s, "/verify", answered("so \\boxed{5924217936}", { expected_answer: String.raw`$\binom{20}{10}^2 - \binom{20}{9}^2$` }));
    expect([symbolic.body.reward, symbolic.body.symbolic_correct, symbolic.body.judge_correct, symbolic.body.any_correct]).toEqual([1, 1, 1, 1]);
    expect(calls).toBe(0);
  });
  test("a failed judge call is judge_failed (recovered by reverify --judge-failed-only); an empty answer is no score, not a failure", async () => {
    const failed = await post(server(() => undefined), "/verify", answered("\\boxed{y}"));
    expect([failed.body.reward, failed.body._ng_failure_class]).toEqual([0, "judge_failed"]);
    const empty = await post(server(() => textCompletion("")), "/verify", answered("\\boxed{y}"));
    expect([empty.body.reward, empty.body.no_judge_score, empty.body._ng_failure_class]).toEqual([0, 1, undefined]);
  });
  test("metrics: any_correct = symbolic or judge, points flags, per category and level; key metrics at the highest k", async () => {
    const r = (i: number, k: number, extra: Row) => ({ _ng_task_index: i, _ng_rollout_index: k, reward: 0, extracted_answer: `a${i}${k}`, category: i ? "Algebra" : "Geometry", level: "IMO-easy", symbolic_correct: 0, judge_correct: 0, judge_points: 0, ...extra });
    const reply = await post(server(() => undefined), "/aggregate_metrics", {
      verify_responses: [r(0, 0, { symbolic_correct: 1, reward: 1 }), r(0, 1, { judge_correct: 1, judge_points: 7, reward: 1 }), r(1, 0, { judge_points: 1 }), r(1, 1, { judge_points: 6, judge_correct: 1, reward: 1 })],
    });
    const m = reply.body.agent_metrics;
    expect([m["pass@1[avg-of-2]/any_correct"], m["pass@2/any_correct"], m["pass@1[avg-of-2]/judge_score_7"], m["Geometry/pass@1[avg-of-2]/any_correct"], m["Algebra/pass@1[avg-of-2]/judge_score_1"], m["IMO-easy/pass@2/any_correct"]]).toEqual([75, 100, 25, 100, 50, 100]);
    expect(Object.keys(reply.body.key_metrics)).toContain("pass@1[avg-of-2]/any_correct");
  });
});
