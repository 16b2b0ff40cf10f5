import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { serve, type ServedApp } from "../../../runtime/serve.ts";
import { gym } from "../../../testing/binary.ts";

// Two rows in IFBench_test.jsonl's format (kwargs keep IFBench's null keys).
const INPUT = [
  { key: "a", prompt: "Name two numbers in one sentence.", instruction_id_list: ["count:numbers"], kwargs: [{ N: 2, keyword1: null }] },
  { key: "b", prompt: "Write without any whitespace at all.", instruction_id_list: ["format:no_whitespace"], kwargs: [{ N: null }] },
];

describe("gym eval prepare / run --benchmark ifbench (raw file and mock model on loopback, compiled binary)", () => {
  let files: ServedApp;
  let model: ServedApp;
  beforeAll(async () => {
    const raw = new Hono();
    raw.get("/allenai/IFBench_test.jsonl", (c) => c.text(INPUT.map((r) => JSON.stringify(r)).join("\n")));
    raw.get("/broken.jsonl", (c) => c.text(`${JSON.stringify(INPUT[0])}\n{"prompt": 7}\n`));
    files = await serve(raw.fetch, { host: "127.0.0.1", port: 0 });
    const mock = new Hono();
    mock.post("/v1/responses", async (c) => {
      const text = JSON.stringify(await c.req.json()).includes("two numbers") ? "I pick 3 and 4." : "no whitespace? sorry";
      return c.json({
        id: "resp_mock", created_at: 0, model: "mock", object: "response", status: "completed", parallel_tool_calls: false, tool_choice: "auto", tools: [],
        output: [{ id: "msg_mock", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }],
      });
    });
    model = await serve(mock.fetch, { host: "127.0.0.1", port: 0 });
  });
  afterAll(() => {
    files.stop();
    model.stop();
  });

  test("prepare writes NeMo Gym's rows; 5 repeats each; a bad source line is an error naming file, line and field", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "gym-ifbench-"));
    const env = { NEMO_GYM_CACHE_DIR: join(cwd, "cache"), NO_PROGRESS: "1" };
    const prepared = await gym(["eval", "prepare", "--benchmark", "ifbench", `++prepare_script_args.url=${files.url}/allenai/IFBench_test.jsonl`], { cwd, env });
    expect(prepared.code).toBe(0);
    const rows = readFileSync(join(cwd, "benchmarks/ifbench/data/ifbench_benchmark.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(rows[0]).toEqual({ id: 0, instruction_id_list: ["count:numbers"], prompt: INPUT[0]!.prompt, kwargs: INPUT[0]!.kwargs, grading_mode: "fraction" });

    const run = await gym(["eval", "run", "--benchmark", "ifbench", "--model-type", "openai_model", "--model", "mock", "--model-url", `${model.url}/v1`, "--model-api-key", "k", "-o", "r/ifbench.jsonl"], { cwd, env });
    expect(run.code).toBe(0);
    const rollouts = readFileSync(join(cwd, "r/ifbench.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(rollouts).toHaveLength(10);
    expect(rollouts.filter((r) => r.reward === 1).map((r) => r.prompt)).toEqual(Array(5).fill(INPUT[0]!.prompt));

    const other = mkdtempSync(join(tmpdir(), "gym-ifbench-bad-"));
    const bad = await gym(["eval", "prepare", "--benchmark", "ifbench", `++prepare_script_args.url=${files.url}/broken.jsonl`], { cwd: other, env });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("IFBench_test.jsonl:2: field 'instruction_id_list' should be a list");
  }, 120_000);
});
