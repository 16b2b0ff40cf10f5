import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import mockModel from "../../../components/responses_api_models/mock_model/index.ts";
import { serve, type ServedApp } from "../../../runtime/serve.ts";
import { ensureBinary, gym } from "../../../testing/binary.ts";
import { writeMcqaDataset } from "../../../testing/datasets.ts";

const context = { name: "upstream", serverType: "responses_api_models", implementation: "mock_model", servers: { get: () => { throw new Error("no peers"); } }, globalConfig: {} } as const;
const lines = (path: string) => readFileSync(path, "utf8").trimEnd().split("\n").filter(Boolean).map((l) => JSON.parse(l));

let upstream: ServedApp;
let dir: string;

beforeAll(async () => {
  await ensureBinary();
  upstream = await serve((await mockModel({ model: "mock", latency_ms: 2 }, context as never)).fetch);
  dir = mkdtempSync(join(tmpdir(), "gym-run-e2e-"));
  writeMcqaDataset(join(dir, "tasks.jsonl"), 6);
}, 120_000);

afterAll(async () => {
  await upstream?.stop();
});

/** gym eval run on mcqa through openai_model, which forwards to the mock served on loopback. */
function evalRun(output: string, extra: string[] = []) {
  return gym([
    "eval", "run", "--resources-server", "mcqa", "--model-type", "openai_model",
    "--model", "mock", "--model-url", `${upstream.url}/v1`, "--model-api-key", "sk-test-secret",
    "--input", join(dir, "tasks.jsonl"), "--num-repeats", "3", "--concurrency", "4", "--output", output, ...extra,
  ], { cwd: dir });
}

