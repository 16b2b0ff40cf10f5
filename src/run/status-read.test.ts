import { afterAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newManifest, writeManifest } from "./manifest.ts";
import { runPaths } from "../outputs/paths.ts";
import { StatusWriter } from "./status.ts";
import { exportReceipts, findStatusFiles, readStatusEntry, readStatusTarget, statusJson } from "./status-read.ts";
import type { Outcome } from "../outputs/store.ts";

const REPO = join(import.meta.dirname, "../..");
const BATCH_FIXTURE = join(REPO, "fixtures/status/batch-run");
const tmp = fs.mkdtempSync(join(tmpdir(), "gym-status-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function gym(...args: string[]) {
  const result = spawnSync(process.execPath, ["src/main.ts", ...args], { cwd: REPO, env: { ...process.env, NO_COLOR: "1" }, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const failure = (failureClass: string, attempt = 0): Outcome => ({ kind: "failure", attempt, failureClass, terminal: false, countsAsZero: false, savedAnswer: false });

/** A run directory as `gym eval run` leaves it: a stem status, a shard status, receipts, the run manifest and drift journal. */
function makeRun(dir: string): { stem: StatusWriter; shard: StatusWriter; runId: string } {
  fs.mkdirSync(dir, { recursive: true });
  const store = new Map<string, Outcome>([
    ["0-0", { kind: "success", attempt: 0 }],
    ["0-1", failure("agent_run_error", 1)],
    ["1-0", { kind: "interrupted", attempt: 0 }],
  ]);
  const stem = new StatusWriter(runPaths(join(dir, "rollouts.jsonl")).batchStatus, ["0-0", "0-1", "1-0", "1-1"], store, false);
  stem.write();
  const shard = new StatusWriter(runPaths(join(dir, "rollouts-3.jsonl")).batchStatus, ["0-0"], new Map([["0-0", { kind: "success", attempt: 0 }]]), true);
  shard.aggregation = "deferred";
  shard.write();
  fs.writeFileSync(join(dir, "rollouts_mlflow_export_done"), "");
  fs.writeFileSync(join(dir, "rollouts_mlflow_run_id"), "run-abc\n");
  fs.writeFileSync(join(dir, "rollouts-3_wandb_run_id"), "wb-1\n");
  const manifest = newManifest({ source_digest: "s", materialized_digest: "m", config_digest: "c", semantic_settings: {}, operational_settings: {} });
  writeManifest(runPaths(join(dir, "rollouts.jsonl")).manifest, manifest);
  fs.writeFileSync(runPaths(join(dir, "rollouts.jsonl")).resumeDrift, '{"setting":"a"}\n{"setting":"b"}\n');
  return { stem, shard, runId: manifest.run_id };
}

describe("reading status files", () => {
  const dir = join(tmp, "run");
  const { runId } = makeRun(dir);
  fs.copyFileSync(join(BATCH_FIXTURE, "batch_status.json"), join(dir, "batch_status.json"));
  fs.writeFileSync(join(dir, "other_batch_status.json"), '{"reason":"ValueError","tracking":"disabled","updated_at":"2026-10-16T12:00:00Z"}\n');

  test("a directory lists every stem status, shards included, and the legacy batch_status.json, sorted", () => {
    expect(findStatusFiles(dir)).toEqual(["batch_status.json", "other_batch_status.json", "rollouts-3_batch_status.json", "rollouts_batch_status.json"].map((n) => join(dir, n)));
  });

  test("a stem status reads back what the collector's StatusWriter wrote, with receipts and the run manifest", () => {
    const entry = readStatusEntry(join(dir, "rollouts_batch_status.json"));
    expect(entry.stem).toBe("rollouts");
    expect(entry.status).toMatchObject({
      schema_version: "1",
      tracking: "enabled",
      expected_rollout_count: 4,
      completed_rollout_count: 1,
      remaining_rollout_count: 3,
      failures_by_class: { agent_run_error: 1, kill_shaped: 1 },
      aggregation_status: "pending",
    });
    expect(entry.export).toEqual({ mlflow: { completed: true, run_id: "run-abc" } });
    expect(entry.runManifest).toEqual({ path: join(dir, "rollouts_manifest.json"), run_id: runId, resume_drift_count: 2 });
    const shard = readStatusEntry(join(dir, "rollouts-3_batch_status.json"));
    expect(shard.export).toEqual({ wandb: { completed: false, run_id: "wb-1" } });
    expect(shard.status?.aggregation_status).toBe("deferred");
    expect(shard.runManifest).toBeUndefined();
  });

  test("receipts belong to one stem: a longer stem's files are not read as an exporter", () => {
    const d = join(tmp, "stems");
    fs.mkdirSync(d);
    for (const name of ["gsm8k_mlflow_export_done", "gsm8k_small_mlflow_export_done", "gsm8k_small_mlflow_run_id"]) fs.writeFileSync(join(d, name), "r9\n");
    expect(exportReceipts(d, "gsm8k")).toEqual({ mlflow: { completed: true } });
    expect(exportReceipts(d, "gsm8k_small")).toEqual({ mlflow: { completed: true, run_id: "r9" } });
  });

  test("a rollouts file names the status beside it, even before the file exists", () => {
    expect(findStatusFiles(join(dir, "rollouts-3.jsonl"))).toEqual([join(dir, "rollouts-3_batch_status.json")]);
    expect(findStatusFiles(join(dir, "rollouts_batch_status.json"))).toEqual([join(dir, "rollouts_batch_status.json")]);
  });

  test("--json maps each status path to its status plus export (and run_manifest)", () => {
    const doc = statusJson(readStatusTarget(dir)) as Record<string, Record<string, unknown>>;
    expect(Object.keys(doc)).toEqual(findStatusFiles(dir));
    expect(doc[join(dir, "batch_status.json")]!.members).toBeDefined();
    expect(doc[join(dir, "batch_status.json")]!.export).toEqual({ mlflow: { completed: true, run_id: "run-abc" } });
    expect(doc[join(dir, "other_batch_status.json")]).toEqual({ reason: "ValueError", tracking: "disabled", updated_at: "2026-10-16T12:00:00Z", export: {} });
    expect((doc[join(dir, "rollouts_batch_status.json")]!.run_manifest as { run_id: string }).run_id).toBe(runId);
  });

  test("errors name the path and what was looked for", () => {
    expect(() => findStatusFiles(join(tmp, "nowhere"))).toThrow(`Run directory not found: ${join(tmp, "nowhere")} is not a directory or a file.`);
    fs.mkdirSync(join(tmp, "empty"));
    expect(() => findStatusFiles(join(tmp, "empty"))).toThrow(`No run status in ${join(tmp, "empty")}: found no *_batch_status.json and no batch_status.json.`);
    fs.writeFileSync(join(tmp, "lonely.jsonl"), "");
    expect(() => findStatusFiles(join(tmp, "lonely.jsonl"))).toThrow(`No run status for ${join(tmp, "lonely.jsonl")}: ${join(tmp, "lonely_batch_status.json")} does not exist.`);
  });
});

describe("gym eval status (CLI)", () => {
  const dir = join(tmp, "cli-run");
  const { runId } = makeRun(dir);
  fs.copyFileSync(join(BATCH_FIXTURE, "batch_status.json"), join(tmp, "batch_status.json"));

  test("human output: counts, failures, aggregation, update time, tracking, run id, receipts", () => {
    const { code, stdout, stderr } = gym("eval", "status", dir);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const updated = JSON.parse(fs.readFileSync(join(dir, "rollouts_batch_status.json"), "utf8")).updated_at;
    expect(stdout).toContain(
      [
        join(dir, "rollouts_batch_status.json"),
        "  tracking:         enabled",
        `  updated:          ${updated}`,
        "  expected:         4",
        "  completed:        1",
        "  remaining:        3",
        "  failures:         agent_run_error 1, kill_shaped 1",
        "  aggregation:      pending",
        `  run id:           ${runId} (2 resume drift records)`,
        "  export receipt:   mlflow present (run id run-abc)",
      ].join("\n"),
    );
    expect(stdout).toContain("  aggregation:      deferred\n  export receipt:   wandb missing (run id wb-1)\n");
  });

  test("a manifest-backed batch_status.json: one block per member", () => {
    const { code, stdout } = gym("eval", "status", join(BATCH_FIXTURE, "batch_status.json"));
    expect(code).toBe(0);
    expect(stdout).toContain("  gpqa_agent (gpqa)\n    expected:       792\n    completed:      640\n    remaining:      152\n    failures:       agent_run_error 3\n    tasks:          198\n    metric keys:    1/1 observed\n    repeats:        4\n    aggregation:    pending\n");
    expect(stdout).toContain("    metric keys:    1/2 observed (missing: pass@32/accuracy)\n    repeats:        32 (seeded)\n    aggregation:    complete\n");
    expect(stdout).toContain("  export receipt:   mlflow missing (run id 3f2c9a6e0b1d4c7e8f9a0b1c2d3e4f5a)\n");
  });

  test("disabled tracking: the reason, and no counts", () => {
    const d = join(tmp, "disabled");
    fs.mkdirSync(d);
    fs.writeFileSync(join(d, "gsm8k_batch_status.json"), '{"reason":"ValueError","tracking":"disabled","updated_at":"2026-10-16T12:00:00Z"}\n');
    const { code, stdout } = gym("eval", "status", d);
    expect(code).toBe(0);
    expect(stdout).toBe(`${join(d, "gsm8k_batch_status.json")}\n  tracking:         disabled (reason: ValueError); counts are not reliable\n  updated:          2026-10-16T12:00:00Z\n  export receipt:   missing\n`);
  });

  test("--json on a rollouts file; --json before the group too", () => {
    const one = gym("eval", "status", join(dir, "rollouts.jsonl"), "--json");
    expect(one.code).toBe(0);
    const doc = JSON.parse(one.stdout);
    expect(Object.keys(doc)).toEqual([join(dir, "rollouts_batch_status.json")]);
    expect(doc[join(dir, "rollouts_batch_status.json")]).toMatchObject({ completed_rollout_count: 1, export: { mlflow: { completed: true, run_id: "run-abc" } } });
    expect(JSON.parse(gym("--json", "eval", "status", dir).stdout)).toEqual(JSON.parse(gym("eval", "status", dir, "--json").stdout));
  });

  test("exit 1 with a clear message when nothing is found or nothing can be read", () => {
    const missing = gym("eval", "status", join(tmp, "no-such-run"));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`Run directory not found: ${join(tmp, "no-such-run")} is not a directory or a file.`);
    fs.mkdirSync(join(tmp, "damaged"));
    fs.writeFileSync(join(tmp, "damaged/x_batch_status.json"), '{"tracking": "enab');
    const damaged = gym("eval", "status", join(tmp, "damaged"));
    expect(damaged.code).toBe(1);
    expect(damaged.stdout).toContain("  status:           unavailable (invalid JSON");
    expect(damaged.stderr).toContain(`No status in ${join(tmp, "damaged")} could be read`);
    // One damaged file beside a good one: still exit 0.
    fs.copyFileSync(join(dir, "rollouts_batch_status.json"), join(tmp, "damaged/y_batch_status.json"));
    expect(gym("eval", "status", join(tmp, "damaged")).code).toBe(0);
  });
});
