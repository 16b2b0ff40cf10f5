/**
 * The CLI reference's math examples on the compiled binary: `gym eval prepare/run --benchmark aime24` (the Hub
 * and the model stood in for on 127.0.0.1) and the two-terminal `gym env start --resources-server math_with_judge`.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, gym, gymBinary } from "../../../testing/binary.ts";
import { type HubServer, startHubServer } from "../../../testing/hub-server.ts";
import { parquetBytes } from "../../../testing/parquet.ts";

const PROBLEMS = [
  { id: 60, problem: "Find the number of ways alpha.", answer: "204", solution: "s", url: "u" },
  { id: 61, problem: "Compute the value beta.", answer: "25", solution: "s", url: "u" },
  { id: 62, problem: "Let gamma be a prime.", answer: "113", solution: "s", url: "u" },
];
// The model answers the first right, the second as an equivalent fraction, the third wrong.
const ANSWERS: Record<string, string> = { alpha: "204", beta: "\\frac{50}{2}", gamma: "131" };

let dir: string;
let hub: HubServer;
let model: ReturnType<typeof Bun.serve>;
const lines = (path: string) => readFileSync(path, "utf8").trimEnd().split("\n").filter(Boolean).map((l) => JSON.parse(l));

beforeAll(async () => {
  await ensureBinary();
  dir = mkdtempSync(join(tmpdir(), "gym-math-e2e-"));
  hub = await startHubServer();
  hub.addFile("HuggingFaceH4/aime_2024", "default/train/0000.parquet", parquetBytes(PROBLEMS), { revision: "refs/convert/parquet" });
  model = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      if (new URL(req.url).pathname.endsWith("/models")) return Response.json({ object: "list", data: [{ id: "mock", object: "model" }] });
      const body = (await req.json()) as { input: unknown; model?: string };
      const text = JSON.stringify(body.input);
      const key = Object.keys(ANSWERS).find((k) => text.includes(k));
      const answer = key ? ANSWERS[key] : "0";
      return Response.json({
        id: "resp_1", object: "response", created_at: 1, model: body.model ?? "mock", status: "completed",
        output: [{ id: "msg_1", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: `So the answer is $\\boxed{${answer}}$.`, annotations: [] }] }],
        parallel_tool_calls: true, tool_choice: "auto", tools: [], error: null, incomplete_details: null, instructions: null, metadata: {}, temperature: null, top_p: null,
      });
    },
  });
}, 120_000);

let servers: ChildProcess | undefined;
afterAll(async () => {
  if (servers && servers.exitCode === null) servers.kill("SIGKILL");
  model?.stop(true);
  await hub?.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ HF_ENDPOINT: hub.url, NEMO_GYM_CACHE_DIR: join(dir, "cache") });

describe("gym eval --benchmark aime24 (binary)", () => {
  test("prepare writes NeMo Gym's JSONL from the Hub's Parquet; run scores it with math_with_judge", async () => {
    const prep = await gym(["eval", "prepare", "--benchmark", "aime24"], { cwd: dir, env: env() });
    expect(prep.stderr).not.toContain("Error");
    expect(prep.code).toBe(0);
    expect(readFileSync(join(dir, "benchmarks", "aime24", "data", "aime24_benchmark.jsonl"), "utf8")).toBe(
      PROBLEMS.map((p) => `{"question": "${p.problem}", "expected_answer": "${p.answer}"}\n`).join(""),
    );
    const r = await gym(
      ["eval", "run", "--benchmark", "aime24", "--model-type", "openai_model", "--model", "mock", "--model-url", `${model.url.origin}/v1`, "--model-api-key", "sk-test", "--num-repeats", "2", "-o", "results/aime24.jsonl"],
      { cwd: dir, env: env() },
    );
    expect(r.stderr).toContain("Coverage: 6 of 6 rollouts scored");
    expect(r.code).toBe(0);
    const rows = lines(join(dir, "results", "aime24.jsonl"));
    const byAnswer = new Map(rows.map((row) => [row.expected_answer, row]));
    expect(byAnswer.get("204")).toMatchObject({ reward: 1, extracted_answer: "204", library_reward: 1, judge_evaluations: null });
    expect(byAnswer.get("25")).toMatchObject({ reward: 1, extracted_answer: "25" });
    expect(byAnswer.get("113")).toMatchObject({ reward: 0, extracted_answer: "131", library_reward: 0 });
    expect(Object.keys(rows[0]!).slice(0, 7)).toEqual(["responses_create_params", "response", "reward", "expected_answer", "extracted_answer", "library_reward", "judge_evaluations"]);
    const metrics = JSON.parse(readFileSync(join(dir, "results", "aime24_aggregate_metrics.json"), "utf8"));
    expect(JSON.stringify(metrics)).toContain("majority@2");
  }, 120_000);

  test("offline, prepare refuses naming the URL and how to pre-fetch", async () => {
    const r = await gym(["eval", "prepare", "--benchmark", "aime24"], { cwd: mkdtempSync(join(dir, "off-")), env: { ...env(), NEMO_GYM_CACHE_DIR: join(dir, "empty"), HF_HUB_OFFLINE: "1" } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("/datasets/HuggingFaceH4/aime_2024/resolve/refs%2Fconvert%2Fparquet/default/train/0000.parquet");
    expect(r.stderr).toContain("prefetch");
  }, 60_000);
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

test("the CLI reference's two-terminal math_with_judge example: env start, then eval run --no-serve --split validation", async () => {
  const cwd = mkdtempSync(join(dir, "two-terminal-"));
  const data = join(cwd, "resources_servers", "math_with_judge", "data");
  mkdirSync(data, { recursive: true });
  const task = (q: string, a: string) => JSON.stringify({ responses_create_params: { input: [{ role: "user", content: q }] }, question: q, expected_answer: a });
  writeFileSync(join(data, "OpenMathReasoning_aime24_validation.jsonl"), `${task("Find alpha.", "204")}\n${task("Find beta.", "26")}\n`);
  const head = `+head_server.port=${await freePort()}`;
  servers = spawn(gymBinary, ["env", "start", "--resources-server", "math_with_judge", "--model-type", "openai_model", "--model", "openai/gpt-oss-120b", "--model-url", `${model.url.origin}/v1`, "--model-api-key", "dummy_key", "--json", head], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    let out = "";
    servers!.stdout!.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve();
    });
    servers!.on("exit", (code) => reject(new Error(`env start exited ${code}`)));
  });
  const r = await gym(["eval", "run", "--no-serve", head, "--resources-server", "math_with_judge", "--output", "results/test_001.jsonl", "--split", "validation", "--temperature", "1.0", "--top-p", "1.0"], { cwd });
  expect(r.stderr).toContain("Coverage: 2 of 2 rollouts scored");
  expect(r.code).toBe(0);
  const rows = lines(join(cwd, "results", "test_001.jsonl"));
  expect(rows.map((row) => [row.expected_answer, row.reward, row.extracted_answer]).sort()).toEqual([["204", 1, "204"], ["26", 0, "25"]]);
  expect(rows[0].responses_create_params.temperature).toBe(1);
  servers.kill("SIGTERM");
  expect(await new Promise((resolve) => servers!.on("exit", resolve))).toBe(0);
}, 120_000);
