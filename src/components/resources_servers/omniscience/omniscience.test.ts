import { describe, expect, test } from "bun:test";
import { post, readJsonlFile } from "../_common/testing.ts";
import { judgeDirectory, promptOfRequest, replayJudgeApp, textCompletion, textResponse, type JudgeLookup } from "../_judge/replay.ts";
import { rescore } from "../_judge/parity.ts";
import createServer, { generationOf, parseJudgeGrade } from "./index.ts";

const dir = import.meta.dir;
type Row = Record<string, any>;
const rows = readJsonlFile<Row>(dir, "data/example.jsonl");
const rollouts = readJsonlFile<Row>(dir, "data/example_rollouts.jsonl");
const server = (lookup: JudgeLookup, extra: Row = {}) =>
  createServer(
    { judge_model_server: { type: "responses_api_models", name: "genrm_model" }, judge_responses_create_params: { input: [], max_output_tokens: 2048, temperature: 0.0, top_p: 1.0 }, use_chat_completions_for_judge: true, ...extra },
    { name: "omniscience", servers: judgeDirectory("genrm_model", replayJudgeApp(lookup)) },
  );

describe("omniscience: published rollouts re-scored by a replaying judge", () => {
  test("5 of 5 verdicts and rewards, 4 of 5 exact, key order included (the stored judge_output answered to the prompt carrying that row's question and answer)", async () => {
    const used = new Set<Row>();
    const lookup: JudgeLookup = (_path, body) => {
      const prompt = promptOfRequest(body);
      const hit = rollouts.find((r) => !used.has(r) && prompt.includes(r.question) && prompt.includes(`${r.extracted_answer}`));
      if (hit) used.add(hit);
      return hit && textCompletion(hit.judge_output);
    };
    // Pinned: row 2 is stale. Its answer was cut off (incomplete_details: max_output_tokens) with no thinking tags,
    // and the published extracted_answer is "", where the current app.py's extraction keeps the whole text.
    expect(await rescore(server(lookup), rollouts, rows)).toEqual([[], [], ["extracted_answer"], [], []]);
    expect(used.size).toBe(5);
  });
});

describe("omniscience: rules", () => {
  test("grades: the whole text, the last line, the first letter found, else B", () => {
    expect(["A", " D \n", "reasoning\nC", "Grade: C then A", "none"].map(parseJudgeGrade)).toEqual(["A", "D", "C", "A", "B"]);
  });
  test("an unclosed thinking block leaves no answer; a closed one is stripped", () => {
    const of = (text: string) => generationOf({ output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text }] }] });
    expect([of("<think>hm"), of("<think>hm</think> Paris"), of("Paris")]).toEqual(["", "Paris", "Paris"]);
  });
  test("an empty verdict or a failed call is judge_failed; Responses judges work too", async () => {
    const body = { ...rows[0]!, response: rollouts[0]!.response };
    expect((await post(server(() => textCompletion("  ")), "/verify", body)).body._ng_failure_judge_error).toBe("empty judge response");
    expect((await post(server(() => undefined), "/verify", body)).body._ng_failure_class).toBe("judge_failed");
    const reply = await post(server(() => textResponse("C"), { use_chat_completions_for_judge: false }), "/verify", body);
    expect([reply.body.verdict, reply.body.is_partial, reply.body.omniscience_index]).toEqual(["partial", 1, 0]);
  });
  test("metrics: omni index = correct − incorrect, hallucination = incorrect among the non-correct", async () => {
    const verdicts = ["correct", "incorrect", "partial", "not_attempted"];
    const reply = await post(server(() => undefined), "/aggregate_metrics", {
      verify_responses: verdicts.map((verdict, i) => ({ _ng_task_index: i, _ng_rollout_index: 0, reward: verdict === "correct" ? 1 : 0, verdict, extracted_answer: `a${i}` })),
    });
    const m = reply.body.agent_metrics;
    expect([m["pass@1/judge_correct"], m["pass@1/judge_incorrect"]]).toEqual([25, -25]);
    expect(m["pass@1/judge_omni_index"]).toBe(0);
    expect(m["pass@1/judge_omni_hallucination"]).toBeCloseTo(100 / 3, 12);
  });
});
