import { describe, expect, test } from "bun:test";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { profileRollouts } from "./index.ts";
import { fixturePath } from "../../metrics/_fixtures.ts";
import { parsePythonJson, stringifyPython } from "../../metrics/pyjson.ts";

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "gym-profile-test-"));
// Keys the current NeMo Gym adds to each task row; the published files predate them.
const NEWER_KEYS = ["_ng_task_index", "num_rollouts", "expected_num_rollouts", "missing_num_rollouts", "reward_profile_completion_pct", "rollout_infos"];

describe("profile reproduces NeMo Gym's published reward profiles", () => {
  for (const name of ["ether0", "circle_click"]) {
    test(`${name}: _agent_metrics.json byte-identical, _reward_profiling.jsonl identical but for the newer keys`, async () => {
      const dir = tmp();
      const rollouts = path.join(dir, "example_rollouts.jsonl");
      fs.copyFileSync(fixturePath(name, "example_rollouts.jsonl"), rollouts);
      const report = await profileRollouts({ inputs: fixturePath(name, "example_rollouts_materialized_inputs.jsonl"), rollouts, repeatLevel: false });
      expect(fs.readFileSync(report.agentMetrics, "utf8")).toBe(fs.readFileSync(fixturePath(name, "example_rollouts_agent_metrics.json"), "utf8"));
      const got = fs.readFileSync(report.rewardProfiling, "utf8").split("\n");
      const want = fs.readFileSync(fixturePath(name, "example_rollouts_reward_profiling.jsonl"), "utf8").split("\n");
      expect(got.length).toBe(want.length);
      got.forEach((line, i) => {
        if (!line) return expect(want[i]).toBe("");
        const row = parsePythonJson(line) as Record<string, unknown>;
        expect(row.num_rollouts).toBe(1);
        for (const k of NEWER_KEYS) delete row[k];
        expect(stringifyPython(row)).toBe(want[i]!);
      });
      expect(report.summary.reward_profile_completion_pct).toBe(100);
    });
  }
});

test("multi-turn environments (NeMo Gym's gymnasium agents append the turns they played to the rollout's input) join their input rows", async () => {
  for (const name of ["blackjack", "grl_sokoban", "grl_tetris"]) {
    const dir = tmp();
    const report = await profileRollouts({ inputs: fixturePath(name, "example_rollouts_materialized_inputs.jsonl"), rollouts: fixturePath(name, "example_rollouts.jsonl"), outputBase: path.join(dir, "r.jsonl") });
    expect(report.summary.completed_rollout_rows).toBe(5);
  }
});

