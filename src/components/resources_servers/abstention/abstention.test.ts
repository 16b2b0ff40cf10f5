import { describe, expect, test } from "bun:test";
import { post, readJsonlFile } from "../_common/testing.ts";
import { judgeDirectory, promptOfRequest, replayJudgeApp, textResponse, type JudgeLookup } from "../_judge/replay.ts";
import { rescore } from "../_judge/parity.ts";
import createServer, { extractBoxedAnswer, normalizeAnswer, parseJudgeGrade } from "./index.ts";

const dir = import.meta.dir;
type Row = Record<string, any>;
const rows = readJsonlFile<Row>(dir, "data/example.jsonl");
const rollouts = readJsonlFile<Row>(dir, "data/example_rollouts.jsonl");
const server = (lookup: JudgeLookup, extra: Row = {}) =>
  createServer(
    { judge_model_server: { type: "responses_api_models", name: "genrm_model" }, judge_responses_create_params: { input: [], max_output_tokens: 64, temperature: 0.0, top_p: 1.0 }, ...extra },
    { name: "abstention", servers: judgeDirectory("genrm_model", replayJudgeApp(lookup)) },
  );

describe("abstention: published rollouts re-scored by a replaying judge", () => {
  test("5 of 5 exact in every value; key order pinned", async () => {
    const used = new Set<Row>();
    const lookup: JudgeLookup = (_path, body) => {
      const prompt = promptOfRequest(body);
      const hit = rollouts.find((r) => !used.has(r) && r.judge_output !== null && prompt.endsWith(`Question: ${r.question}\nGold target: ${r.ground_truth}\nPredicted answer: ${r.extracted_answer}\n\nGrade the predicted answer of this new question as one of:\nA: CORRECT\nB: INCORRECT\nC: NOT_ATTEMPTED\n\nJust return the letters "A", "B", or "C", with no text around it.`));
      if (hit) used.add(hit);
      return hit && textResponse(hit.judge_output);
    };
    // Pinned: the published rows put the request's extras (id, question, answer) before the response's fields;
    // app.py's response model (extra allowed) dumps them after its own fields under pydantic 2 (checked with 2.13),
    // as this port does. Every value is equal.
    const key = ["(key order)"];
    expect(await rescore(server(lookup), rollouts, rows)).toEqual([key, key, key, key, key]);
    expect(used.size).toBe(4);
  });
});

describe("abstention: rules", () => {
  test("the last \\boxed{} (nested braces), SQuAD normalization, grades with B as the fallback", () => {
    expect([extractBoxedAnswer("\\boxed{a} \\boxed{x^{2}}"), extractBoxedAnswer("\\boxed{open"), extractBoxedAnswer("none")]).toEqual(["x^{2}", null, null]);
    expect([normalizeAnswer(" The [IDK]! "), normalizeAnswer("An  apple, a day")]).toEqual(["idk", "apple day"]);
    expect(["C", "x\nA", "B or C", "?"].map(parseJudgeGrade)).toEqual(["C", "A", "B", "B"]);
  });
  test("abstaining needs no judge; NOT_ATTEMPTED counts as abstaining; rewards from the config; an empty verdict is judge_failed", async () => {
    const answered = (text: string) => ({ ...rows[0]!, response: { ...rollouts[0]!.response, output: [{ id: "m", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }] } });
    const idk = await post(server(() => undefined, { abstention_reward: 0.25 }), "/verify", answered("<think>hmm</think> \\boxed{[IDK]}"));
    expect([idk.body.reward, idk.body.verdict, idk.body.judge_output, idk.body.is_abstain]).toEqual([0.25, "abstain", null, 1]);
    const c = await post(server(() => textResponse("C")), "/verify", answered("\\boxed{Paris}"));
    expect([c.body.reward, c.body.verdict, c.body.omniscience_index]).toEqual([0.5, "abstain", 0]);
    const b = await post(server(() => textResponse("B"), { incorrect_reward: -1.0 }), "/verify", answered("\\boxed{Paris}"));
    expect([b.body.reward, b.body.verdict, b.body.omniscience_index]).toEqual([-1, "incorrect", -1]);
    expect((await post(server(() => textResponse("")), "/verify", answered("Paris"))).body._ng_failure_judge_error).toBe("empty judge response");
  });
});
