import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { serve, type ServedApp } from "../../../runtime/serve.ts";
import { gym } from "../../../testing/binary.ts";

// Three rows in google-research's input_data.jsonl format.
const INPUT = [
  { key: 1000, prompt: "Write a haiku about rain. Do not use any commas.", instruction_id_list: ["punctuation:no_comma"], kwargs: [{}] },
  {
    key: 1001,
    prompt: "Describe Paris in at least 12 words, with a title in double angular brackets.",
    instruction_id_list: ["length_constraints:number_words", "detectable_format:title"],
    kwargs: [{ num_words: 12, relation: "at least" }, {}],
  },
  { key: 1002, prompt: "Answer in lowercase only: what is the capital of France?", instruction_id_list: ["change_case:english_lowercase"], kwargs: [{}] },
];
// The mock model's answer to each prompt: the first follows, the second misses its title, the third is loose-only.
const ANSWERS: Record<number, string> = {
  1000: "Soft rain on the roof\nwhispers to the sleeping town\npuddles hold the sky",
  1001: "Paris is the capital of France, a city of art, food, light and long walks by the river.",
  1002: "Sure! Here is my answer:\nthe capital of france is paris.",
};

function responseBody(text: string) {
  return {
    id: "resp_mock",
    created_at: 0,
    model: "mock",
    object: "response",
    output: [{ id: "msg_mock", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }],
    parallel_tool_calls: false,
    tool_choice: "auto",
    tools: [],
    status: "completed",
    usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 20 },
  };
}

describe("gym eval prepare / run --benchmark ifeval (raw file and mock model on loopback, compiled binary)", () => {
  let files: ServedApp;
  let model: ServedApp;
  beforeAll(async () => {
    const raw = new Hono();
    raw.get("/google-research/input_data.jsonl", (c) => c.text(INPUT.map((r) => JSON.stringify(r)).join("\n") + "\n"));
    files = await serve(raw.fetch, { host: "127.0.0.1", port: 0 });
    const mock = new Hono();
    mock.post("/v1/responses", async (c) => {
      const body = (await c.req.json()) as { input: { content: string }[] };
      const prompt = JSON.stringify(body.input);
      const row = INPUT.find((r) => prompt.includes(r.prompt.slice(0, 30)));
      return c.json(responseBody(row ? ANSWERS[row.key]! : "no idea"));
    });
    model = await serve(mock.fetch, { host: "127.0.0.1", port: 0 });
  });
  afterAll(() => {
    files.stop();
    model.stop();
  });

  test("prepare writes NeMo Gym's rows; eval run scores strict and loose; metrics carry the four accuracies", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "gym-ifeval-"));
    const env = { NEMO_GYM_CACHE_DIR: join(cwd, "cache"), NO_PROGRESS: "1" };
    const prepared = await gym(["eval", "prepare", "--benchmark", "ifeval", `++prepare_script_args.url=${files.url}/google-research/input_data.jsonl`], { cwd, env });
    expect(prepared.stderr).not.toContain("Error");
    expect(prepared.code).toBe(0);
    const rows = readFileSync(join(cwd, "benchmarks/ifeval/data/ifeval_benchmark.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(rows.map((r) => r.id)).toEqual([0, 1, 2]);
    expect(rows[1]).toEqual({
      id: 1,
      responses_create_params: { input: [{ role: "user", content: INPUT[1]!.prompt }], tools: [], parallel_tool_calls: false },
      verifier_metadata: { prompt: INPUT[1]!.prompt, instruction_id_list: INPUT[1]!.instruction_id_list, kwargs: INPUT[1]!.kwargs, grading_mode: "binary" },
    });

    const run = await gym(["eval", "run", "--benchmark", "ifeval", "--model-type", "openai_model", "--model", "mock", "--model-url", `${model.url}/v1`, "--model-api-key", "k", "-o", "r/ifeval.jsonl"], { cwd, env });
    expect(run.stderr).not.toContain("Error");
    expect(run.code).toBe(0);
    const rollouts = readFileSync(join(cwd, "r/ifeval.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const byPrompt = new Map(rollouts.map((r) => [r.verifier_metadata.prompt, r]));
    const verdicts = INPUT.map((row) => {
      const r = byPrompt.get(row.prompt)!;
      return [r.reward, r.follow_instruction_list, r.reward_loose, r.follow_instruction_list_loose];
    });
    expect(verdicts).toEqual([
      [1, [true], 1, [true]],
      [0, [true, false], 0, [true, false]],
      [0, [false], 1, [true]],
    ]);
    const metricsFile = readdirSync(join(cwd, "r")).find((f) => f.endsWith("aggregate_metrics.json"))!;
    const metrics = readFileSync(join(cwd, "r", metricsFile), "utf8");
    for (const [key, value] of [["prompt_strict_accuracy", 1 / 3], ["instruction_strict_accuracy", 2 / 4], ["prompt_loose_accuracy", 2 / 3], ["instruction_loose_accuracy", 3 / 4]] as const) {
      expect(metrics).toContain(`"${key}": ${String(value)}`);
    }
  }, 120_000);
});