describe("gym eval run (compiled binary, mock model on loopback)", () => {
  test("writes every output file with NeMo Gym's row shapes", async () => {
    const out = join(dir, "results", "mcqa.jsonl");
    const r = await evalRun(out);
    expect(r.stderr).toContain("Coverage: 18 of 18 rollouts scored");
    expect(r.code).toBe(0);

    const rollouts = lines(out);
    expect(rollouts.length).toBe(18);
    const identities = new Set(rollouts.map((row) => `${row._ng_task_index}-${row._ng_rollout_index}`));
    expect(identities.size).toBe(18);
    for (const row of rollouts) {
      expect(Object.keys(row).slice(0, 3)).toEqual(["responses_create_params", "response", "reward"]);
      expect(row.agent_ref).toEqual({ name: "mcqa_simple_agent" });
      expect(row.reward).toBe(row.extracted_answer === row.expected_answer ? 1 : 0);
      expect(row.response.object).toBe("response");
      expect(typeof row.extracted_answer).toBe("string");
    }
    // reward is a Python float in the file, as NeMo Gym writes it.
    expect(readFileSync(out, "utf8")).toMatch(/"reward":(0|1)\.0,/);

    const materialized = lines(join(dir, "results", "mcqa_materialized_inputs.jsonl"));
    expect(materialized.length).toBe(18);
    expect(materialized[0]).toMatchObject({ agent_ref: { name: "mcqa_simple_agent" }, _ng_task_index: 0, _ng_rollout_index: 0, expected_answer: "A" });
    expect(materialized.map((m) => `${m._ng_task_index}-${m._ng_rollout_index}`).slice(0, 4)).toEqual(["0-0", "0-1", "0-2", "1-0"]);

    const metrics = JSON.parse(readFileSync(join(dir, "results", "mcqa_aggregate_metrics.json"), "utf8"));
    expect(metrics.length).toBe(1);
    expect(metrics[0].agent_ref).toEqual({ name: "mcqa_simple_agent" });
    const mean = rollouts.reduce((s, row) => s + row.reward, 0) / 18;
    expect(metrics[0].agent_metrics["mean/reward"]).toBeCloseTo(mean, 12);
    expect(Object.keys(metrics[0])).toEqual(expect.arrayContaining(["agent_metrics", "key_metrics", "group_level_metrics"]));

    const manifest = JSON.parse(readFileSync(join(dir, "results", "mcqa_manifest.json"), "utf8"));
    expect(manifest).toMatchObject({ schema_version: 2, selection_policy: "latest_allocated", legacy_import: false, identity_overridden: false });
    // Every rollout succeeded: a done rollout is never dispatched again, so its reservation is not kept.
    expect(manifest.next_attempt).toEqual({});
    expect(manifest.materialized_file).toMatchObject({ size: statSync(join(dir, "results", "mcqa_materialized_inputs.jsonl")).size });
    expect(JSON.stringify(manifest)).not.toContain("sk-test-secret");

    const status = JSON.parse(readFileSync(join(dir, "results", "mcqa_batch_status.json"), "utf8"));
    expect(status).toMatchObject({ expected_rollout_count: 18, completed_rollout_count: 18, remaining_rollout_count: 0, aggregation_status: "complete", tracking: "enabled" });

    const resolved = readFileSync(join(dir, "results", "mcqa_resolved_config.yaml"), "utf8");
    expect(resolved).toContain("mcqa_simple_agent:");
    expect(resolved).not.toContain("sk-test-secret");
    expect(existsSync(join(dir, "results", "mcqa_run.lock"))).toBe(false);
    expect(existsSync(join(dir, "results", "mcqa_manifest.attempts.jsonl"))).toBe(false);
  }, 60_000);

  test("--output - streams rollouts to stdout for a pipe", async () => {
    const r = await evalRun("-", ["--limit", "2", "--num-repeats", "1"]);
    expect(r.code).toBe(0);
    const rows = r.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(rows.map((row) => row._ng_task_index).sort()).toEqual([0, 1]);
  }, 60_000);

  test("resume: a semantic change is refused naming it; an operational one warns and records drift", async () => {
    const out = join(dir, "drift", "run.jsonl");
    expect((await evalRun(out)).code).toBe(0);
    const refused = await evalRun(out, ["--resume", "--temperature", "0.2"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("Refusing to resume");
    expect(refused.stderr).toContain("responses_create_params.temperature");

    const drifted = await evalRun(out, ["--resume", "--concurrency", "2"]);
    expect(drifted.code).toBe(0);
    expect(drifted.stderr).toContain("changed operational settings: num_samples_in_parallel");
    expect(drifted.stderr).toContain("Resuming: 18 rollouts expected (18 done); dispatching 0.");
    const drift = lines(join(dir, "drift", "run_manifest.resume-drift.jsonl"));
    expect(drift.length).toBe(1);
    expect(drift[0].operational_keys).toEqual(["num_samples_in_parallel"]);
    expect(lines(out).length).toBe(18);
  }, 60_000);

  test("a benchmark runs on its prepared data with its prompt template and repeats", async () => {
    const bench = mkdtempSync(join(tmpdir(), "gym-bench-run-"));
    expect((await gym(["eval", "prepare", "--benchmark", "arithmetic"], { cwd: bench })).code).toBe(0);
    const r = await gym(["eval", "run", "--benchmark", "arithmetic", "--model-type", "mock_model", "--limit", "10", "-o", "r/a.jsonl"], { cwd: bench });
    expect(r.stderr).toContain("Collecting 40 rollouts (10 tasks)");
    expect(r.code).toBe(0);
    const first = lines(join(bench, "r", "a_materialized_inputs.jsonl"))[0];
    // The benchmark's prompt config rendered the question into the input messages.
    expect(JSON.stringify(first.responses_create_params.input)).toContain(first.question);
  }, 60_000);

  test("a bad input line stops the run before anything is dispatched", async () => {
    const bad = join(dir, "bad.jsonl");
    await Bun.write(bad, '{"responses_create_params":{"input":"x"}}\n{"oops": }\n');
    const r = await gym(["eval", "run", "--resources-server", "mcqa", "--model-type", "mock_model", "--input", bad, "-o", join(dir, "bad", "r.jsonl")], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${bad}:2:10: invalid JSON`);
    expect(existsSync(join(dir, "bad", "r.jsonl"))).toBe(false);
  }, 60_000);
});

test("an unreachable model endpoint fails before any rollout is dispatched, naming the URL and the fix", async () => {
  const dead = mkdtempSync(join(tmpdir(), "gym-dead-"));
  writeMcqaDataset(join(dead, "tasks.jsonl"), 2);
  const r = await gym(["eval", "run", "--resources-server", "mcqa", "--model-type", "openai_model", "--model", "m", "--model-url", "http://127.0.0.1:1/v1", "--model-api-key", "k", "--input", "tasks.jsonl", "-o", "r.jsonl", "+model_endpoint_readiness_timeout_seconds=0"], { cwd: dead });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("The model endpoint is not reachable: model endpoint http://127.0.0.1:1/v1 (from `policy_model.openai_base_url`)");
  expect(r.stderr).toContain("Hint: Check --model-url");
  expect(existsSync(join(dead, "r.jsonl"))).toBe(false);
}, 60_000);
