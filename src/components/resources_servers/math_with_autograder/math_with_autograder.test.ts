import { describe, expect, test } from "bun:test";
import { post, readJsonlFile } from "../_common/testing.ts";
import { judgeDirectory, replayByPrompt, replayJudgeApp, textResponse, type JudgeLookup } from "../_judge/replay.ts";
import { rescore } from "../_judge/parity.ts";
import createServer, { searchBoxed } from "./index.ts";

const dir = import.meta.dir;
type Row = Record<string, any>;
const rows = readJsonlFile<Row>(dir, "data/example.jsonl");
const rollouts = readJsonlFile<Row>(dir, "data/example_rollouts.jsonl");
// The published run's judge params were `{input: []}` (its stored params set no max_output_tokens, temperature or top_p).
const server = (lookup: JudgeLookup, params: Row = { input: [] }) =>
  createServer(
    { judge_model_server: { type: "responses_api_models", name: "judge_model" }, judge_responses_create_params: params },
    { name: "math_with_autograder", servers: judgeDirectory("judge_model", replayJudgeApp(lookup)) },
  );

describe("math_with_autograder: published rollouts re-scored by a replaying judge", () => {
  test("5 of 5 exact (every field, the judge exchange included)", async () => {
    const judge = replayByPrompt(rollouts.flatMap((r) => (r.judge_evaluations ?? []).map((e: Row) => ({ prompt: e.responses_create_params.input.at(-1).content, answer: e.response }))));
    expect(await rescore(server(judge), rollouts, rows)).toEqual([[], [], [], [], []]);
    expect(judge.unused()).toBe(0);
  });
});

describe("math_with_autograder: rules", () => {
  test("the raw LaTeX of the last balanced \\boxed{} goes to the judge", () => {
    expect(searchBoxed(String.raw`a \boxed{1} then \boxed{g(x)=2x^3+C \text{ or } C\in\mathbb{R}}`)).toBe(String.raw`g(x)=2x^3+C \text{ or } C\in\mathbb{R}`);
    expect(searchBoxed(String.raw`\boxed{unclosed`)).toBeNull();
    expect(searchBoxed(String.raw`\fbox{7}`)).toBe("7");
    expect(searchBoxed("none")).toBeNull();
  });
  test("\\boxed{Correct} first scores 1, one judge call; a symbolic hit makes none; a failed call is judge_failed", async () => {
    const seen: Row[] = [];
    const body = { ...rows[0]!, response: { ...rollouts[0]!.response, output: [{ id: "m", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: String.raw`so \boxed{N = 3k+1}`, annotations: [] }] }] } };
    const reply = await post(server((_p, b) => (seen.push(b), textResponse(String.raw`\boxed{Correct} not \boxed{Incorrect}`))), "/verify", body);
    expect([reply.body.reward, reply.body.judge_evaluations.length, seen.length]).toEqual([1, 1, 1]);
    expect(seen[0]!.input.at(-1).content).toContain("Model Solution: N = 3k+1\nGolden Answer:");
    const failed = await post(server(() => undefined), "/verify", body);
    expect(failed.body._ng_failure_class).toBe("judge_failed");
    const right = { ...body, response: { ...body.response, output: [{ ...body.response.output[0], content: [{ type: "output_text", text: `\\boxed{${rows[0]!.expected_answer}}`, annotations: [] }] }] } };
    const hit = await post(server(() => undefined), "/verify", right);
    expect([hit.body.reward, hit.body.judge_evaluations]).toEqual([1, null]);
  });
});
