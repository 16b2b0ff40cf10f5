import { afterAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compareRolloutFiles, taskKeyOf } from "./index.ts";

const REPO = join(import.meta.dirname, "../../..");
const FIX = join(REPO, "fixtures/parity");
const MCQA = join(FIX, "mcqa/example_rollouts.jsonl");
const HARBOR_OLD = join(FIX, "harbor/old/rollouts.jsonl");
const HARBOR_NEW = join(FIX, "harbor/new/rollouts.jsonl");
const LOGS = join(FIX, "harbor/logs");
const tmp = fs.mkdtempSync(join(tmpdir(), "gym-parity-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function gym(...args: string[]) {
  const result = spawnSync(process.execPath, ["src/main.ts", ...args], { cwd: REPO, env: { ...process.env, NO_COLOR: "1" }, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const mcqaLines = fs.readFileSync(MCQA, "utf8").trimEnd().split("\n");
const promptLabel = (line: string) => `prompt ${createHash("sha256").update(JSON.stringify(JSON.parse(line).responses_create_params.input)).digest("hex").slice(0, 12)}`;

/** NeMo Gym's mcqa example rollouts with row 1's reward 0.0 → 1.0 and row 4 removed. */
const changedMcqa = join(tmp, "mcqa_changed.jsonl");
{
  const rows = mcqaLines.map((line) => JSON.parse(line));
  expect(rows[0].reward).toBe(0);
  rows[0].reward = 1.0;
  rows.splice(3, 1);
  fs.writeFileSync(changedMcqa, rows.map((r) => `${JSON.stringify(r)}\n`).join(""));
}

describe("compareRolloutFiles on NeMo Gym's mcqa example rollouts", () => {
  test("a file against itself: every task identical", async () => {
    const r = await compareRolloutFiles(MCQA, MCQA);
    expect(r.counts).toEqual({ tasks: 5, identical: 5, flipped: 0, old_win: 0, new_win: 0, rerun_candidates: 0, masked: 0, missing: 0 });
    expect(r.old.mean_reward).toBe(0.6);
    // The rows carry no id at all: they are keyed by their prompt, as NeMo Gym indexes identical inputs as one task.
    expect(r.old.keyed_by).toEqual({ "prompt digest": 5 });
  });

  test("one reward changed and one task removed: one new-win flip, one task missing from new", async () => {
    const r = await compareRolloutFiles(MCQA, changedMcqa);
    expect(r.counts).toEqual({ tasks: 5, identical: 3, flipped: 1, old_win: 0, new_win: 1, rerun_candidates: 0, masked: 0, missing: 1 });
    expect(r.flips).toHaveLength(1);
    expect(r.flips[0]).toMatchObject({ task: promptLabel(mcqaLines[0]!), old_reward: 0, new_reward: 1, winner: "new" });
    expect(r.flips[0]!.log).toEqual({ side: "old", unavailable: "the row has no verifier_logs_dir and no test_output" });
    expect(r.missing).toEqual([{ task: promptLabel(mcqaLines[3]!), only_in: "old" }]);
    expect(r.old).toMatchObject({ rows: 5, tasks: 5, mean_reward: 0.6 });
    expect(r.new).toMatchObject({ rows: 4, tasks: 4, mean_reward: 0.75 });
    // Shared tasks: rows 1, 2, 3, 5 → old 0,1,0,1 and new 1,1,0,1.
    expect(r.shared_mean_reward).toEqual({ old: 0.5, new: 0.75 });
  });
});

describe("compareRolloutFiles on Harbor-style rows (tasksets, masks, sidecar, logs)", () => {
  test("classifies every task", async () => {
    const r = await compareRolloutFiles(HARBOR_OLD, HARBOR_NEW, { logsRoot: LOGS });
    expect(r.counts).toEqual({ tasks: 15, identical: 2, flipped: 3, old_win: 2, new_win: 1, rerun_candidates: 1, masked: 4, missing: 5 });
    expect(r.identical).toEqual(["sweb/only-sweb", "tb/retried"]);
    // Old spans two tasksets, new none: new's plain ids are matched to the one taskset that has them.
    expect(r.old.keyed_by).toEqual({ _ng_task_id: 12 });
    expect(r.new.keyed_by).toEqual({ task_name: 12 });
    expect(r.missing).toEqual([
      { task: "dup", only_in: "new", ambiguous_in: ["sweb", "tb"] },
      { task: "extra", only_in: "new" },
      { task: "sweb/dup", only_in: "old" },
      { task: "tb/dup", only_in: "old" },
      { task: "tb/gone", only_in: "old" },
    ]);
    expect(r.masked).toEqual([
      { task: "tb/failed", old: "failed: agent_run_error" },
      { task: "tb/masked", old: "mask_sample (provider_unavailable)" },
      { task: "tb/nan", old: "reward NaN" },
      { task: "unknown (old) #1", old: "failed: agent_run_error" },
    ]);
    // The sidecar: a failure later scored (tb/retried) is dropped, the drained evidence row is skipped.
    expect(r.old.failures_folded).toBe(2);
  });

  test("flips: both rewards, failure_kind beside its side, the losing side's verifier output", async () => {
    const r = await compareRolloutFiles(HARBOR_OLD, HARBOR_NEW, { logsRoot: LOGS, tail: 3 });
    const byTask = Object.fromEntries(r.flips.map((f) => [f.task, f]));
    expect(Object.keys(byTask)).toEqual(["tb/fizz", "tb/timeout", "tb/hello"]);
    // tb/hello: new has 1.0 and 0.0 (its drained evidence row is not counted): mean 0.5; the log is the 0.0 row's test_output.
    expect(byTask["tb/hello"]).toEqual({ task: "tb/hello", old_reward: 1, new_reward: 0.5, winner: "old", log: { side: "new", source: "test_output", lines: ["test line 18", "test line 19", "test line 20"] } });
    expect(byTask["tb/timeout"]).toMatchObject({ old_reward: 1, new_reward: 0, winner: "old", new_failure_kind: "harbor:verifier_timeout" });
    expect(byTask["tb/timeout"]!.old_failure_kind).toBeUndefined();
    // The recorded absolute verifier_logs_dir is found under --logs-root by its tail.
    expect(byTask["tb/fizz"]!.log).toEqual({
      side: "old",
      source: "verifier_logs_dir",
      path: join(LOGS, "verifier/s-fizz-old/test-stdout.txt"),
      lines: ["test_fizz FAILED", "AssertionError: expected 'fizz'", "1 failed, 2 passed"],
    });
    expect(r.rerun_candidates).toEqual([
      { task: "tb/agent", old_reward: 1, new_reward: 0, winner: "old", agent_error: ["new"], log: { side: "new", unavailable: "the row has no verifier_logs_dir and no test_output" } },
    ]);
  });

  test("without --logs-root the recorded logs dir is reported unavailable, with where it was looked for", async () => {
    const r = await compareRolloutFiles(HARBOR_OLD, HARBOR_NEW);
    const fizz = r.flips.find((f) => f.task === "tb/fizz")!;
    expect(fizz.log.unavailable).toStartWith("verifier_logs_dir /abs/results/harbor/tb/verifier/s-fizz-old not found under ");
    expect(fizz.log.unavailable).toContain(join(FIX, "harbor/old"));
  });

  test("a string reward is an input error naming the file, line and task", async () => {
    const broken = join(FIX, "broken/string_reward.jsonl");
    const error = await compareRolloutFiles(broken, broken).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toBe(`${broken}:2: task b: 'reward' is "1.0" (a string); expected a number.`);
  });

  test("a cut-off last line is skipped with a warning", async () => {
    const torn = join(FIX, "broken/torn_tail.jsonl");
    const warnings: string[] = [];
    const r = await compareRolloutFiles(torn, torn, { warn: (m) => warnings.push(m) });
    expect(r.old.rows).toBe(1);
    expect(warnings).toEqual([`${torn}:2: skipped a cut-off last line (a writer still running, or killed mid-row).`, `${torn}:2: skipped a cut-off last line (a writer still running, or killed mid-row).`]);
  });
});

describe("task keys", () => {
  test("default order, --key with a dotted path, and rows that name no task", async () => {
    expect(taskKeyOf({ _ng_task_id: { taskset: "a", task_id: 7 }, task_name: "x" })?.key).toEqual({ taskset: "a", id: "7" });
    expect(taskKeyOf({ task_name: "x", _ng_task_index: 3 })).toEqual({ key: { taskset: null, id: "x" }, source: "task_name" });
    expect(taskKeyOf({ verifier_metadata: { task_id: "HumanEval/0" }, _ng_task_index: 3 })?.source).toBe("verifier_metadata.task_id");
    expect(taskKeyOf({ _ng_task_index: 3 })?.key.id).toBe("task #3");
    expect(taskKeyOf({ reward: 1 })).toBeUndefined();
    const a = join(tmp, "key_a.jsonl");
    const b = join(tmp, "key_b.jsonl");
    fs.writeFileSync(a, '{"meta": {"uid": "u1"}, "reward": 1}\n{"meta": {"uid": "u2"}, "reward": 0}\n{"reward": 1}\n');
    fs.writeFileSync(b, '{"meta": {"uid": "u2"}, "reward": 0}\n{"meta": {"uid": "u1"}, "reward": 0.5}\n');
    const r = await compareRolloutFiles(a, b, { key: "meta.uid" });
    expect(r.key).toBe("meta.uid");
    expect(r.flips.map((f) => [f.task, f.old_reward, f.new_reward])).toEqual([["u1", 1, 0.5]]);
    expect(r.identical).toEqual(["u2"]);
    expect(r.masked).toEqual([{ task: "unknown (old) #1", old: `${a}:3 names no task (no field meta.uid)` }]);
  });

  test("Python's bare NaN / Infinity are read as numbers, text inside strings is kept", async () => {
    const a = join(tmp, "nonfinite.jsonl");
    fs.writeFileSync(a, '{"task_name": "NaN", "reward": NaN}\n{"task_name": "Infinity \\" NaN", "reward": -Infinity}\n');
    const r = await compareRolloutFiles(a, a);
    expect(r.masked).toEqual([
      { task: "Infinity \" NaN", old: "reward -Infinity", new: "reward -Infinity" },
      { task: "NaN", old: "reward NaN", new: "reward NaN" },
    ]);
  });
});

describe("gym dev compare (CLI)", () => {
  test("prints the report and exits 0 even when tasks differ", () => {
    const { code, stdout, stderr } = gym("dev", "compare", MCQA, changedMcqa);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain("tasks: 5  identical 3  flipped 1 (old-win 0, new-win 1)  rerun candidates 0  masked 0  missing 1\n");
    expect(stdout).toContain(`Flipped: new wins (1)\n  ${promptLabel(mcqaLines[0]!)}  old 0.0  new 1.0\n`);
    expect(stdout).toContain(`Missing (1)\n  ${promptLabel(mcqaLines[3]!)}  only in old\n`);
  });

  test("--json PATH writes the summary that `gym --json dev compare` prints", () => {
    const out = join(tmp, "compare.json");
    const written = gym("dev", "compare", "fixtures/parity/harbor/old/rollouts.jsonl", "fixtures/parity/harbor/new/rollouts.jsonl", "--json", out, "--logs-root", "fixtures/parity/harbor/logs", "--tail", "2");
    expect(written.code).toBe(0);
    expect(written.stdout).toContain("    | AssertionError: expected 'fizz'\n    | 1 failed, 2 passed\n");
    expect(written.stderr).toBe(`JSON summary written to ${out}\n`);
    const printed = gym("--json", "dev", "compare", "fixtures/parity/harbor/old/rollouts.jsonl", "fixtures/parity/harbor/new/rollouts.jsonl", "--logs-root", "fixtures/parity/harbor/logs", "--tail", "2");
    expect(printed.code).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual(JSON.parse(fs.readFileSync(out, "utf8")));
    expect(JSON.parse(printed.stdout).counts.tasks).toBe(15);
    const bare = gym("dev", "compare", MCQA, MCQA, "--json");
    expect(JSON.parse(bare.stdout).counts.identical).toBe(5);
  });

  test("exit 1 when an input cannot be read or the --json PATH cannot be written; usage errors exit 2", () => {
    const missing = gym("dev", "compare", MCQA, "nope/rollouts.jsonl");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("File not found: nope/rollouts.jsonl");
    // A folder that is a file: the JSON summary cannot be written there.
    fs.writeFileSync(join(tmp, "a-file"), "");
    const unwritable = gym("dev", "compare", MCQA, MCQA, "--json", join(tmp, "a-file/x.json"));
    expect(unwritable.code).toBe(1);
    expect(unwritable.stderr).toContain(`Cannot write the JSON summary to ${join(tmp, "a-file/x.json")}`);
    expect(gym("dev", "compare", MCQA, MCQA, "--tail", "many").code).toBe(2);
    expect(gym("dev", "compare", MCQA).code).toBe(2);
  });

  test("the dev group shows in gym --help", () => {
    const { stdout } = gym("--help");
    expect(stdout).toMatch(/\bdev\b/);
    expect(gym("dev", "--help").stdout).toContain("compare");
  });
});
