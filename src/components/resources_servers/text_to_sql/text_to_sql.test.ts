import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { post, readJsonlFile } from "../_common/testing.ts";
import { judgeDirectory, replayByPrompt, replayJudgeApp, textResponse, type JudgeLookup } from "../_judge/replay.ts";
import { rescore } from "../_judge/parity.ts";
import createServer, { extractSql } from "./index.ts";

const dir = import.meta.dir;
type Row = Record<string, any>;
const rows = readJsonlFile<Row>(dir, "data/example.jsonl");
const rollouts = readJsonlFile<Row>(dir, "data/example_rollouts.jsonl");
// The shipped config: `judge_responses_create_params: {input: []}`, no concurrency bound.
const server = (lookup: JudgeLookup, extra: Row = {}) =>
  createServer(
    { judge_model_server: { type: "responses_api_models", name: "policy_model" }, judge_responses_create_params: { input: [] }, judge_endpoint_max_concurrency: null, ...extra },
    { name: "text_to_sql", servers: judgeDirectory("policy_model", replayJudgeApp(lookup)) },
  );

describe("text_to_sql: published rollouts re-scored by a replaying judge", () => {
  test("5 of 5 exact, key order included (both passes of every row replayed from its judge_evaluations)", async () => {
    const judge = replayByPrompt(rollouts.flatMap((r) => r.judge_evaluations.map((e: Row) => ({ prompt: e.responses_create_params.input.at(-1).content, answer: e.response }))));
    // The user prompts are the current template's (the replay is keyed by them), but the published run's system
    // message is an older prompts.py's ("…would produce identical result sets…"): it is set as the config's
    // judge_system_message, as a user of that version would have.
    const published = rollouts[0]!.judge_evaluations[0].responses_create_params.input[0].content as string;
    expect(published).not.toBe(readFileSync(`${dir}/prompts/judge_system.txt`, "utf8"));
    expect(await rescore(server(judge, { judge_system_message: published }), rollouts, rows)).toEqual([[], [], [], [], []]);
    expect(judge.unused()).toBe(0);
  });
});

describe("text_to_sql: rules", () => {
  test("SQL extraction: ```sql block, a statement block, else from the first keyword to the last semicolon", () => {
    expect(extractSql("a\n```SQL\nSELECT 1;\n```\n```sql\n SELECT 2 \n```")).toBe("SELECT 2");
    expect(extractSql("```\nnot sql\n```\n```\nWITH x AS (SELECT 1) SELECT * FROM x\n```")).toBe("WITH x AS (SELECT 1) SELECT * FROM x");
    expect(extractSql("The query is select a from t;; done")).toBe("select a from t;");
    expect(extractSql("SELECT a FROM t")).toBe("SELECT a FROM t;");
    expect(extractSql("no query here")).toBeNull();
  });
  test("one pass without the swap check; a failed swap gets reward_if_swap_fails; no SQL, no judge; bad dialect is a 500", async () => {
    const base = { ...rows[0]!, response: rollouts[0]!.response };
    const calls: Row[] = [];
    const once = await post(server((_p, b) => (calls.push(b), textResponse("[[A=B]]")), { check_twice_swap: false }), "/verify", base);
    expect([once.body.reward, once.body.judge_evaluations.length, calls.length, calls[0]!.input[0].role]).toEqual([1, 1, 1, "system"]);
    let n = 0;
    const swapFails = await post(server(() => textResponse(n++ === 0 ? "[[A=B]]" : "[[A!=B]] not [[A=B]]"), { reward_if_swap_fails: -1.0 }), "/verify", base);
    expect([swapFails.body.reward, swapFails.body.failure_reason, swapFails.body.judge_evaluations.map((e: Row) => e.verdict_label)]).toEqual([-1, "judge_evaluation_failed", ["[[A=B]]", "[[A!=B]]"]]);
    const noSql = { ...base, response: { ...base.response, output: [{ id: "m", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "I cannot", annotations: [] }] }] } };
    const none = await post(server(() => undefined), "/verify", noSql);
    expect([none.body.reward, none.body.failure_reason, none.body.extracted_sql]).toEqual([0, "no_sql_extracted", null]);
    expect((await post(server(() => undefined), "/verify", { ...base, sql_dialect: "oracle" })).status).toBe(500);
    expect((await post(server(() => undefined), "/verify", base)).body._ng_failure_class).toBe("judge_failed");
  });
});
