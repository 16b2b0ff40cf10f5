// imo_proofbench: prepare from a 127.0.0.1 copy of proofbench.csv (byte for byte NeMo Gym's prepare output), and on
// the binary `gym eval prepare` + `gym eval run --benchmark imo_proofbench` replaying NeMo Gym's published policy
// answers (replay_model) with the judge replaying their stored verdicts: the published rewards, end to end.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, type ServedApp } from "../../../runtime/serve.ts";
import { ensureBinary, gym } from "../../../testing/binary.ts";
import { readJsonlFile } from "../../resources_servers/_common/testing.ts";
import { differingKeys } from "../../resources_servers/_judge/parity.ts";
import { promptOfRequest, replayJudgeApp, textCompletion, type JudgeLookup } from "../../resources_servers/_judge/replay.ts";
import { prepare } from "./prepare.ts";

type Row = Record<string, any>;
const fixtures = join(import.meta.dir, "..", "..", "..", "..", "fixtures", "judge_prepare");
const server = join(import.meta.dir, "..", "..", "resources_servers", "imo_proofbench_judge");
const csv = readFileSync(join(fixtures, "imo_proofbench.csv"));
const lines = (path: string) => readFileSync(path, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Row);
let dir: string;
let source: ServedApp;
let judge: ServedApp;
let lookup: JudgeLookup = () => undefined;

