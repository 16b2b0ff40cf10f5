import { describe, expect, test } from "bun:test";
import { post, readJsonlFile } from "../_common/testing.ts";
import { judgeDirectory, promptOfRequest, replayJudgeApp, textResponse, type JudgeLookup } from "../_judge/replay.ts";
import { rescore } from "../_judge/parity.ts";
import createServer, { assistantText, extractBoxedScore } from "./index.ts";

const dir = import.meta.dir;
type Row = Record<string, any>;
const tasks = readJsonlFile<Row>(dir, "data/example_rollouts_materialized_inputs.jsonl");
const rollouts = readJsonlFile<Row>(dir, "data/example_rollouts.jsonl");
const server = (lookup: JudgeLookup, extra: Row = {}) =>
  createServer({ judge_model_server: { type: "responses_api_models", name: "policy_model" }, temperature: 1.0, top_p: 1.0, max_tokens: 100000, ...extra }, { name: "proof_verification", servers: judgeDirectory("policy_model", replayJudgeApp(lookup)) });
const verificationOf = (r: Row) => assistantText(r.response).split("</think>").at(-1)!.trim();

describe("proof_verification: published rollouts re-scored", () => {
  test("5 of 5 exact; the meta-verifier's answers are not stored, so the replaying judge answers the score each published reward implies", async () => {
    // r_meta = reward / r_score, r_score = 1 − |predicted − truth| from the row's own text and task (each in {0, 0.5, 1}).
    const metaOf = (r: Row) => {
      const task = tasks[r._ng_task_index]!;
      const rScore = 1 - Math.abs(extractBoxedScore(verificationOf(r))! - task.ground_truth_verify_score);
      return r.reward / rScore;
    };
    expect(rollouts.map(metaOf)).toEqual([0, 1, 1, 0, 1]);
    const seen: Row[] = [];
    const lookup: JudgeLookup = (_path, body) => {
      seen.push(body);
      const hit = rollouts.find((r) => promptOfRequest(body).includes(verificationOf(r)));
      return hit && textResponse(`The candidate evaluation … \\boxed{${metaOf(hit)}}`);
    };
    expect(await rescore(server(lookup), rollouts, tasks)).toEqual([[], [], [], [], []]);
    expect(seen).toHaveLength(5);
    expect([seen[0]!.model, seen[0]!.temperature, seen[0]!.top_p, seen[0]!.max_output_tokens]).toEqual(["policy_model", 1, 1, 100000]);
  });
});

describe("proof_verification: rules", () => {
  test("boxed scores: the last \\boxed{}, only 0, 0.5 or 1, as Python's float() reads them", () => {
    expect(["\\boxed{1} \\boxed{ 0.5 }", "\\boxed{1.0}", "\\boxed{2}", "\\boxed{}", "\\boxed{0x1}", "no box", "\\boxed{1"].map(extractBoxedScore)).toEqual([0.5, 1, null, null, null, null, null]);
  });
  test("format failures score 0 without a judge call; the judge's score multiplies; a failed call is judge_failed", async () => {
    const answered = (text: string, task: Row = tasks[0]!) => ({ ...task, response: { ...rollouts[0]!.response, output: [{ id: "m", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }] } });
    const none = () => undefined;
    expect((await post(server(none), "/verify", answered("no score"))).body.reward).toBe(0);
    expect((await post(server(none, { assert_think_end: true }), "/verify", answered("\\boxed{1}"))).body.reward).toBe(0);
    expect((await post(server(none), "/verify", answered("\\boxed{1}", { ...tasks[0]!, proof: "x".repeat(40_001) }))).body.reward).toBe(0);
    expect((await post(server(none), "/verify", answered("\\boxed{1}", { ...tasks[0]!, ground_truth_verify_score: 0.7 }))).body.reward).toBe(0);
    const half = await post(server(() => textResponse("\\boxed{0.5}")), "/verify", answered("<think>hm</think>\\boxed{0.5}", { ...tasks[0]!, ground_truth_verify_score: 1 }));
    expect(Object.keys(half.body)).toEqual(["responses_create_params", "response", "reward"]);
    expect(half.body.reward).toBe(0.25);
    expect((await post(server(none), "/verify", answered("\\boxed{1}"))).body._ng_failure_class).toBe("judge_failed");
  });
});
