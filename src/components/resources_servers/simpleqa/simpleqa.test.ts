import { describe, expect, test } from "bun:test";
import type { Hono } from "hono";
import { post, readJsonFile, readJsonlFile } from "../_common/testing.ts";
import { BROKEN_JUDGES, judgeDirectory, replayJudgeApp, textCompletion, textResponse, type JudgeLookup } from "../_judge/replay.ts";
import createSimpleQA, { parseJudgeGrade } from "./index.ts";

const dir = import.meta.dir;
const block = (extra: Record<string, unknown> = {}) => ({
  judge_model_server: { type: "responses_api_models", name: "genrm_model" },
  judge_responses_create_params: { input: [], max_output_tokens: 2048, temperature: 0.0, top_p: 1.0 },
  use_chat_completions_for_judge: true,
  ...extra,
});
const server = (lookup: JudgeLookup, extra?: Record<string, unknown>): Hono<any> =>
  createSimpleQA(block(extra), { name: "simpleqa", servers: judgeDirectory("genrm_model", replayJudgeApp(lookup)) });

const promptOf = (path: string, body: any): string => (path === "/v1/chat/completions" ? body.messages[0].content : body.input[0].content);

describe("simpleqa: grade parsing (golden verdicts from NeMo Gym's parse_judge_grade)", () => {
  const golden = readJsonFile<{ parse_judge_grade: [string, string][] }>(dir, "_fixtures/grades.json").parse_judge_grade;
  for (const [text, grade] of golden) test(JSON.stringify(text), () => expect(parseJudgeGrade(text)).toBe(grade));
});

describe("simpleqa: published rollouts re-scored by a replaying judge", () => {
  const rows = readJsonlFile(dir, "data/example.jsonl");
  const rollouts = readJsonlFile<Record<string, any>>(dir, "data/example_rollouts.jsonl");
  // The replaying judge answers a prompt with the stored judge_output of the rollout whose question, gold
  // target and answer the prompt carries, exactly where the template puts them.
  const lookup: JudgeLookup = (path, body) => {
    const prompt = promptOf(path, body);
    const hit = rollouts.find((r) => prompt.includes(`Question: ${r.question}\nGold target: ${r.expected_answer}\nPredicted answer: ${r.extracted_answer}\n`));
    return hit && (path === "/v1/chat/completions" ? textCompletion(hit.judge_output as string) : textResponse(hit.judge_output as string));
  };
  for (const useChat of [true, false]) {
    test(`${useChat ? "Chat Completions" : "Responses"}: extracted_answer, judge_output and, where NeMo Gym's parser agrees, reward and verdict`, async () => {
      const app = server(lookup, { use_chat_completions_for_judge: useChat });
      let reproduced = 0;
      for (const [i, rollout] of rollouts.entries()) {
        const reply = await post(app, "/verify", { ...rows[i], response: rollout.response });
        expect(reply.status).toBe(200);
        expect(reply.body._ng_failure_class).toBeUndefined();
        expect(reply.body.extracted_answer).toBe(rollout.extracted_answer);
        expect(reply.body.judge_output).toBe(rollout.judge_output);
        expect(reply.body.expected_answer).toBe(rollout.expected_answer);
        // The published judge texts all begin "After reviewing…": NeMo Gym's own parser takes that first "A"
        // (see _fixtures/grades.json), so rows 3 and 4 (stored B and C) cannot come from its app.py.
        expect(parseJudgeGrade(rollout.judge_output as string)).toBe("A");
        expect(reply.body.verdict).toBe("correct");
        if (reply.body.reward === rollout.reward && reply.body.verdict === rollout.verdict) reproduced++;
      }
      expect(reproduced).toBe(3);
    });
  }
});

describe("simpleqa: judge failures and bad judge answers", () => {
  const row = readJsonlFile(dir, "data/example.jsonl")[0]!;
  const rollout = readJsonlFile<Record<string, any>>(dir, "data/example_rollouts.jsonl")[0]!;
  const verify = (app: Hono<any>) => post(app, "/verify", { ...row, response: rollout.response });

  test("an empty judge text is judge_failed (reward 0, the policy response kept)", async () => {
    const reply = await verify(server(() => textCompletion("")));
    expect(reply.status).toBe(200);
    expect(reply.body.reward).toBe(0);
    expect(reply.body._ng_failure_class).toBe("judge_failed");
    expect(reply.body._ng_failure_judge_error).toBe("empty judge response");
    expect(reply.body.response.output).toEqual(rollout.response.output);
    expect(reply.body.question).toBe(row.question);
  });

  test("a judge that answers 500, HTML, an empty body or truncated JSON is judge_failed, never a crash", async () => {
    for (const judge of BROKEN_JUDGES) {
      const app = createSimpleQA(block(), { name: "simpleqa", servers: judgeDirectory("genrm_model", judge as any) });
      const reply = await verify(app);
      expect(reply.status).toBe(200);
      expect(reply.body._ng_failure_class).toBe("judge_failed");
      expect(reply.body.reward).toBe(0);
      expect(typeof reply.body._ng_failure_judge_error).toBe("string");
    }
  });

  test("a verdict in the wrong format is a verdict (not attempted), not a failure", async () => {
    const reply = await verify(server(() => textCompletion("I refuse to grade this.")));
    expect(reply.body._ng_failure_class).toBeUndefined();
    expect(reply.body.verdict).toBe("not_attempted");
    expect(reply.body.is_not_attempted).toBe(1);
  });

  test("the judge request: Chat Completions params from judge_responses_create_params (Python's `or` defaults)", async () => {
    const seen: any[] = [];
    const app = server((path, body) => (seen.push([path, body]), textCompletion("A")), { judge_responses_create_params: { input: [], temperature: 0.0 } });
    await verify(app);
    expect(seen[0][0]).toBe("/v1/chat/completions");
    expect(Object.keys(seen[0][1])).toEqual(["messages", "max_tokens", "temperature", "top_p"]);
    expect([seen[0][1].max_tokens, seen[0][1].temperature, seen[0][1].top_p]).toEqual([64, 0, 1]);
  });
});

describe("simpleqa: metrics", () => {
  test("pass@k per tier, F1 and accuracy_given_attempted", async () => {
    const app = server(() => textCompletion("A"));
    const verdicts = ["correct", "correct", "incorrect", "not_attempted"];
    const reply = await post(app, "/aggregate_metrics", {
      verify_responses: verdicts.map((verdict, i) => ({ _ng_task_index: i, _ng_rollout_index: 0, reward: verdict === "correct" ? 1 : 0, verdict, extracted_answer: "x" })),
    });
    const m = reply.body.agent_metrics;
    expect(m["pass@1/correct"]).toBe(50);
    expect(m["pass@1/incorrect"]).toBe(25);
    // P = 0.5 / 0.75, R = 0.5 → F1 = 2PR/(P+R).
    const p = 0.5 / 0.75;
    expect(m["pass@1/accuracy_given_attempted"]).toBeCloseTo(100 * p, 12);
    expect(m["pass@1/f1"]).toBeCloseTo((100 * 2 * p * 0.5) / (p + 0.5), 12);
    expect(Object.keys(reply.body.key_metrics)).toContain("pass@1/correct");
  });
});
