import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { serve, type ServedApp } from "../../../runtime/serve.ts";
import { ensureBinary, gym } from "../../../testing/binary.ts";
import { fullResponse, post, readJsonFile, readJsonlFile } from "../_common/testing.ts";
import { judgeDirectory, promptOfRequest, replayJudgeApp, textResponse, type JudgeLookup } from "../_judge/replay.ts";
import createServer, { parseProof } from "./index.ts";

const dir = import.meta.dir;
type Row = Record<string, any>;
const rollouts = readJsonlFile<Row>(dir, "data/example_rollouts.jsonl");
const inputs = readJsonlFile<Row>(dir, "data/example_rollouts_materialized_inputs.jsonl");
const golden = readJsonFile<Row>(dir, "data/golden.json");
const shipped = (parse(readFileSync(`${dir}/configs/proof_judge.yaml`, "utf8")) as Row).proof_judge.resources_servers.proof_judge;
const server = (lookup: JudgeLookup, extra: Row = {}) => createServer({ ...shipped, ...extra }, { name: "proof_judge", servers: judgeDirectory("policy_model", replayJudgeApp(lookup)) });

/**
 * NeMo Gym's published rollouts keep only the reward (the response model is BaseVerifyResponse's), not the judge's text.
 * With the shipped alpha 1, beta 0 the reward is the verifier's \boxed{} score, so the replaying judge answers each row's
 * verifier prompt — the one NeMo Gym's own parse_response and template produce (data/golden.json) — with \boxed{reward}.
 */
const published: JudgeLookup = (_path, body) => {
  const at = golden.prompts.findIndex((p: Row) => p.verifier === promptOfRequest(body));
  return at < 0 ? undefined : textResponse(`The proof is checked.\n\\boxed{${rollouts[at]!.reward}}`);
};
const reply = (text: string) => fullResponse({ output: [{ type: "message", content: [{ type: "output_text", text }] }] });

let work: string;
let judge: ServedApp;
let broken: ServedApp;
beforeAll(async () => {
  await ensureBinary();
  work = mkdtempSync(join(tmpdir(), "gym-proof-judge-"));
  judge = await serve(replayJudgeApp(published).fetch);
  broken = await serve(async () => new Response('{"error":{"message":"Incorrect API key provided"}}', { status: 401, headers: { "content-type": "application/json" } }));
}, 120_000);
afterAll(async () => {
  await Promise.all([judge?.stop(), broken?.stop()]);
  rmSync(work, { recursive: true, force: true });
});

