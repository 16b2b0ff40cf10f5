// longmemeval (benchmark): prepare against the 127.0.0.1 Hub stand-in (byte for byte what NeMo Gym's prepare writes),
// `gym eval reverify --benchmark longmemeval` of NeMo Gym's published rollouts with the judge replaying their stored
// `judge_raw` over HTTP, and `gym eval prepare` + `gym eval run --benchmark longmemeval` on the mock model.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, type ServedApp } from "../../../runtime/serve.ts";
import { ensureBinary, gym } from "../../../testing/binary.ts";
import { type HubServer, startHubServer } from "../../../testing/hub-server.ts";
import { readJsonlFile } from "../../resources_servers/_common/testing.ts";
import { differingKeys } from "../../resources_servers/_judge/parity.ts";
import { promptOfRequest, replayJudgeApp, textResponse, type JudgeLookup } from "../../resources_servers/_judge/replay.ts";
import { HF_REPO_ID, historyString, longmemevalRow, prepare, rowsLosingEvidence } from "./prepare.ts";

type Row = Record<string, any>;
const fixtures = join(import.meta.dir, "..", "..", "..", "..", "fixtures", "judge_prepare");
const server = join(import.meta.dir, "..", "..", "resources_servers", "longmemeval");
const oracle = readFileSync(join(fixtures, "longmemeval_oracle.json"), "utf8");
const lines = (path: string) => readFileSync(path, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Row);
let dir: string;
let hub: HubServer;
let judge: ServedApp;
let lookup: JudgeLookup = () => undefined;
const saved = { ...process.env };

