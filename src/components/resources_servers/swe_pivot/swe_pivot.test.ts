import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym } from "../../../testing/binary.ts";
import { fullResponse, post, readJsonFile, readJsonlFile } from "../_common/testing.ts";
import createServer from "./index.ts";
import { toolCategory } from "./tools.ts";

const dir = import.meta.dir;
type Row = Record<string, any>;
const rows = readJsonlFile<Row>(dir, "data/example.jsonl");
const rollouts = readJsonlFile<Row>(dir, "data/example_rollouts.jsonl");
const taskOf = (rollout: Row) => rows.find((r) => r.uuid === rollout.uuid)!;
const OUTPUTS = ["reward", "model_output", "tool_name_match", "target_match", "similarity_score", "diff_size_penalty", "failure_reason"];
const work = mkdtempSync(join(tmpdir(), "gym-swe-pivot-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("swe_pivot: the layers", () => {
  test("400 cases labelled by NeMo Gym's app.py (scripts/swe-pivot-golden.py): reward and every verdict field", async () => {
    const cases = readJsonFile<Row[]>(dir, "data/golden.json");
    expect(cases.length).toBe(400);
    const wrong: unknown[] = [];
    for (const c of cases) {
      const app = createServer(c.config);
      const got = await post(app, "/verify", { ...c.row, responses_create_params: { input: [] }, response: fullResponse({ output: c.output.map((o: Row) => (o.type === "message" ? { ...o, content: [{ type: "output_text", text: "x" }] } : o)) }) });
      const picked = Object.fromEntries(Object.keys(c.out).map((k) => [k, got.body[k]]));
      if (JSON.stringify(picked) !== JSON.stringify(c.out)) wrong.push([c.row, c.output, c.config.reward_mode, c.out, picked]);
    }
    expect(wrong).toEqual([]);
  });
  test("tool categories: names and their CamelCase forms, case-insensitive; unknown otherwise", () => {
    expect(["StrReplaceEditor", "str_replace_editor", "EXECUTE_BASH", "ListDir", "todo_write", "foo"].map(toolCategory)).toEqual(["edit", "edit", "bash", "search", "planning", "unknown"]);
  });
  test("NeMo Gym's response fields, in order", async () => {
    const got = await post(createServer(), "/verify", { ...rows[0]!, response: fullResponse({ output: [{ type: "function_call", name: "execute_bash", arguments: '{"command": "ls"}' }] }) });
    expect(Object.keys(got.body)).toEqual(["responses_create_params", "response", "reward", "uuid", "expected_answer", "model_output", "tool_name_match", "target_match", "similarity_score", "diff_size_penalty", "failure_reason", "metadata"]);
  });
});

describe("swe_pivot: NeMo Gym's published rollouts", () => {
  // The rows' expected_action is not in NeMo Gym's response model: each rollout is joined with its task by uuid.
  test("5 of 5 through /verify, every verdict field", async () => {
    const app = createServer();
    for (const rollout of rollouts) {
      const got = await post(app, "/verify", { ...taskOf(rollout), response: rollout.response });
      expect(got.status).toBe(200);
      for (const key of OUTPUTS) expect([key, got.body[key]]).toEqual([key, rollout[key]]);
    }
  });
  test("gym eval reverify on the binary re-scores them exactly (reverify mode unknown: --force)", async () => {
    const inputs = rollouts.map((r) => JSON.stringify({ ...taskOf(r), _ng_task_index: r._ng_task_index, _ng_rollout_index: r._ng_rollout_index, agent_ref: r.agent_ref }));
    writeFileSync(join(work, "inputs.jsonl"), `${inputs.join("\n")}\n`);
    writeFileSync(join(work, "rollouts.jsonl"), `${rollouts.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const r = await gym(["eval", "reverify", "--resources-server", "swe_pivot", "--inputs", join(work, "inputs.jsonl"), "--rollouts", join(work, "rollouts.jsonl"), "-o", join(work, "reverified.jsonl"), "--force"]);
    expect({ code: r.code, stderr: r.code === 0 ? "" : r.stderr }).toEqual({ code: 0, stderr: "" });
    const got = readFileSync(join(work, "unsafe_reverified.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const key = (row: Row) => JSON.stringify([row._ng_task_index, ...OUTPUTS.map((k) => row[k])]);
    expect(got.map(key).sort()).toEqual(rollouts.map(key).sort());
  }, 120_000);
  test("gym eval run on the binary (its tool_simulation_agent config) with replay_model: the published verdicts end to end", async () => {
    const r = await gym(["eval", "run", "--resources-server", "swe_pivot", "--model-type", "replay_model", "+policy_model.responses_api_models.replay_model.rollouts_jsonl_fpath=resources_servers/swe_pivot/data/example_rollouts.jsonl", "--split", "example", "-o", join(work, "run.jsonl")], { cwd: work });
    expect(r.stderr).toContain("Coverage: 5 of 5 rollouts scored (5 succeeded)");
    const got = readFileSync(join(work, "run.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(got.map((row) => [row.uuid, row.failure_reason, row.reward]).sort()).toEqual(rollouts.map((row) => [row.uuid, row.failure_reason, row.reward]).sort());
  }, 120_000);
});
