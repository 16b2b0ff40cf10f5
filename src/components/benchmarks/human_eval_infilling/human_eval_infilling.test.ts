// human_eval_infilling through the compiled binary: prepare from a loopback mirror of the release file (through the
// download cache), `gym eval reverify` of NeMo Gym's published code_fim rollouts, and `gym eval run` on the mock.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { Hono } from "hono";
import { serve } from "../../../runtime/serve.ts";
import { detectSandbox } from "../../../sandbox/index.ts";
import { ensureBinary, gym } from "../../../testing/binary.ts";

const server = join(import.meta.dir, "../../resources_servers/code_fim");
const fixture = join(server, "_fixtures/RandomSpanInfilling_example.jsonl");
const hasBwrap = (await detectSandbox()).kind === "bwrap";
if (!hasBwrap) console.warn("skip: human_eval_infilling sandbox tests because bubblewrap is not available (apt-get install bubblewrap)");
const sandboxed = hasBwrap ? test : test.skip;
const dir = mkdtempSync(join(tmpdir(), "gym-hei-"));
beforeAll(ensureBinary, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const lines = (path: string) => readFileSync(path, "utf8").trim().split("\n").map((l) => JSON.parse(l));

describe("human_eval_infilling", () => {
  test("offline, the release file's download is refused naming its URL and how to pre-fetch", async () => {
    const cwd = mkdtempSync(join(dir, "offline-"));
    const r = await gym(["eval", "prepare", "--benchmark", "human_eval_infilling"], { cwd, env: { GYM_OFFLINE: "1", NEMO_GYM_CACHE_DIR: join(cwd, "cache") } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("https://github.com/openai/human-eval-infilling/raw/master/data/HumanEval-SingleLineInfilling.jsonl.gz");
    expect(r.stderr).toContain("gym env prefetch");
  });

  sandboxed("gym eval reverify re-scores NeMo Gym's published rollouts exactly", async () => {
    const inputs = join(dir, "inputs.jsonl");
    const rows = lines(join(server, "data/example.jsonl")).map((row, i) => ({ ...row, _ng_task_index: i, _ng_rollout_index: 0, agent_ref: { name: "human_eval_infilling_simple_agent" } }));
    writeFileSync(inputs, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
    const output = join(dir, "reverified.jsonl");
    const r = await gym(["eval", "reverify", "--benchmark", "human_eval_infilling", "--inputs", inputs, "--rollouts", join(server, "data/example_rollouts.jsonl"), "-o", output,
      `++human_eval_infilling_resources_server.resources_servers.code_fim.problems_jsonl_fpath=${fixture}`]);
    expect(r.stderr).not.toContain("Error");
    expect(r.code).toBe(0);
    const fields = ["reward", "extracted_model_output", "extracted_model_code", "completion", "status", "passed", "metadata", "_ng_task_index"];
    const got = new Map(lines(output).map((row) => [row._ng_task_index, row]));
    const published = lines(join(server, "data/example_rollouts.jsonl"));
    for (const row of published) expect(fields.map((f) => got.get(row._ng_task_index)[f])).toEqual(fields.map((f) => row[f]));
    const metrics = JSON.parse(readFileSync(join(dir, "reverified_aggregate_metrics.json"), "utf8"))[0].agent_metrics;
    expect([metrics["pass@1[avg-of-1]/accuracy"], metrics["majority@1/accuracy"]]).toEqual([0, 0]);
  }, 120_000);

  sandboxed("prepare from a mirror of the release file, then eval run --benchmark human_eval_infilling on the mock model", async () => {
    const cwd = mkdtempSync(join(dir, "run-"));
    const app = new Hono();
    app.get("/HumanEval-RandomSpanInfilling.jsonl.gz", (c) => c.body(gzipSync(readFileSync(fixture))));
    const mirror = await serve(app.fetch, { host: "127.0.0.1", port: 0 });
    const env = { GYM_HUMAN_EVAL_INFILLING_MIRROR: mirror.url, NEMO_GYM_CACHE_DIR: join(cwd, "cache") };
    const prepared = await gym(["eval", "prepare", "--benchmark", "human_eval_infilling", "+prepare_script_args={splits: [random_span]}"], { cwd, env });
    mirror.stop();
    expect(prepared.stderr).not.toContain("Error");
    expect(existsSync(join(cwd, "cache/human_eval_infilling/HumanEval-RandomSpanInfilling.jsonl.gz"))).toBe(true);
    const rows = lines(join(cwd, "benchmarks/human_eval_infilling/data/random_span.jsonl"));
    expect(Object.keys(rows[0])).toEqual(["task_id", "prefix", "suffix", "canonical_solution", "language", "split", "comment_delimiter", "verifier_metadata"]);
    expect(rows.map((r) => r.verifier_metadata.task_id)).toEqual([0, 1, 2, 3, 4].map((i) => `RandomSpanInfilling/HumanEval/${i}/1`));
    // The server reads the same cached release file (NeMo Gym's read_problems): no problems path is given.
    const run = await gym(["eval", "run", "--benchmark", "human_eval_infilling", "--model-type", "mock_model", "--limit", "2", "-o", "r/fim.jsonl"], { cwd, env: { NEMO_GYM_CACHE_DIR: join(cwd, "cache"), GYM_OFFLINE: "1" } });
    expect(run.stderr).not.toContain("Error");
    expect(run.code).toBe(0);
    const rollouts = lines(join(cwd, "r/fim.jsonl"));
    expect(rollouts).toHaveLength(2);
    for (const r of rollouts) expect([r.reward, r.passed]).toEqual([0, false]);
  }, 180_000);
});
