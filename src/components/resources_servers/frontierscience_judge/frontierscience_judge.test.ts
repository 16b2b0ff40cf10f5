import { describe, expect, test } from "bun:test";
import type { Hono } from "hono";
import { post, readJsonlFile } from "../_common/testing.ts";
import { judgeDirectory, replayJudgeApp, textCompletion, textResponse, type JudgeLookup } from "../_judge/replay.ts";
import { stripThinking } from "../_judge/text.ts";
import createServer, { parseJudgement, parseRubricScore } from "./index.ts";

const dir = import.meta.dir;
type Row = Record<string, any>;
const server = (lookup: JudgeLookup, extra: Row = {}): Hono<any> =>
  createServer(
    {
      judge_model_server: { type: "responses_api_models", name: "judge_model" },
      judge_responses_create_params: { input: [], max_output_tokens: 2048 },
      judge_prompt_path: "resources_servers/frontierscience_judge/prompts/judge.yaml",
      use_chat_completions_for_judge: true,
      ...extra,
    },
    { name: "frontierscience_judge", servers: judgeDirectory("judge_model", replayJudgeApp(lookup)) },
  );
const promptOf = (path: string, body: Row): string => (path === "/v1/chat/completions" ? body.messages[0].content : body.input[0].content);

describe("frontierscience_judge: published rollouts re-scored by a replaying judge", () => {
  test("5 of 5: reward, verdict, extracted_answer, expected_answer, judge_output", async () => {
    const rows = readJsonlFile<Row>(dir, "data/example.jsonl");
    const rollouts = readJsonlFile<Row>(dir, "data/example_rollouts.jsonl");
    const seen: Row[] = [];
    // The stored judge_output of the rollout whose question and answer the prompt carries.
    const lookup: JudgeLookup = (path, body) => {
      seen.push(body);
      const prompt = promptOf(path, body);
      const hit = rollouts.find((r) => prompt.includes(r.question) && prompt.includes(String(r.extracted_answer)));
      return hit && textCompletion(hit.judge_output);
    };
    const app = server(lookup);
    for (const rollout of rollouts) {
      const reply = await post(app, "/verify", { ...rows[rollout._ng_task_index], response: rollout.response });
      for (const key of ["reward", "verdict", "extracted_answer", "expected_answer", "judge_output", "subject", "id"]) expect(reply.body[key]).toEqual(rollout[key]);
    }
    // Olympiad mode over Chat Completions: temperature 0 and top_p 1 when the config sets none.
    expect(Object.keys(seen[0]!)).toEqual(["messages", "max_tokens", "temperature", "top_p"]);
    expect(rollouts).toHaveLength(5);
  });
});

describe("frontierscience_judge: rules", () => {
  test("the last Judgement wins; thinking traces are stripped", () => {
    expect(parseJudgement("Judgement: NO\n…\njudgement: yes")).toBe("YES");
    expect(parseJudgement("no verdict")).toBeNull();
    expect(stripThinking("<think>a</think>answer")).toBe("answer");
    expect(stripThinking("left over</think> answer")).toBe("answer");
  });
  test("rubric scores: 7/10, 3.5 out of 5, FINAL_SCORE[8] / MAX_POSSIBLE_SCORE[10], Score: 6, the last line wins", () => {
    expect(parseRubricScore("Score: 7/10")).toBe(7);
    expect(parseRubricScore("score 3.5 out of 5")).toBe(7);
    expect(parseRubricScore("FINAL_SCORE[8] / MAX_POSSIBLE_SCORE[10]")).toBe(8);
    expect(parseRubricScore("Score: 2/10\nFinal score: 6")).toBe(6);
    expect(parseRubricScore("score 1/0")).toBeNull();
  });
  test("research mode: the threshold decides; an unparseable score falls back to the verdict and is flagged", async () => {
    const row = { responses_create_params: { input: [{ role: "user", content: "q" }] }, question: "q", expected_answer: "a", rubric: "r" };
    const response = { id: "r", created_at: 0, model: "m", object: "response", parallel_tool_calls: true, tool_choice: "auto", tools: [], output: [{ id: "m", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "ans", annotations: [] }] }] };
    const research = (text: string) => server(() => textResponse(text), { judge_mode: "research", use_chat_completions_for_judge: false, judge_prompt_path: "prompts/research_judge.yaml" });
    const pass = await post(research("Score: 8/10"), "/verify", { ...row, response });
    expect([pass.body.reward, pass.body.verdict, pass.body.rubric_score, pass.body.rubric_score_normalized]).toEqual([1, "YES", 8, 0.8]);
    const bad = await post(research("Judgement: YES"), "/verify", { ...row, response });
    expect([bad.body.reward, bad.body.invalid_judge_response]).toEqual([1, true]);
    const failed = await post(server(() => undefined), "/verify", { ...row, response });
    expect(failed.body._ng_failure_class).toBe("judge_failed");
  });
});