describe("proof_judge: rules", () => {
  test("parse_response on 20 cases labelled by NeMo Gym's own function (scripts/proof-judge-golden.py)", () => {
    for (const c of golden.parse) {
      const got = parseProof(c.text, c.assert_think_end);
      expect([c.text, typeof got === "string" ? null : got, typeof got === "string" ? got : null]).toEqual([c.text, c.parsed, c.reason]);
    }
  });
  test("beta > 0: verifier and meta-verifier in parallel, reward alpha·r_y + beta·(1 − |s′ − r_y|)·r_meta", async () => {
    const seen: string[] = [];
    const app = server((_p, body) => {
      const prompt = promptOfRequest(body);
      seen.push(prompt);
      return textResponse(prompt === golden.prompts[0].meta ? "\\boxed{1}" : "\\boxed{0.5}");
    }, { alpha: 0.5, beta: 0.5 });
    const got = await post(app, "/verify", { ...inputs[0]!, response: rollouts[0]!.response });
    expect(seen.sort()).toEqual([golden.prompts[0].meta, golden.prompts[0].verifier].sort());
    expect(got.body.reward).toBe(0.5 * 0.5 + 0.5 * (1 - Math.abs(golden.prompts[0].s_prime - 0.5)) * 1);
    expect(Object.keys(got.body)).toEqual(["responses_create_params", "response", "reward"]);
  });
  test("no judge call for an empty, unparseable or too long answer; a failed call is judge_failed", async () => {
    let calls = 0;
    const app = server(() => (calls++, textResponse("\\boxed{1}")));
    for (const text of ["", "no headers", `## Solution ${"x".repeat(40_001)} ## Self Evaluation \\boxed{1}`]) {
      expect((await post(app, "/verify", { problem: "p", responses_create_params: { input: [] }, response: reply(text) })).body.reward).toBe(0);
    }
    expect(calls).toBe(0);
    const failed = await post(server(() => undefined), "/verify", { ...inputs[0]!, response: rollouts[0]!.response });
    expect([failed.body._ng_failure_class, failed.body.reward, failed.body.problem]).toEqual(["judge_failed", 0, inputs[0]!.problem]);
  });
  test("zero_reward_incorrect_groups: a group whose proofs all score 0 gets 0; one correct proof keeps the others' rewards; the config check", async () => {
    const text = "## Solution proof ## Self Evaluation \\boxed{1}";
    const app = server((_p, body) => textResponse(promptOfRequest(body).includes("GOOD") ? "\\boxed{1}" : "\\boxed{0}"), { zero_reward_incorrect_groups: true, expected_group_size: 2, alpha: 1, beta: 1 });
    const one = (problem: string) => post(app, "/verify", { problem, responses_create_params: { input: [] }, response: reply(text) });
    const [a, b] = await Promise.all([one("bad"), one("bad")]);
    expect([a.body.reward, b.body.reward]).toEqual([0, 0]);
    const [c, d] = await Promise.all([one("GOOD"), one("GOOD")]);
    expect([c.body.reward, d.body.reward]).toEqual([2, 2]);
    expect(() => createServer({ ...shipped, zero_reward_incorrect_groups: true }, { name: "proof_judge" })).toThrow(/expected_group_size must be > 0/);
  });
  test("PROOF_JUDGE_LOG_JSONL_PATH: one JSON line per verification with the details", async () => {
    const log = join(work, "log.jsonl");
    process.env.PROOF_JUDGE_LOG_JSONL_PATH = log;
    try {
      await post(server(published), "/verify", { ...inputs[1]!, response: rollouts[1]!.response });
    } finally {
      delete process.env.PROOF_JUDGE_LOG_JSONL_PATH;
    }
    const line = readFileSync(log, "utf8");
    expect(line).toMatch(/^\{"ts": "\d{4}-\d\d-\d\dT[\d:.]+\+00:00", "problem": /);
    expect(JSON.parse(line)).toMatchObject({ reward: 1, r_y: 1, s_prime: 1, verifier_response: "The proof is checked.\n\\boxed{1}" });
    expect(line).toContain('"reward": 1.0, "r_y": 1.0, "s_prime": 1.0');
  });
});

describe("proof_judge: NeMo Gym's published rollouts (judge scores inferred from the rewards)", () => {
  test("5 of 5 rewards through /verify; each row's verifier prompt is exactly NeMo Gym's", async () => {
    const seen: string[] = [];
    const app = server((path, body) => (seen.push(promptOfRequest(body)), published(path, body)));
    for (const [i, rollout] of rollouts.entries()) {
      const got = await post(app, "/verify", { ...inputs[i]!, response: rollout.response });
      expect([got.status, got.body.reward]).toEqual([200, rollout.reward]);
    }
    expect(seen).toEqual(golden.prompts.map((p: Row) => p.verifier));
  });

  test("gym eval reverify on the binary, the judge an openai_model replaying over HTTP: the same rewards and NeMo Gym's aggregate metrics", async () => {
    const config = join(work, "judge.yaml");
    writeFileSync(config, `judge_model:\n  responses_api_models:\n    openai_model:\n      entrypoint: app.py\n      openai_base_url: ${judge.url}/v1\n      openai_api_key: sk-replay\n      openai_model: replayed-judge\n`);
    writeFileSync(join(work, "rollouts.jsonl"), `${rollouts.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const r = await gym(["eval", "reverify", "--force", "--resources-server", "proof_judge", "--config", config, "++proof_judge.resources_servers.proof_judge.judge_model_server.name=judge_model",
      "--inputs", join(dir, "data/example_rollouts_materialized_inputs.jsonl"), "--rollouts", join(work, "rollouts.jsonl"), "-o", join(work, "reverified.jsonl")], { cwd: work });
    expect({ code: r.code, stderr: r.code === 0 ? "" : r.stderr }).toEqual({ code: 0, stderr: "" });
    const got = readFileSync(join(work, "unsafe_reverified.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const key = (row: Row) => `${row._ng_task_index}:${row.reward}`;
    expect(got.map(key).sort()).toEqual(rollouts.map(key).sort());
    const metrics = JSON.parse(readFileSync(join(work, "unsafe_reverified_aggregate_metrics.json"), "utf8"));
    const theirs = readJsonFile<Row[]>(dir, "data/example_rollouts_aggregate_metrics.json");
    expect(metrics[0].agent_metrics).toEqual(theirs[0]!.agent_metrics);
  }, 120_000);

  test("gym eval run on the binary: replay_model as the policy and the replaying judge, NeMo Gym's rewards end to end", async () => {
    const r = await gym(["eval", "run", "--resources-server", "proof_judge", "--model-type", "replay_model", "+policy_model.responses_api_models.replay_model.rollouts_jsonl_fpath=resources_servers/proof_judge/data/example_rollouts.jsonl",
      "--config", join(work, "judge.yaml"), "++proof_judge.resources_servers.proof_judge.judge_model_server.name=judge_model", "--split", "example", "-o", join(work, "run.jsonl")], { cwd: work });
    expect(r.stderr).toContain("Coverage: 5 of 5 rollouts scored (5 succeeded)");
    const got = readFileSync(join(work, "run.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(got.map((row) => row.reward).sort()).toEqual(rollouts.map((row) => row.reward).sort());
  }, 120_000);

  test("a run whose judge refuses every call: 5 rows judge_failed, recovered by reverify --judge-failed-only with NeMo Gym's rewards", async () => {
    writeFileSync(join(work, "broken.yaml"), `judge_model:\n  responses_api_models:\n    openai_model:\n      entrypoint: app.py\n      openai_base_url: ${broken.url}/v1\n      openai_api_key: sk-judge\n      openai_model: judge\n`);
    writeFileSync(join(work, "judge.yaml"), `judge_model:\n  responses_api_models:\n    openai_model:\n      entrypoint: app.py\n      openai_base_url: ${judge.url}/v1\n      openai_api_key: sk-replay\n      openai_model: replayed-judge\n`);
    const rename = "++proof_judge.resources_servers.proof_judge.judge_model_server.name=judge_model";
    const policy = ["--model-type", "replay_model", "+policy_model.responses_api_models.replay_model.rollouts_jsonl_fpath=resources_servers/proof_judge/data/example_rollouts.jsonl"];
    const failing = await gym(["eval", "run", "--resources-server", "proof_judge", ...policy, "--config", "broken.yaml", rename, "--split", "example", "-o", "broken/rollouts.jsonl"], { cwd: work });
    expect(failing.stderr).toContain("Left the score this run: 5 judge_failed");
    const recovered = await gym(["eval", "reverify", "--judge-failed-only", "--resources-server", "proof_judge", "--config", "judge.yaml", rename, "--inputs", "broken/rollouts_materialized_inputs.jsonl", "--rollouts", "broken/rollouts.jsonl", "-o", "recovered.jsonl"], { cwd: work });
    expect(recovered.stderr).toContain("Re-verified 5 rollout(s): 5 scored, 0 to the failures sidecar.");
    const got = readFileSync(join(work, "recovered.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(got.map((row) => row.reward).sort()).toEqual(rollouts.map((row) => row.reward).sort());
  }, 180_000);
});
