/**
 * The reports a run makes as it writes its rows (health verdicts and summary, cost, metric input) against the same
 * reports made by reading the finished file back: a `--resume` over a complete run dispatches nothing and reads
 * the file back for all of them. Byte for byte the same files.
 */
import { beforeAll, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, gym } from "../testing/binary.ts";
import { writeMcqaDataset } from "../testing/datasets.ts";

let dir: string;
beforeAll(async () => {
  await ensureBinary();
  dir = mkdtempSync(join(tmpdir(), "gym-writer-fed-"));
  writeMcqaDataset(join(dir, "tasks.jsonl"), 30);
}, 120_000);

const args = (output: string, extra: string[] = []) => ["eval", "run", "--resources-server", "mcqa", "--model-type", "mock_model", "--input", join(dir, "tasks.jsonl"), "--num-repeats", "3", "--concurrency", "8", "--output", output, ...extra];
const reports = ["r_aggregate_metrics.json", "r_quality_summary.json", "r_rollout_verdicts.jsonl", "r_cost.json"];

test("a fresh run's writer-fed reports are the bytes a read of the finished file gives (resume over the complete run)", async () => {
  const out = join(dir, "run", "r.jsonl");
  const fresh = await gym(args(out), { cwd: dir });
  expect({ code: fresh.code, stderr: fresh.stderr.slice(-400) }).toMatchObject({ code: 0 });
  const saved = join(dir, "saved");
  mkdirSync(saved);
  for (const name of reports) copyFileSync(join(dir, "run", name), join(saved, name));
  const again = await gym(args(out, ["--resume"]), { cwd: dir });
  expect({ code: again.code, stderr: again.stderr.slice(-400) }).toMatchObject({ code: 0 });
  expect(again.stderr).toContain("dispatching 0");
  for (const name of reports) expect({ name, text: readFileSync(join(dir, "run", name), "utf8") }).toEqual({ name, text: readFileSync(join(saved, name), "utf8") });
  // The console summary says the same too.
  const summary = (text: string) => text.split("\n").filter((l) => /Rollout health|mean\/reward|cost/i.test(l)).join("\n");
  expect(summary(fresh.stdout + fresh.stderr)).toContain("Rollout health: 90 checked");
  expect(summary(again.stdout + again.stderr)).toBe(summary(fresh.stdout + fresh.stderr));
}, 120_000);
