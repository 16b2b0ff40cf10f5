import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym } from "../../../testing/binary.ts";
import { fullResponse, post, promptKey, readJsonFile, readJsonlFile } from "../_common/testing.ts";
import createServer from "./index.ts";

const dir = import.meta.dir;
type Row = Record<string, any>;
const rows = readJsonlFile<Row>(dir, "data/example.jsonl");
const rollouts = readJsonlFile<Row>(dir, "data/example_rollouts.jsonl");
const taskOf = (rollout: Row) => rows.find((r) => promptKey(r.responses_create_params) === promptKey(rollout.responses_create_params))!;
const work = mkdtempSync(join(tmpdir(), "gym-swerl-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const reply = (text: string) => fullResponse({ output: [{ type: "reasoning", summary: [] }, { type: "message", content: [{ type: "output_text", text }] }] });

describe("swerl_llm_judge: the choice", () => {
  test("600 cases labelled by NeMo Gym's own functions (scripts/swerl-llm-judge-golden.py): reward, expected and extracted answers", async () => {
    const cases = readJsonFile<Row[]>(dir, "data/golden.json");
    expect(cases.length).toBe(600);
    const app = createServer();
    const wrong: unknown[] = [];
    for (const c of cases) {
      const got = await post(app, "/verify", { responses_create_params: { input: [] }, response: reply(c.text), options: c.options, expected_answer: c.expected_answer, grading_mode: c.grading_mode });
      const picked = { reward: got.body.reward, expected_answer: got.body.expected_answer, extracted_answer: got.body.extracted_answer };
      if (JSON.stringify(picked) !== JSON.stringify(c.out)) wrong.push([c, picked]);
    }
    expect(wrong).toEqual([]);
  });
  test("NeMo Gym's fields; a grading mode other than lenient / strict is a 422", async () => {
    const got = await post(createServer(), "/verify", { ...rows[0]!, response: reply("<solution>A</solution>") });
    expect(Object.keys(got.body)).toEqual(["responses_create_params", "response", "reward", "expected_answer", "extracted_answer"]);
    const bad = await post(createServer(), "/verify", { ...rows[0]!, grading_mode: "exact", response: reply("x") });
    expect([bad.status, bad.body.detail[0].loc]).toEqual([422, ["body", "grading_mode"]]);
  });
});

describe("swerl_llm_judge: NeMo Gym's published rollouts", () => {
  test("5 of 5 through /verify (options joined from example.jsonl by prompt)", async () => {
    const app = createServer();
    for (const rollout of rollouts) {
      const got = await post(app, "/verify", { ...taskOf(rollout), response: rollout.response });
      expect([got.status, got.body.reward, got.body.expected_answer, got.body.extracted_answer]).toEqual([200, rollout.reward, rollout.expected_answer, rollout.extracted_answer]);
    }
  });
  test("gym eval reverify on the binary re-scores them exactly (reverify mode unknown: --force)", async () => {
    const stamps = (i: number) => ({ _ng_task_index: i, _ng_rollout_index: 0, agent_ref: { name: "swerl_llm_judge_simple_agent" } });
    writeFileSync(join(work, "inputs.jsonl"), `${rollouts.map((r, i) => JSON.stringify({ ...taskOf(r), ...stamps(i) })).join("\n")}\n`);
    writeFileSync(join(work, "rollouts.jsonl"), `${rollouts.map((r, i) => JSON.stringify({ ...r, ...stamps(i) })).join("\n")}\n`);
    const r = await gym(["eval", "reverify", "--resources-server", "swerl_llm_judge", "--inputs", join(work, "inputs.jsonl"), "--rollouts", join(work, "rollouts.jsonl"), "-o", join(work, "reverified.jsonl"), "--force"]);
    expect({ code: r.code, stderr: r.code === 0 ? "" : r.stderr }).toEqual({ code: 0, stderr: "" });
    const got = readFileSync(join(work, "unsafe_reverified.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const key = (row: Row) => JSON.stringify([row._ng_task_index, row.reward, row.expected_answer, row.extracted_answer]);
    expect(got.map(key).sort()).toEqual(rollouts.map((row, i) => key({ ...row, _ng_task_index: i })).sort());
  }, 120_000);
  test("gym eval run on the binary with replay_model: the published rewards end to end", async () => {
    const r = await gym(["eval", "run", "--resources-server", "swerl_llm_judge", "--model-type", "replay_model", "+policy_model.responses_api_models.replay_model.rollouts_jsonl_fpath=resources_servers/swerl_llm_judge/data/example_rollouts.jsonl", "--split", "example", "-o", join(work, "run.jsonl")], { cwd: work });
    expect(r.stderr).toContain("Coverage: 5 of 5 rollouts scored (5 succeeded)");
    const got = readFileSync(join(work, "run.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const published = new Map(rollouts.map((row) => [promptKey(row.responses_create_params), row.reward]));
    expect(got.map((row) => row.reward)).toEqual(got.map((row) => published.get(promptKey(row.responses_create_params))));
  }, 120_000);
});
