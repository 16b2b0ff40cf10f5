import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { serve, type ServedApp } from "../../../runtime/serve.ts";
import { ensureBinary, gym } from "../../../testing/binary.ts";
import { fullResponse, post, readJsonlFile } from "../_common/testing.ts";
import { judgeDirectory, promptOfRequest, replayJudgeApp, textResponse, type JudgeLookup } from "../_judge/replay.ts";
import createServer, { aggregate, contextFromMessages, extractVerdict, finalText } from "./index.ts";

const dir = import.meta.dir;
type Row = Record<string, any>;
const rows = readJsonlFile<Row>(dir, "data/example.jsonl");
const rollouts = readJsonlFile<Row>(dir, "data/example_rollouts.jsonl");
const shipped = (parse(readFileSync(`${dir}/configs/multichallenge.yaml`, "utf8")) as Row).multichallenge.resources_servers.multichallenge;
const server = (lookup: JudgeLookup, extra: Row = {}) => createServer({ ...shipped, ...extra }, { name: "multichallenge", servers: judgeDirectory("policy_model", replayJudgeApp(lookup)) });
const reply = (text: string) => fullResponse({ output: [{ type: "reasoning", summary: [] }, { type: "message", content: [{ type: "output_text", text }] }] });
/** A judge that says [[YES]] to questions mentioning `yesTo`, else [[NO]] (after some reasoning). */
const judgeSaying = (yesTo: RegExp, seen: Row[] = []): JudgeLookup => (_path, body) => (seen.push(body), textResponse(`<think>hmm</think>Reasoning...\n${yesTo.test(promptOfRequest(body).split("EVALUATION QUESTION:")[1] ?? "") ? "[[YES]]" : "[[NO]]"}`));

let work: string;
let judge: ServedApp;
let broken: ServedApp;
beforeAll(async () => {
  await ensureBinary();
  work = mkdtempSync(join(tmpdir(), "gym-multichallenge-"));
  judge = await serve(replayJudgeApp(judgeSaying(/./)).fetch);
  // Up (the pre-flight check passes) but refusing every call with a 401, which no model server retries.
  broken = await serve(async () => new Response('{"error":{"message":"Incorrect API key provided"}}', { status: 401, headers: { "content-type": "application/json" } }));
}, 120_000);
afterAll(async () => {
  await Promise.all([judge?.stop(), broken?.stop()]);
  rmSync(work, { recursive: true, force: true });
});

describe("multichallenge: rules", () => {
  test("verdicts: the later label wins; without labels YES/NO on the last line; NO by default", () => {
    expect(extractVerdict("[[YES]] at first, but [[NO]]", "[[YES]]", "[[NO]]")).toBe("NO");
    expect(extractVerdict("[[NO]]\nfinal: [[YES]]", "[[YES]]", "[[NO]]")).toBe("YES");
    expect(extractVerdict("thinking\nyes it does  ", "[[YES]]", "[[NO]]")).toBe("YES");
    expect(extractVerdict("no\n", "[[YES]]", "[[NO]]")).toBe("NO");
    expect(extractVerdict("unclear", "[[YES]]", "[[NO]]")).toBe("NO");
  });
  test("aggregation modes, weights", () => {
    expect(["mean", "min", "max", "all", "any", "weighted"].map((m) => aggregate([1, 0, 1], [1, 2, 1], m as any))).toEqual([2 / 3, 0, 1, 0, 1, 0.5]);
    expect([aggregate([], [], "mean"), aggregate([1], [0], "weighted")]).toEqual([0, 0]);
  });
  test("the final text: the last assistant message, thinking (paired or an unpaired close) removed; the context from messages", () => {
    expect(finalText(reply("<think>x</think>  Hi Alex"))).toBe("Hi Alex");
    expect(finalText(reply("cot cot</think>\nAnswer"))).toBe("Answer");
    expect(finalText(fullResponse({ output: [{ type: "message", content: [{ type: "output_text", text: "a" }, { type: "output_text", text: "b" }] }, { type: "function_call", name: "f", arguments: "{}" }] }))).toBe("a\nb");
    expect(contextFromMessages([{ role: "user", content: "hi" }, { role: "thinking", content: "x" }, { content: "y" }])).toBe("[USER]: hi\n\n[UNKNOWN]: y");
  });
});

