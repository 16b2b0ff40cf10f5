import { expect, test } from "bun:test";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { healthCheck, healthSummaryLine } from "./index.ts";

const usage = (i: number, o: number) => ({ input_tokens: i, output_tokens: o });
const rows = [
  // healthy: capture and trajectory agree with the response
  { _ng_task_index: 0, _ng_rollout_index: 0, reward: 1, response: { usage: usage(10, 5) }, ng_model_call_capture: { calls: [{ status: "completed", usage: usage(10, 5) }] }, ng_trajectory: { turns: [{ text: "hi" }] } },
  // unhealthy: the last model call failed
  { _ng_task_index: 0, _ng_rollout_index: 1, reward: 0, response: { usage: usage(10, 0) }, ng_model_call_capture: { calls: [{ status: "completed", usage: usage(10, 0), incomplete_details: { reason: "content_filter" } }, { status: "failed", error: "boom" }] }, ng_trajectory: { turns: [{ text: "x" }] } },
  // unobserved: no capture, no trajectory
  { _ng_task_index: 1, _ng_rollout_index: 0, reward: 1, response: { usage: usage(3, 3) } },
];

function runDir(extra = ""): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gym-health-"));
  fs.writeFileSync(path.join(dir, "rollouts.jsonl"), `${rows.map((r) => JSON.stringify(r)).join("\n")}\n${extra}`);
  return dir;
}

test("verdicts, findings and the summary line", async () => {
  const dir = runDir('{"not closed\n' + JSON.stringify(rows[2]) + "\n");
  fs.writeFileSync(path.join(dir, "rollouts_materialized_inputs.jsonl"), [0, 1, 2].map((t) => JSON.stringify({ _ng_task_index: t, _ng_rollout_index: 0 })).join("\n"));
  const s = await healthCheck({ runDir: dir });
  expect([s.checked, s.healthy, s.unhealthy, s.unobserved]).toEqual([5, 1, 3, 1]);
  expect(healthSummaryLine(s)).toBe("Rollout health: 5 checked, 1 healthy, 3 unhealthy, 1 unobserved");
  const verdicts = fs.readFileSync(path.join(dir, "rollout_verdicts.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  expect(verdicts.map((v) => v.verdict)).toEqual(["healthy", "unhealthy", "unobserved", "unhealthy", "unhealthy"]);
  expect(verdicts[1].findings.map((f: { check: string }) => f.check).sort()).toEqual(["model_call_failed", "rollout_ended_on_failed_model_call"]);
  expect(verdicts[3].findings[0].check).toBe("record_unreadable");
  expect(verdicts[4].findings[0].check).toBe("record_duplicate_identity");
  expect(s.tasks["0"]).toEqual({ verdict: "healthy", repeats: 2 });
  expect(s.tasks["1"]).toEqual({ verdict: "unobserved", repeats: 1 });
  expect(s.run.run_missing_rollouts).toEqual({ verdict: "unhealthy", missing: 1 });
  expect(JSON.parse(fs.readFileSync(path.join(dir, "quality_summary.json"), "utf8")).checked).toBe(5);
});

test("--ignore-checks and --rollouts-file; unknown ids get a suggestion", async () => {
  const dir = runDir();
  fs.renameSync(path.join(dir, "rollouts.jsonl"), path.join(dir, "evaluator_rollouts.jsonl"));
  const s = await healthCheck({ runDir: dir, rolloutsFile: "evaluator_rollouts.jsonl", ignoreChecks: ["model_call_failed", "rollout_ended_on_failed_model_call"] });
  expect([s.healthy, s.unhealthy, s.unobserved]).toEqual([2, 0, 1]);
  expect("model_call_failed" in s.checks).toBe(false);
  const error = await healthCheck({ runDir: dir, rolloutsFile: "evaluator_rollouts.jsonl", ignoreChecks: ["model_call_faild"] }).catch((e) => e);
  expect(error.hint).toContain("model_call_failed");
});

test("two runs in one folder keep their own health reports (named after each stem; rollouts.jsonl keeps NeMo Gym's names)", async () => {
  const dir = runDir(`${JSON.stringify(rows[2])}\n`);
  fs.writeFileSync(path.join(dir, "other.jsonl"), `${JSON.stringify(rows[0])}\n${JSON.stringify(rows[1])}\n`);
  const a = await healthCheck({ runDir: dir });
  const b = await healthCheck({ runDir: dir, rolloutsFile: "other.jsonl" });
  expect(JSON.parse(fs.readFileSync(path.join(dir, "quality_summary.json"), "utf8")).checked).toBe(a.checked);
  expect(JSON.parse(fs.readFileSync(path.join(dir, "other_quality_summary.json"), "utf8")).checked).toBe(b.checked);
  expect(fs.readFileSync(path.join(dir, "other_rollout_verdicts.jsonl"), "utf8").trim().split("\n")).toHaveLength(2);
});
