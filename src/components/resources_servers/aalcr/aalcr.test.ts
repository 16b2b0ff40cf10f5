import { describe, expect, test } from "bun:test";
import { post, readJsonlFile } from "../_common/testing.ts";
import { judgeDirectory, replayByPrompt, replayJudgeApp, textResponse, type JudgeLookup } from "../_judge/replay.ts";
import { rescore } from "../_judge/parity.ts";
import createServer from "./index.ts";

const dir = import.meta.dir;
type Row = Record<string, any>;
const rows = readJsonlFile<Row>(dir, "data/example.jsonl");
const rollouts = readJsonlFile<Row>(dir, "data/example_rollouts.jsonl");
const server = (lookup: JudgeLookup, overrides: Row = {}) =>
  createServer(
    { judge_model_server: { type: "responses_api_models", name: "judge" }, judge_responses_create_params_overrides: overrides },
    { name: "aalcr", servers: judgeDirectory("judge", replayJudgeApp(lookup)) },
  );
// Each rollout's stored judge_response, answered to its stored judge prompt (repeats in order).
const replay = () => replayByPrompt(rollouts.map((r) => ({ prompt: r.judge_responses_create_params.input[0].content, answer: r.judge_response })));

describe("aalcr: published rollouts re-scored by a replaying judge", () => {
  test("5 of 5 exact (every field; invalid_model_response is newer than the published rows)", async () => {
    const judge = replay();
    expect(await rescore(server(judge), rollouts, rows, { added: ["invalid_model_response"] })).toEqual([[], [], [], [], []]);
    expect(judge.unused()).toBe(0);
  });
});

describe("aalcr: rules", () => {
  const base = { ...rows[0]!, response: rollouts[0]!.response };
  test("only an exact CORRECT scores; anything else is an invalid judge response, reward 0", async () => {
    const reply = await post(server(() => textResponse(" correct ")), "/verify", base);
    expect([reply.body.reward, reply.body.invalid_judge_response, reply.body.reward_80k_100k]).toEqual([0, true, 0]);
    const ok = await post(server(() => textResponse("CORRECT\n")), "/verify", base);
    expect([ok.body.reward, ok.body.invalid_judge_response, ok.body.reward_80k_100k, ok.body.reward_lt_80k]).toEqual([1, false, 1, null]);
  });
  test("an empty answer scores 0 without a judge call; an empty verdict or a failed call is judge_failed", async () => {
    const empty = { ...base, response: { ...base.response, output: [] } };
    const reply = await post(server(() => undefined), "/verify", empty);
    expect([reply.body.reward, reply.body.invalid_model_response, reply.body._ng_failure_class]).toEqual([0, true, undefined]);
    expect((await post(server(() => textResponse("")), "/verify", base)).body._ng_failure_judge_error).toBe("empty judge response");
    expect((await post(server(() => undefined), "/verify", base)).body._ng_failure_class).toBe("judge_failed");
  });
  test("the overrides are merged over the judge params, as `dict(input=…) |= overrides`", async () => {
    const seen: Row[] = [];
    await post(server((_p, body) => (seen.push(body), textResponse("CORRECT")), { max_output_tokens: 16, temperature: 0.5 }), "/verify", base);
    expect([seen[0]!.max_output_tokens, seen[0]!.temperature, seen[0]!.input[0].role]).toEqual([16, 0.5, "user"]);
  });
});
