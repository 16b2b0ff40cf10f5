import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { Hono } from "hono";
import { serve } from "../../../runtime/serve.ts";
import { detectSandbox } from "../../../sandbox/index.ts";
import { gym } from "../../../testing/binary.ts";
import { evalplusRow, parsePythonJson } from "../_evalplus-prepare.ts";

const fixture = join(import.meta.dir, "../../resources_servers/evalplus/_fixtures/HumanEvalPlus_0-4.jsonl");
const hasBwrap = (await detectSandbox()).kind === "bwrap";
if (!hasBwrap) console.warn("skip: the human_eval eval run test because bubblewrap is not available");

describe("human_eval / mbpp prepare", () => {
  test("rows as NeMo Gym writes them: the prompt's 4-space indents as tabs, the task id for the server", () => {
    const row = evalplusRow({ task_id: "HumanEval/9", prompt: "def f():\n    pass\n", entry_point: "f", canonical_solution: "    return 1\n", base_input: [] });
    expect(row).toEqual({ question: "def f():\n\tpass\n", entry_point: "f", canonical_solution: "    return 1\n", verifier_metadata: { task_id: "HumanEval/9" } });
  });

  test("Python's NaN and Infinity outside strings parse (as null); inside strings they stay text", () => {
    expect(parsePythonJson('{"a": [NaN, -Infinity, Infinity], "s": "NaN \\" Infinity"}')).toEqual({ a: [null, null, null], s: 'NaN " Infinity' });
  });

  test("offline, the download of EvalPlus's release file is refused naming its URL and how to pre-fetch", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "gym-he-"));
    const r = await gym(["eval", "prepare", "--benchmark", "human_eval"], { cwd, env: { GYM_OFFLINE: "1", NEMO_GYM_CACHE_DIR: join(cwd, "cache") } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("https://github.com/evalplus/humanevalplus_release/releases/download/v0.1.10/HumanEvalPlus-v0.1.10.jsonl.gz");
    expect(r.stderr).toContain("gym env prefetch");
  });

  (hasBwrap ? test : test.skip)("prepare from a release file, then eval run --benchmark human_eval against the mock model", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "gym-he-"));
    // The release file comes from a loopback mirror through the download layer, into the cache.
    const app = new Hono();
    app.get("/HumanEvalPlus-v0.1.10.jsonl.gz", (c) => c.body(gzipSync(readFileSync(fixture))));
    const mirror = await serve(app.fetch, { host: "127.0.0.1", port: 0 });
    const env = { GYM_EVALPLUS_MIRROR: mirror.url, NEMO_GYM_CACHE_DIR: join(cwd, "cache") };
    const prepared = await gym(["eval", "prepare", "--benchmark", "human_eval"], { cwd, env });
    mirror.stop();
    expect(existsSync(join(cwd, "cache", "evalplus", "HumanEvalPlus-v0.1.10.jsonl.gz"))).toBe(true);
    expect(prepared.stderr).not.toContain("Error");
    const rows = readFileSync(join(cwd, "benchmarks/human_eval/data/human_eval_benchmark.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(rows.map((r) => r.verifier_metadata.task_id)).toEqual(["HumanEval/0", "HumanEval/1", "HumanEval/2", "HumanEval/3", "HumanEval/4"]);
    const run = await gym(["eval", "run", "--benchmark", "human_eval", "--model-type", "mock_model", "--limit", "2", "-o", "r/he.jsonl"], { cwd });
    expect(run.stderr).not.toContain("Error");
    expect(run.code).toBe(0);
    // The mock's echo program defines no function: every base input fails, each with its own verdict.
    const rollouts = readFileSync(join(cwd, "r/he.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(rollouts.map((r) => [r.reward, r.base_status, r.is_correct])).toEqual([[0, "fail", false], [0, "fail", false]]);
    expect(JSON.parse(readFileSync(join(cwd, "r/he_aggregate_metrics.json"), "utf8"))).toBeDefined();
  }, 120_000);
});