beforeAll(async () => {
  await ensureBinary();
  dir = mkdtempSync(join(tmpdir(), "gym-imo-proofbench-"));
  source = await serve(async (req) => (new URL(req.url).pathname.endsWith("/proofbench.csv") ? new Response(csv, { headers: { "content-type": "text/csv" } }) : new Response("no", { status: 404 })));
  judge = await serve(replayJudgeApp((path, body) => lookup(path, body)).fetch);
}, 120_000);
afterAll(async () => {
  await Promise.all([source?.stop(), judge?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

describe("imo_proofbench prepare", () => {
  test("the CSV becomes NeMo Gym's JSONL byte for byte (quotes, CRLF inside a field, an empty short answer, UTF-8)", async () => {
    const saved = process.env.NEMO_GYM_CACHE_DIR;
    process.env.NEMO_GYM_CACHE_DIR = join(dir, "cache-unit");
    try {
      const outputPath = join(dir, "imo_proofbench_benchmark.jsonl");
      const logs: string[] = [];
      const ctx = { outputPath, args: { source_url: `${source.url}/imobench/proofbench.csv` }, download: async () => "", writeRows: async () => {}, log: (l: string) => logs.push(l) };
      expect(await prepare(ctx)).toBe(outputPath);
      expect(readFileSync(outputPath, "utf8")).toBe(readFileSync(join(fixtures, "imo_proofbench.jsonl"), "utf8"));
      expect(logs.at(-1)).toBe(`Wrote 2 problems to ${outputPath}`);
      const bad = { ...ctx, outputPath: join(dir, "bad.jsonl"), args: { source_url: `${source.url}/missing.csv` } };
      await expect(prepare(bad)).rejects.toThrow("HTTP 404");
      expect(existsSync(bad.outputPath)).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.NEMO_GYM_CACHE_DIR;
      else process.env.NEMO_GYM_CACHE_DIR = saved;
    }
  });
});

describe("imo_proofbench on the binary", () => {
  test("gym eval prepare --benchmark imo_proofbench writes the rows; offline it names the URL", async () => {
    const cwd = mkdtempSync(join(dir, "prep-"));
    const url = `+prepare_script_args={source_url: "${source.url}/imobench/proofbench.csv"}`;
    const offline = await gym(["eval", "prepare", "--benchmark", "imo_proofbench", url], { cwd, env: { NEMO_GYM_CACHE_DIR: join(cwd, "cache"), GYM_OFFLINE: "1" } });
    expect([offline.code, offline.stderr]).toEqual([1, expect.stringContaining(`${source.url}/imobench/proofbench.csv`)]);
    const r = await gym(["eval", "prepare", "--benchmark", "imo_proofbench", url], { cwd, env: { NEMO_GYM_CACHE_DIR: join(cwd, "cache") } });
    expect(r.stderr).not.toContain("Error");
    expect(readFileSync(join(cwd, "benchmarks/imo_proofbench/data/imo_proofbench_benchmark.jsonl"), "utf8")).toBe(readFileSync(join(fixtures, "imo_proofbench.jsonl"), "utf8"));
  }, 60_000);

  test("gym eval reverify --benchmark imo_proofbench re-scores the published rollouts exactly (every field and key order), the judge replayed", async () => {
    const published = readJsonlFile<Row>(server, "data/example_rollouts.jsonl");
    const tasks = readJsonlFile<Row>(server, "data/example.jsonl");
    const used = new Set<Row>();
    lookup = (_path, body) => {
      const prompt = promptOfRequest(body);
      const hit = published.find((r) => !used.has(r) && r.extracted_answer && prompt.includes(`**PROPOSED SOLUTION**\n${r.extracted_answer}`) && prompt.includes(r.problem));
      if (hit) used.add(hit);
      return hit && textCompletion(hit.judge_output);
    };
    const cwd = mkdtempSync(join(dir, "reverify-"));
    const agent = { type: "responses_api_agents", name: "imo_proofbench_imo_proofbench_judge_simple_agent" };
    writeFileSync(join(cwd, "inputs.jsonl"), published.map((r) => JSON.stringify({ ...Object.fromEntries(Object.keys(tasks[0]!).filter((k) => k !== "agent_ref").map((k) => [k, k in r ? r[k] : tasks[r._ng_task_index]![k]])), _ng_task_index: r._ng_task_index, _ng_rollout_index: r._ng_rollout_index, agent_ref: agent })).join("\n") + "\n");
    writeFileSync(join(cwd, "rollouts.jsonl"), published.map((r) => JSON.stringify({ ...r, agent_ref: agent })).join("\n") + "\n");
    const r = await gym(["eval", "reverify", "--force", "--benchmark", "imo_proofbench", "--inputs", "inputs.jsonl", "--rollouts", "rollouts.jsonl", "-o", "re.jsonl",
      `+judge_base_url=${judge.url}/v1`, "+judge_api_key=sk-replay", "+judge_model_name=replayed-judge"], { cwd });
    expect({ code: r.code, stderr: r.code === 0 ? "" : r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(used.size).toBe(3);
    const got = new Map(lines(join(cwd, "unsafe_re.jsonl")).map((row) => [`${row._ng_task_index}/${row._ng_rollout_index}`, row]));
    expect(published.map((p) => differingKeys(got.get(`${p._ng_task_index}/${p._ng_rollout_index}`)!, p))).toEqual([[], [], [], [], []]);
  }, 120_000);

  test("gym eval run --benchmark imo_proofbench on replay_model (NeMo Gym's published answers) with the judge replayed: the published rewards and verdicts", async () => {
    const published = readJsonlFile<Row>(server, "data/example_rollouts.jsonl");
    const used = new Set<Row>();
    lookup = (_path, body) => {
      const prompt = promptOfRequest(body);
      const hit = published.find((r) => !used.has(r) && r.extracted_answer && prompt.includes(`**PROPOSED SOLUTION**\n${r.extracted_answer}`) && prompt.includes(r.problem));
      if (hit) used.add(hit);
      return hit && textCompletion(hit.judge_output);
    };
    const cwd = mkdtempSync(join(dir, "run-"));
    // The example tasks as prepare writes them (no prompt, no agent_ref): the benchmark's prompt config builds the prompt.
    const keys = ["problem_id", "problem", "reference_solution", "rubric", "category", "level", "expected_answer", "source"];
    const tasks = readJsonlFile<Row>(server, "data/example.jsonl").map((row) => JSON.stringify(Object.fromEntries(keys.map((k) => [k, row[k]]))));
    writeFileSync(join(cwd, "tasks.jsonl"), `${tasks.join("\n")}\n`);
    const r = await gym([
      "eval", "run", "--benchmark", "imo_proofbench", "--model-type", "replay_model", "--input", "tasks.jsonl", "--prompt-config", "benchmarks/imo_proofbench/prompts/default.yaml", "-o", "r/imo.jsonl",
      "+policy_model.responses_api_models.replay_model.rollouts_jsonl_fpath=resources_servers/imo_proofbench_judge/data/example_rollouts.jsonl",
      `+judge_base_url=${judge.url}/v1`, "+judge_api_key=sk-replay", "+judge_model_name=replayed-judge",
    ], { cwd });
    expect({ code: r.code, stderr: r.code === 0 ? "" : r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(r.stderr).toContain("Coverage: 5 of 5 rollouts scored");
    expect(used.size).toBe(3);
    const fields = ["reward", "extracted_answer", "judge_output", "judge_points", "judge_correct", "symbolic_correct", "any_correct", "no_judge_score"];
    const got = new Map(lines(join(cwd, "r/imo.jsonl")).map((row) => [row.problem_id, fields.map((f) => row[f])]));
    expect(published.map((p) => got.get(p.problem_id))).toEqual(published.map((p) => fields.map((f) => p[f])));
    const metrics = JSON.parse(readFileSync(join(cwd, "r/imo_aggregate_metrics.json"), "utf8"))[0];
    expect([metrics.agent_metrics["pass@1[avg-of-1]/judge_score_1"], metrics.agent_metrics["Algebra/pass@1[avg-of-1]/any_correct"]]).toEqual([20, 0]);
  }, 120_000);
});
