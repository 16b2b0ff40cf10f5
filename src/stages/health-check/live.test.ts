/** The writer-fed health check writes the same reports, byte for byte, as `healthCheck()` re-reading the finished file. */
import { expect, test } from "bun:test";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { healthCheck } from "./index.ts";
import { readJsonl } from "../../jsonl/read.ts";
import { LiveHealthCheck } from "./live.ts";

const usage = (i: number, o: number) => ({ input_tokens: i, output_tokens: o });
const rows: Record<string, unknown>[] = [
  { _ng_task_index: 0, _ng_rollout_index: 0, reward: 1, response: { usage: usage(10, 5) }, ng_model_call_capture: { calls: [{ status: "completed", usage: usage(10, 5) }] }, ng_trajectory: { turns: [{ text: "hi" }] } },
  { _ng_task_index: 0, _ng_rollout_index: 1, reward: 0, response: { usage: usage(10, 0) }, ng_model_call_capture: { calls: [{ status: "completed", usage: usage(10, 0), incomplete_details: { reason: "content_filter" } }, { status: "failed", error: "boom" }] } },
  { _ng_task_index: 1, _ng_rollout_index: 0, reward: 0.5, response: { usage: usage(3, 3), status: "incomplete", incomplete_details: { reason: "max_output_tokens" } } },
  { _ng_task_index: 1, _ng_rollout_index: 0, reward: null, response: { usage: null } },
  { _ng_task_index: 2, _ng_rollout_index: 0, reward: 1, response: {}, agent_ref: { name: "a" } },
];

/** Both reports of a run dir's `rollouts.jsonl` (verdicts, summary). */
const reports = (dir: string) => ["rollout_verdicts.jsonl", "quality_summary.json"].map((f) => fs.readFileSync(path.join(dir, f), "utf8"));

async function compare(before: string, added: Record<string, unknown>[]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gym-live-health-"));
  const file = path.join(dir, "rollouts.jsonl");
  fs.writeFileSync(path.join(dir, "rollouts_materialized_inputs.jsonl"), [0, 1, 2, 3].map((t) => JSON.stringify({ _ng_task_index: t, _ng_rollout_index: 0 })).join("\n"));
  fs.writeFileSync(file, before);
  const live = new LiveHealthCheck(file);
  // The rows on disk come as the resume inventory reads them (JSON.parse, with line numbers).
  for await (const { value, line } of readJsonl(file)) live.addRead(value, line);
  for (const row of added) {
    fs.appendFileSync(file, `${JSON.stringify(row)}\n`);
    live.add(row);
  }
  const summary = await live.finish();
  const fed = reports(dir);
  const reread = await healthCheck({ runDir: dir });
  expect(reports(dir)).toEqual(fed);
  expect(summary).toEqual(reread);
  fs.rmSync(dir, { recursive: true, force: true });
  return summary!;
}

test("a fresh file: rows fed as written", async () => {
  const s = await compare("", rows);
  expect(s.checked).toBe(rows.length);
  expect(s.unhealthy).toBeGreaterThan(0);
});

test("a resumed file: the rows on disk come first, then the new ones follow", async () => {
  const s = await compare(`${JSON.stringify(rows[0])}\n${JSON.stringify(rows[1])}\n`, rows.slice(2));
  expect(s.checked).toBe(rows.length);
});

test("a row the reader refuses: no report (the re-read then fails with that row's error, as before)", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gym-live-health-"));
  const live = new LiveHealthCheck(path.join(dir, "rollouts.jsonl"));
  live.add(rows[0]!);
  live.add({ ...rows[0], _ng_task_index: "2" });
  expect(await live.finish()).toBeNull();
  expect(fs.readdirSync(dir)).toEqual([]);
  fs.rmSync(dir, { recursive: true, force: true });
});

test("no row: no report, and nothing left behind", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gym-live-health-"));
  const live = new LiveHealthCheck(path.join(dir, "rollouts.jsonl"));
  expect(await live.finish()).toBeNull();
  expect(fs.readdirSync(dir)).toEqual([]);
  fs.rmSync(dir, { recursive: true, force: true });
});