describe("multichallenge: /verify with a judge", () => {
  test("one judge call per rubric question with the config's prompt and system message; scores against pass_criteria; NeMo Gym's fields", async () => {
    const seen: Row[] = [];
    const row = rows[0]!;
    const got = await post(server(judgeSaying(/peanut/, seen)), "/verify", { ...row, response: reply("Here are some snacks: pretzels, Alex!") });
    expect(got.status).toBe(200);
    expect(seen).toHaveLength(row.rubric.length);
    expect(seen[0]!.input[0]).toMatchObject({ role: "system", content: shipped.judge_system_message });
    expect(seen[0]!.input[1].content).toContain(`CONVERSATION CONTEXT:\n${row.context}\n\nMODEL'S FINAL RESPONSE:\nHere are some snacks: pretzels, Alex!\n\nEVALUATION QUESTION:\n`);
    expect([seen[0]!.max_output_tokens, seen[0]!.temperature]).toEqual([shipped.judge_responses_create_params.max_output_tokens, shipped.judge_responses_create_params.temperature]);
    const expected = row.rubric.map((r: Row) => (/peanut/.test(r.question) === (r.pass_criteria === "YES") ? 1 : 0));
    expect(got.body.rubric_evaluations.map((e: Row) => e.score)).toEqual(expected);
    expect(got.body.reward).toBe(expected.reduce((a: number, b: number) => a + b, 0) / expected.length);
    expect(Object.keys(got.body)).toEqual(["responses_create_params", "response", "reward", "context", "generated_response", "rubric_evaluations", "aggregation_mode", "num_passed", "num_total", "uuid", "task_id", "metadata", "agent_ref"]);
    expect(Object.keys(got.body.rubric_evaluations[0])).toEqual(["question", "pass_criteria", "judge_prompt", "judge_response", "verdict", "score", "weight"]);
    expect([got.body.task_id, got.body.rubric_evaluations[0].judge_response]).toEqual([1, "Reasoning...\n[[YES]]"]);
  });
  test("context and rubric from metadata when the row has none; a failed judge call is judge_failed", async () => {
    const body = { responses_create_params: { input: [] }, response: reply("ok"), metadata: { messages: [{ role: "user", content: "hi" }], rubric: [{ question: "Q?", pass_criteria: "NO" }] } };
    const got = await post(server(judgeSaying(/zzz/), { aggregation_mode: "all" }), "/verify", body);
    expect([got.body.context, got.body.reward, got.body.num_passed, got.body.rubric_evaluations[0].verdict]).toEqual(["[USER]: hi", 1, 1, "NO"]);
    const failed = await post(server(() => undefined), "/verify", { ...rows[1]!, response: reply("x") });
    expect([failed.status, failed.body._ng_failure_class, failed.body.reward]).toEqual([200, "judge_failed", 0]);
  });
});

describe("multichallenge: NeMo Gym's published rollouts and the binary", () => {
  test("pinned: the 5 published rollouts are the task rows (no response, no reward): there is nothing to re-score", () => {
    expect(rollouts).toHaveLength(5);
    expect(rollouts.filter((r) => "response" in r || "reward" in r)).toEqual([]);
    expect(rollouts.map((r) => r.uuid)).toEqual(rows.map((r) => r.uuid));
  });

  test("eval run against mock_model (the judge is the policy model, as the config says), then a run whose judge fails, recovered by reverify --judge-failed-only", async () => {
    const run = await gym(["eval", "run", "--resources-server", "multichallenge", "--model-type", "mock_model", "-i", join(dir, "data/example.jsonl"), "-o", join(work, "mock.jsonl")], { cwd: work });
    expect(run.stderr).toContain("Coverage: 5 of 5 rollouts scored (5 succeeded)");
    expect(run.code).toBe(0);
    const judgeYaml = (url: string) => `judge_model:\n  responses_api_models:\n    openai_model:\n      entrypoint: app.py\n      openai_base_url: ${url}/v1\n      openai_api_key: sk-judge\n      openai_model: judge\n`;
    writeFileSync(join(work, "dead-judge.yaml"), judgeYaml(broken.url));
    writeFileSync(join(work, "judge.yaml"), judgeYaml(judge.url));
    const rename = "++multichallenge.resources_servers.multichallenge.judge_model_server.name=judge_model";
    const failing = await gym(["eval", "run", "--resources-server", "multichallenge", "--model-type", "mock_model", "--config", "dead-judge.yaml", rename, "-i", join(dir, "data/example.jsonl"), "-o", "dead/rollouts.jsonl"], { cwd: work });
    expect(failing.stderr).toContain("Coverage: 0 of 5 rollouts scored (0 succeeded); 5 missing.");
    expect(failing.stderr).toContain("Left the score this run: 5 judge_failed");
    const failures = readFileSync(join(work, "dead/rollouts_failures.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(failures.map((f) => f._ng_failure_class)).toEqual(Array(5).fill("judge_failed"));
    const recovered = await gym(["eval", "reverify", "--judge-failed-only", "--resources-server", "multichallenge", "--config", "judge.yaml", rename, "--inputs", "dead/rollouts_materialized_inputs.jsonl", "--rollouts", "dead/rollouts.jsonl", "-o", "recovered.jsonl"], { cwd: work });
    expect(recovered.stderr).toContain("Re-verified 5 rollout(s): 5 scored, 0 to the failures sidecar.");
    const got = readFileSync(join(work, "recovered.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    // The replaying judge says [[YES]] to everything: a question passes when its pass_criteria is YES.
    const expected = rows.map((r) => [r.uuid, r.rubric.filter((q: Row) => q.pass_criteria === "YES").length / r.rubric.length]);
    expect(got.map((r) => [r.uuid, r.reward]).sort()).toEqual(expected.sort());
  }, 180_000);
});
