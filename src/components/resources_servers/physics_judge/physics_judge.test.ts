import { describe, expect, test } from "bun:test";
import { post, readJsonlFile } from "../_common/testing.ts";
import { judgeDirectory, replayJudgeApp, textCompletion, textResponse, type JudgeLookup } from "../_judge/replay.ts";
import { rescore } from "../_judge/parity.ts";
import createServer, { saysCorrect } from "./index.ts";

const dir = import.meta.dir;
type Row = Record<string, any>;
const rows = readJsonlFile<Row>(dir, "data/example.jsonl");
const rollouts = readJsonlFile<Row>(dir, "data/example_rollouts.jsonl");
const server = (lookup: JudgeLookup, extra: Row = {}) =>
  createServer(
    { judge_model_server: { type: "responses_api_models", name: "judge_model" }, judge_responses_create_params: { input: [], max_output_tokens: 2048, temperature: 0.0, top_p: 1.0 }, use_chat_completions_for_judge: true, ...extra },
    { name: "physics_judge", servers: judgeDirectory("judge_model", replayJudgeApp(lookup)) },
  );
const answered = (text: string) => ({ ...rows[0]!, response: { ...rollouts[0]!.response, output: [{ id: "m", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }] } });

describe("physics_judge: published rollouts re-scored", () => {
  test("5 of 5 rewards, 3 of 5 exact (all symbolic hits: no judge call is made)", async () => {
    // Pinned: rows 2 and 3 score the same, but their extracted_answer is sympy's str() of an unevaluated
    // latex2sympy tree, which the math-verify port (../_math_verify) prints differently:
    // NeMo Gym "1/sqrt(1 - v**2/(c**2))" / "q/((4*pi*b**2))", ours "1/sqrt(1 + (-1)*v**2/c**2)" / "q/(4*pi*b**2)".
    expect(await rescore(server(() => undefined), rollouts, rows)).toEqual([[], [], ["extracted_answer"], ["extracted_answer"], []]);
  });
});

describe("physics_judge: the judge on a symbolic miss", () => {
  test("[Correct] in any case decides; [Incorrect] or no label is 0", () => {
    expect([saysCorrect("Judgement: [correct]"), saysCorrect("[Incorrect]"), saysCorrect("yes"), saysCorrect(null)]).toEqual([true, false, false, false]);
  });
  test("Chat Completions: the prompt YAML filled with the whole output, Python's `or` defaults, the answer wrapped as msg_chat", async () => {
    const seen: Row[] = [];
    const reply = await post(server((_p, b) => (seen.push(b), textCompletion("[Correct]")), { judge_responses_create_params: { input: [], temperature: 0.0 } }), "/verify", answered("the answer is 42 m/s"));
    expect(Object.keys(seen[0]!)).toEqual(["messages", "max_tokens", "temperature", "top_p"]);
    expect([seen[0]!.max_tokens, seen[0]!.temperature, seen[0]!.top_p]).toEqual([2048, 0, 1]);
    expect(seen[0]!.messages.at(-1).content).toContain(`Output sentence: the answer is 42 m/s, Correct answer: ${rows[0]!.expected_answer}, Judgement:`);
    expect(reply.body.reward).toBe(1);
    const evaluation = reply.body.judge_evaluations[0];
    expect([evaluation.response.output[0].id, evaluation.response.tool_choice, evaluation.response.output[0].content[0].text]).toEqual(["msg_chat", "none", "[Correct]"]);
    expect(evaluation.responses_create_params.input.at(-1).type).toBe("message");
  });
  test("Responses: a last item that is not a message is incorrect; a failed call is judge_failed", async () => {
    const reasoning = { ...textResponse("x"), output: [{ id: "rs", type: "reasoning", summary: [] }] };
    const reply = await post(server(() => reasoning, { use_chat_completions_for_judge: false }), "/verify", answered("v = 3"));
    expect([reply.body.reward, reply.body.judge_evaluations.length]).toEqual([0, 1]);
    expect((await post(server(() => undefined), "/verify", answered("v = 3"))).body._ng_failure_class).toBe("judge_failed");
  });
  test("metrics add the per-domain breakdown when rows carry a domain", async () => {
    const reply = await post(server(() => undefined), "/aggregate_metrics", {
      verify_responses: [
        { _ng_task_index: 0, _ng_rollout_index: 0, reward: 1, library_reward: 1, extracted_answer: "1", judge_evaluations: null, domain: "optics" },
        { _ng_task_index: 1, _ng_rollout_index: 0, reward: 0, library_reward: 0, extracted_answer: "2", judge_evaluations: [], domain: "mechanics" },
      ],
    });
    const keys = Object.keys(reply.body.agent_metrics);
    expect(keys.some((k) => k.startsWith("optics/"))).toBe(true);
    expect(reply.body.agent_metrics["pass@1/symbolic_accuracy"]).toBe(50);
  });
});