describe("§7C partial mode", () => {
  const inputs = [0, 1].flatMap((t) => [0, 1].map((r) => JSON.stringify({ _ng_task_index: t, _ng_rollout_index: r, agent_ref: { name: "math_agent" }, prompt: `q${t}` })));
  const rollouts = [
    '{"_ng_task_index":0,"_ng_rollout_index":0,"reward":1.0,"response":{"usage":{"output_tokens":10}}}',
    '{"_ng_task_index":0,"_ng_rollout_index":1,"reward":0.0,"response":{"usage":{"output_tokens":20}}}',
    '{"_ng_task_index":1,"_ng_rollout_index":0,"reward":1.0,"response":{"usage":{"output_tokens":30}}}',
  ];
  const setup = () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, "in.jsonl"), inputs.join("\n"));
    fs.writeFileSync(path.join(dir, "r.jsonl"), rollouts.join("\n"));
    return dir;
  };

  test("without partial mode the command fails", async () => {
    const dir = setup();
    const error = await profileRollouts({ inputs: path.join(dir, "in.jsonl"), rollouts: path.join(dir, "r.jsonl") }).catch((e) => e);
    expect(error.message).toContain("Missing rollout results for 1");
  });

  test("rows, agent entry and summary", async () => {
    const dir = setup();
    const report = await profileRollouts({ inputs: path.join(dir, "in.jsonl"), rollouts: path.join(dir, "r.jsonl"), allowPartialRollouts: true });
    const [t0, t1] = fs.readFileSync(report.rewardProfiling, "utf8").trim().split("\n").map((l) => parsePythonJson(l) as Record<string, unknown>);
    const py = (v: unknown) => stringifyPython(v);
    expect([t0!["mean/reward"], t0!["std/reward"], t0!["mean/output_tokens"], t0!["std/output_tokens"]].map(py)).toEqual(["0.5", "0.7071067811865476", "15.0", "7.0710678118654755"]);
    expect([t0!.num_rollouts, t0!.expected_num_rollouts, t0!.missing_num_rollouts, py(t0!.reward_profile_completion_pct)]).toEqual([2, 2, 0, "100.0"]);
    expect(t0!.sample).toEqual({ agent_ref: { name: "math_agent" }, prompt: "q0" });
    expect(Object.entries(t1!).filter(([k]) => k.startsWith("std/")).map(([, v]) => py(v))).toEqual(["0.0", "0.0"]);
    expect([t1!.num_rollouts, t1!.expected_num_rollouts, t1!.missing_num_rollouts, py(t1!.reward_profile_completion_pct)]).toEqual([1, 2, 1, "50.0"]);
    const [agent] = parsePythonJson(fs.readFileSync(report.agentMetrics, "utf8")) as Array<Record<string, unknown>>;
    expect([agent!["mean/reward"], agent!["median/reward"], agent!["std/reward"], agent!["std/output_tokens"]].map(py)).toEqual(["0.6666666666666666", "1.0", "0.5773502691896258", "10.0"]);
    expect(Object.keys(agent!).indexOf("agent_ref")).toBe(Object.keys(agent!).findIndex((k) => k.includes("_across_repeats")) - 1);
    expect(report.summary).toEqual({
      expected_rollout_rows: 4, completed_rollout_rows: 3, missing_rollout_rows: 1, extra_rollout_rows: 0, reward_profile_completion_pct: 75,
      total_input_rows: 2, complete_input_rows: 1, partial_input_rows: 1, missing_input_rows: 0,
    });
    const repeats = JSON.parse(fs.readFileSync(report.repeatLevelMetrics!, "utf8"));
    expect(repeats.map((r: Record<string, unknown>) => [r._ng_rollout_index, r.sample_count, r.missing_count])).toEqual([[0, 2, 0], [1, 1, 1]]);
  });
});

describe("completion counts per task", () => {
  test("a complete, a missing and a partial task: summary, expected counts per row, the sample of the first rollout", async () => {
    const dir = tmp();
    // Repeat-major, as a run writes them; each input row's prompt names its rollout.
    const inputs = [0, 1, 2].flatMap((r) => [0, 1, 2].map((t) => JSON.stringify({ _ng_task_index: t, _ng_rollout_index: r, agent_ref: { name: "a" }, prompt: `q${t}-${r}` })));
    const rollouts = [[2, 1], [0, 2], [0, 0], [0, 1]].map(([t, r]) => `{"_ng_task_index":${t},"_ng_rollout_index":${r},"reward":${r === 1 ? "1.0" : "0.0"}}`);
    fs.writeFileSync(path.join(dir, "in.jsonl"), `${inputs.join("\n")}\n`);
    fs.writeFileSync(path.join(dir, "r.jsonl"), `${rollouts.join("\n")}\n`);
    const report = await profileRollouts({ inputs: path.join(dir, "in.jsonl"), rollouts: path.join(dir, "r.jsonl"), allowPartialRollouts: true });
    expect(report.summary).toEqual({
      expected_rollout_rows: 9, completed_rollout_rows: 4, missing_rollout_rows: 5, extra_rollout_rows: 0, reward_profile_completion_pct: 400 / 9,
      total_input_rows: 3, complete_input_rows: 1, partial_input_rows: 1, missing_input_rows: 1,
    });
    const lines = fs.readFileSync(report.rewardProfiling, "utf8").trim().split("\n");
    const rows = lines.map((l) => parsePythonJson(l) as Record<string, unknown>);
    expect(rows.map((r) => [r._ng_task_index, r.num_rollouts, r.expected_num_rollouts, r.missing_num_rollouts, stringifyPython(r.reward_profile_completion_pct), r.sample])).toEqual([
      [0, 3, 3, 0, "100.0", { agent_ref: { name: "a" }, prompt: "q0-0" }],
      [2, 1, 3, 2, "33.333333333333336", { agent_ref: { name: "a" }, prompt: "q2-1" }],
    ]);
  });
});