beforeAll(async () => {
  await ensureBinary();
  dir = mkdtempSync(join(tmpdir(), "gym-longmemeval-"));
  hub = await startHubServer();
  process.env.HF_ENDPOINT = hub.url;
  process.env.NEMO_GYM_CACHE_DIR = join(dir, "cache");
  for (const k of ["HF_HUB_OFFLINE", "GYM_OFFLINE", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"]) delete process.env[k];
  hub.addFile(HF_REPO_ID, "longmemeval_oracle.json", oracle);
  judge = await serve(replayJudgeApp((path, body) => lookup(path, body)).fetch);
}, 120_000);
afterAll(async () => {
  await judge?.stop();
  await hub?.close();
  process.env = saved;
  rmSync(dir, { recursive: true, force: true });
});

const judgeArgs = () => [`+judge_base_url=${judge.url}/v1`, "+judge_api_key=sk-replay", "+judge_model_name=replayed-judge"];

describe("longmemeval prepare", () => {
  test("the oracle split becomes NeMo Gym's JSONL byte for byte (sessions date-sorted, has_answer dropped, ASCII-escaped history, str(answer or ''))", async () => {
    const outputPath = join(dir, "longmemeval_benchmark.jsonl");
    const logs: string[] = [];
    expect(await prepare({ outputPath, args: {}, download: async () => "", writeRows: async () => {}, log: (l) => logs.push(l) })).toBe(outputPath);
    expect(readFileSync(outputPath, "utf8")).toBe(readFileSync(join(fixtures, "longmemeval.jsonl"), "utf8"));
    expect(logs.at(-1)).toBe(`LongMemEval: wrote 4 rows -> ${outputPath}`);
  });
  test("topk keeps the last sessions in dataset order before sorting; a lost evidence session is counted", () => {
    const entry = { haystack_dates: ["3", "1", "2"], haystack_sessions: [["c"], ["a"], ["b"]], haystack_session_ids: ["x", "y", "z"], answer_session_ids: ["x"] };
    expect(historyString(entry, 2)).toBe('\n### Session 1:\nSession Date: 1\nSession Content:\n\n["a"]\n\n### Session 2:\nSession Date: 2\nSession Content:\n\n["b"]\n');
    expect([rowsLosingEvidence([entry], 2), rowsLosingEvidence([entry], 3), rowsLosingEvidence([entry], 0)]).toEqual([1, 0, 0]);
    expect((longmemevalRow({ question_id: "7_abs", answer: 2.5 }).verifier_metadata as Row)).toMatchObject({ abstention: true, answer: "2.5", question_id: "7_abs" });
  });
  test("an unknown split is refused naming the choices; nothing is written", async () => {
    const outputPath = join(dir, "bad.jsonl");
    await expect(prepare({ outputPath, args: { split: "xl" }, download: async () => "", writeRows: async () => {}, log: () => {} })).rejects.toThrow("unknown split 'xl'");
    expect(existsSync(outputPath)).toBe(false);
  });
});

describe("longmemeval on the binary", () => {
  test("gym eval reverify --benchmark longmemeval re-scores the published rollouts: every value equal (key order pinned as in the server's test)", async () => {
    const tasks = readJsonlFile<Row>(server, "data/example.jsonl");
    const published = readJsonlFile<Row>(server, "data/example_rollouts.jsonl");
    const used = new Set<Row>();
    lookup = (_path, body) => {
      const prompt = promptOfRequest(body);
      const hit = published.find((r) => !used.has(r) && prompt.includes(`Question: ${r.verifier_metadata.question}\n\n`) && prompt.includes(`Model Response: ${r.generation}`));
      if (hit) used.add(hit);
      return hit && textResponse(hit.judge_raw);
    };
    const agent = { type: "responses_api_agents", name: "longmemeval_benchmark_simple_agent" };
    const inputs = join(dir, "inputs.jsonl");
    writeFileSync(inputs, published.map((r) => JSON.stringify({ ...tasks[r._ng_task_index], _ng_task_index: r._ng_task_index, _ng_rollout_index: r._ng_rollout_index, agent_ref: agent })).join("\n") + "\n");
    const rollouts = join(dir, "published.jsonl");
    writeFileSync(rollouts, published.map((r) => JSON.stringify({ ...r, agent_ref: agent })).join("\n") + "\n");
    const out = join(dir, "reverified.jsonl");
    const r = await gym(["eval", "reverify", "--force", "--benchmark", "longmemeval", "--inputs", inputs, "--rollouts", rollouts, "-o", out, ...judgeArgs()], { cwd: dir });
    expect({ code: r.code, stderr: r.code === 0 ? "" : r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(used.size).toBe(5);
    const got = new Map(lines(join(dir, "unsafe_reverified.jsonl")).map((row) => [`${row._ng_task_index}/${row._ng_rollout_index}`, row]));
    const keyOrder = ["(key order)"];
    expect(published.map((p) => differingKeys(got.get(`${p._ng_task_index}/${p._ng_rollout_index}`)!, p))).toEqual([keyOrder, keyOrder, keyOrder, keyOrder, keyOrder]);
  }, 120_000);

  test("gym eval prepare --benchmark longmemeval, then eval run on the mock model with a judge that says yes: headline accuracy and buckets", async () => {
    const cwd = mkdtempSync(join(dir, "run-"));
    const env = { HF_ENDPOINT: hub.url, NEMO_GYM_CACHE_DIR: join(cwd, "cache") };
    const prepared = await gym(["eval", "prepare", "--benchmark", "longmemeval"], { cwd, env });
    expect(prepared.stderr).not.toContain("Error");
    expect(readFileSync(join(cwd, "benchmarks/longmemeval/data/longmemeval_benchmark.jsonl"), "utf8")).toBe(readFileSync(join(fixtures, "longmemeval.jsonl"), "utf8"));
    lookup = (_path, body) => textResponse(promptOfRequest(body).includes("Question: Count?") ? "No." : "yes");
    const run = await gym(["eval", "run", "--benchmark", "longmemeval", "--model-type", "mock_model", "-o", "r/lme.jsonl", ...judgeArgs()], { cwd, env: { ...env, GYM_OFFLINE: "1" } });
    expect(run.stderr).not.toContain("Error");
    expect(run.code).toBe(0);
    const rows = lines(join(cwd, "r/lme.jsonl"));
    expect(rows).toHaveLength(4);
    // The judge says no to q-3 (knowledge-update) only.
    expect(rows.map((row) => [row.verifier_metadata.question_id, row.reward, row.judge_error]).sort()).toEqual([["q-1", 1, null], ["q-2_abs", 1, null], ["q-3", 0, null], ["q-4", 1, null]]);
    const metrics = JSON.parse(readFileSync(join(cwd, "r/lme_aggregate_metrics.json"), "utf8"))[0].agent_metrics;
    expect([metrics.accuracy, metrics.count, metrics["abstention/accuracy"], metrics["question_type/knowledge-update/accuracy"], metrics["question_type/multi-session/accuracy"]]).toEqual([0.75, 4, 1, 0, 1]);
  }, 180_000);
});
