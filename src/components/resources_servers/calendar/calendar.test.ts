import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym } from "../../../testing/binary.ts";
import { fullResponse, post, promptKey, readJsonFile, readJsonlFile } from "../_common/testing.ts";
import createCalendar from "./index.ts";
import { gradeCalendar, timeToMinutes } from "./grade.ts";

const dir = import.meta.dir;
const rows = readJsonlFile(dir, "data/example.jsonl");
const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
const stateOf = new Map(rows.map((r) => [promptKey(r.responses_create_params as any), r.exp_cal_state]));
const work = mkdtempSync(join(tmpdir(), "gym-calendar-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const reply = (text: string) => fullResponse({ output: [{ type: "message", content: [{ type: "output_text", text }] }] });

describe("calendar: the grade", () => {
  test("236 cases labelled by NeMo Gym's grade_assistant_response (scripts/calendar-golden.py): reward and reason", () => {
    const cases = readJsonFile<{ reply: string; state: Record<string, unknown>; label: [number, string] }[]>(dir, "data/golden.json");
    expect(cases.length).toBe(236);
    const wrong = cases.filter((c) => JSON.stringify(gradeCalendar(c.reply, c.state)) !== JSON.stringify(c.label));
    expect(wrong.map((c) => [c.reply.slice(0, 80), c.label])).toEqual([]);
  });
  test("times: 12-hour with and without minutes, noon and midnight, 24-hour", () => {
    expect([timeToMinutes("10am"), timeToMinutes("12pm"), timeToMinutes("12am"), timeToMinutes(" 2:15pm "), timeToMinutes("14:05")]).toEqual([600, 720, 0, 855, 845]);
    expect(() => timeToMinutes("noon")).toThrow();
  });
  test("an empty reply or only reasoning scores 0; an empty expected state scores 1", async () => {
    const app = createCalendar();
    const none = await post(app, "/verify", { responses_create_params: { input: [] }, response: fullResponse({ output: [{ type: "reasoning", summary: [] }] }), exp_cal_state: {} });
    const empty = await post(app, "/verify", { responses_create_params: { input: [] }, response: reply("Sure."), exp_cal_state: {} });
    expect([none.status, none.body.reward, empty.body.reward]).toEqual([200, 0, 1]);
    expect(Object.keys(empty.body)).toEqual(["responses_create_params", "response", "reward"]);
  });
  test("a row without exp_cal_state is a 422 naming the field", async () => {
    const bad = await post(createCalendar(), "/verify", { responses_create_params: { input: [] }, response: reply("x") });
    expect([bad.status, bad.body.detail[0].loc]).toEqual([422, ["body", "exp_cal_state"]]);
  });
});

describe("calendar: NeMo Gym's published rollouts", () => {
  test("5 of 5 rewards reproduce through /verify (state joined from example.jsonl by prompt)", async () => {
    const app = createCalendar();
    for (const rollout of rollouts) {
      const got = await post(app, "/verify", { responses_create_params: rollout.responses_create_params, response: rollout.response, exp_cal_state: stateOf.get(promptKey(rollout.responses_create_params as any)) });
      expect([got.status, got.body.reward]).toEqual([200, rollout.reward]);
    }
    expect(rollouts.map((r) => r.reward)).toEqual([1, 0, 1, 0, 0]);
  });

  test("gym eval reverify on the binary re-scores them exactly (reverify mode unknown: --force)", async () => {
    const stamps = (i: number) => ({ _ng_task_index: i, _ng_rollout_index: 0, agent_ref: { name: "calendar_simple_agent" } });
    const inputs = rollouts.map((r, i) => JSON.stringify({ responses_create_params: r.responses_create_params, exp_cal_state: stateOf.get(promptKey(r.responses_create_params as any)), ...stamps(i) }));
    writeFileSync(join(work, "inputs.jsonl"), `${inputs.join("\n")}\n`);
    writeFileSync(join(work, "rollouts.jsonl"), `${rollouts.map((r, i) => JSON.stringify({ ...r, ...stamps(i) })).join("\n")}\n`);
    const r = await gym(["eval", "reverify", "--resources-server", "calendar", "--inputs", join(work, "inputs.jsonl"), "--rollouts", join(work, "rollouts.jsonl"), "-o", join(work, "reverified.jsonl"), "--force"]);
    expect(r.stderr).not.toContain("Error");
    expect(r.code).toBe(0);
    const got = readFileSync(join(work, "unsafe_reverified.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(got.map((row) => [row._ng_task_index, row.reward])).toEqual(rollouts.map((row, i) => [i, row.reward]));
  }, 120_000);

  test("gym eval run on the binary, the model a replay of the published responses: the same rewards end to end", async () => {
    const r = await gym(["eval", "run", "--resources-server", "calendar", "--model-type", "replay_model", "+policy_model.responses_api_models.replay_model.rollouts_jsonl_fpath=resources_servers/calendar/data/example_rollouts.jsonl", "--split", "example", "-o", join(work, "run.jsonl")], { cwd: work });
    expect(r.stderr).toContain("Coverage: 5 of 5 rollouts scored (5 succeeded)");
    expect(r.code).toBe(0);
    const published = new Map(rollouts.map((row) => [promptKey(row.responses_create_params as any), row.reward]));
    const got = readFileSync(join(work, "run.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(got.map((row) => row.reward)).toEqual(got.map((row) => published.get(promptKey(row.responses_create_params))));
    expect(got.map((row) => row.reward).sort()).toEqual([0, 0, 0, 1, 1]);
  }, 120_000);
});