describe("rows are checked as the checking reader checks them", () => {
  const input = (t: number, extra = "") => `{"_ng_task_index":${t},"_ng_rollout_index":0,"agent_ref":{"name":"a"}${extra}}`;
  const run = async (inputs: string[], rollouts: string[]) => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, "in.jsonl"), `${inputs.join("\n")}\n`);
    fs.writeFileSync(path.join(dir, "r.jsonl"), `${rollouts.join("\n")}\n`);
    const log: string[] = [];
    const result = await profileRollouts({ inputs: path.join(dir, "in.jsonl"), rollouts: path.join(dir, "r.jsonl"), allowPartialRollouts: true, log: (m) => log.push(m) }).catch((e: Error) => e);
    return { error: result instanceof Error ? result.message.replaceAll(dir + path.sep, "") : undefined, log: log.map((m) => m.replaceAll(dir + path.sep, "")) };
  };

  test("a null and a missing reward are counted warnings, in the order first seen", async () => {
    const { error, log } = await run([input(0), input(1), input(2)], ['{"_ng_task_index":0,"_ng_rollout_index":0,"reward":null}', '{"_ng_task_index":1,"_ng_rollout_index":0}', '{"_ng_task_index":2,"_ng_rollout_index":0,"reward":null}']);
    expect(error).toBeUndefined();
    expect(log).toEqual([
      "Warning: r.jsonl: 2 row(s) where reward is null (left out of the reward statistics, as NeMo Gym does)",
      "Warning: r.jsonl: 1 row(s) where reward is missing (left out of the reward statistics, as NeMo Gym does)",
    ]);
  });

  test("wrong types stop with the checking reader's message, naming file and line", async () => {
    const ok = '{"_ng_task_index":0,"_ng_rollout_index":0,"reward":1.0}';
    expect((await run([input(0), input(1)], [ok, '{"_ng_task_index":1,"_ng_rollout_index":0,"reward":"1"}'])).error).toBe("r.jsonl:2: field 'reward' must be a number (int or float), but it is the string \"1\"");
    expect((await run([input(0)], ['{"_ng_task_index":0,"_ng_rollout_index":0,"reward":1.0,"agent_ref":null}'])).error).toBe("r.jsonl:1: field 'agent_ref' must be a JSON object, but it is null");
    expect((await run([input(0), '{"_ng_task_index":1.0,"_ng_rollout_index":0,"agent_ref":{"name":"a"}}'], [ok])).error).toBe(
      "in.jsonl:2: field '_ng_task_index' must be a non-negative integer below 2^53 (a Python int), but it is the float 1.0",
    );
    expect((await run([input(0), '{"_ng_task_index":1,"_ng_rollout_index":0,"agent_ref":{"nam":"a"}}'], [ok])).error).toBe("in.jsonl:2: field 'agent_ref.name' must be a string, but it is nothing (the field is missing)");
    expect((await run(['{"_ng_task_index":0,"_ng_rollout_index":0,"agent_ref":"a"}'], [ok])).error).toBe("in.jsonl:1: field 'agent_ref' must be a JSON object, but it is the string \"a\"");
    expect((await run([input(0, ',"reward":false')], [ok])).error).toBe("in.jsonl:1: field 'reward' must be a number (int or float) or null, but it is the bool false");
  });

  test("a wrong type before bad JSON in the same block is the error reported (file order)", async () => {
    const { error } = await run([input(0), input(1)], ['{"_ng_task_index":0,"_ng_rollout_index":0,"reward":true}', '{"_ng_task_index":1,"_ng_rollout_index":0,"reward":1']);
    expect(error).toBe("r.jsonl:1: field 'reward' must be a number (int or float), but it is the bool true");
    expect((await run([input(0), input(1)], ['{"_ng_task_index":0,"_ng_rollout_index":0,"reward":1.0}', '{"_ng_task_index":1,"_ng_rollout_index":0,"reward":1'])).error).toContain("r.jsonl:2");
  });
});
