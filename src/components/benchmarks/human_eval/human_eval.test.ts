import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
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

  test("without a source file the refusal names EvalPlus's release URL and how to pass the file", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "gym-he-"));
    const r = await gym(["eval", "prepare", "--benchmark", "human_eval"], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("HumanEvalPlus-v0.1.10.jsonl.gz");
    expect(r.stderr).toContain("+prepare_script_args={source:");
  });

  (hasBwrap ? test : test.skip)("prepare from a release file, then eval run --benchmark human_eval against the mock model", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "gym-he-"));
    const source = join(cwd, "HumanEvalPlus-v0.1.10.jsonl.gz");
    writeFileSync(source, gzipSync(readFileSync(fixture)));
    const prepared = await gym(["eval", "prepare", "--benchmark", "human_eval", `+prepare_script_args={source: ${source}}`], { cwd });
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
