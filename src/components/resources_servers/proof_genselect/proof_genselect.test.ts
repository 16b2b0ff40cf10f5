import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reverifyPublished } from "../../../testing/published-rollouts.ts";
import { fullResponse, post, readJsonFile, readJsonlFile } from "../_common/testing.ts";
import createGenSelect, { extractBestSolution } from "./index.ts";

const dir = import.meta.dir;
type Case = { args: any[]; expected: any };
const golden = readJsonFile<Record<string, Case[]>>(join(dir, "..", "..", "..", ".."), "fixtures/qa/golden.json");
const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
const inputs = new Map(readJsonlFile(dir, "data/example_rollouts_materialized_inputs.jsonl").map((r) => [r._ng_task_index, r]));
const published = JSON.parse(readFileSync(join(dir, "data/example_rollouts_aggregate_metrics.json"), "utf8"));
const joined = rollouts.map((r) => ({ ...inputs.get(r._ng_task_index), ...r }));
const work = mkdtempSync(join(tmpdir(), "gym-genselect-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const reply = (text: string) => fullResponse({ output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text }] }] });
const row = { responses_create_params: { input: "q" }, problem: "P", proof_1: "a", proof_2: "b", correct_index: 2 };

describe("proof_genselect: the choice (labelled by NeMo Gym's own extract_best_solution, scripts/qa-golden.py)", () => {
  test("28 replies, with and without assert_think_end", () => {
    for (const { args, expected } of golden["proof_genselect.extract"]!) expect([args, extractBestSolution(args[0], args[1])]).toEqual([args, expected]);
  });
  test("the response is BaseVerifyResponse (the request's fields dropped); PROOF_GENSELECT_LOG_JSONL_PATH appends each verdict", async () => {
    const log = join(work, "verdicts.jsonl");
    process.env.PROOF_GENSELECT_LOG_JSONL_PATH = log;
    try {
      const r = await post(createGenSelect(), "/verify", { ...row, response: reply("<best_solution>2</best_solution>") });
      expect(Object.keys(r.body)).toEqual(["responses_create_params", "response", "reward"]);
      expect(r.body.reward).toBe(1);
      await post(createGenSelect({ assert_think_end: true }), "/verify", { ...row, response: reply("<best_solution>2</best_solution>") });
    } finally {
      delete process.env.PROOF_GENSELECT_LOG_JSONL_PATH;
    }
    const lines = readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.map(({ ts: _, ...rest }) => rest)).toEqual([
      { problem: "P", generated_sequence: "<best_solution>2</best_solution>", reward: 1, selected_index: 2, correct_index: 2 },
      { problem: "P", generated_sequence: "<best_solution>2</best_solution>", reward: 0, selected_index: null, correct_index: 2, reason: "missing_think_end" },
    ]);
    expect(lines[0].ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
    expect(readFileSync(log, "utf8")).toContain('"reward": 1.0, "selected_index": 2');
  });
});

describe("proof_genselect: NeMo Gym's published rollouts", () => {
  test("5 of 5 through /verify (joined with NeMo Gym's materialized inputs)", async () => {
    const app = createGenSelect();
    for (const rollout of joined) {
      const r = await post(app, "/verify", Object.fromEntries(Object.entries(rollout).filter(([k]) => k !== "reward")));
      expect(r.status).toBe(200);
      expect(r.body.reward).toBe(rollout.reward);
    }
    expect(joined).toHaveLength(5);
  });
  test("gym eval reverify on the binary: rewards and NeMo Gym's published agent and key metrics", async () => {
    const r = await reverifyPublished("proof_genselect", joined, ["reward"], { force: true });
    expect(r.code).toBe(0);
    expect(r.rows.map((row) => [row._ng_task_index, row.reward])).toEqual(joined.map((row) => [row._ng_task_index, row.reward]).sort((a, b) => (a[0] as number) - (b[0] as number)));
    const [ours] = r.metrics as any[];
    expect(ours.agent_metrics).toEqual(published[0].agent_metrics);
    expect(ours.key_metrics).toEqual(published[0].key_metrics);
  }, 120_000);
});
