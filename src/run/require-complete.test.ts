/** `+require_complete=true` on the binary: every incomplete exit says why, and 75 / 1 print the exact --resume command, which finishes the run. */
import { beforeAll, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, gym, gymBinary, run } from "../testing/binary.ts";
import { writeMcqaDataset } from "../testing/datasets.ts";

let dir: string;
beforeAll(async () => {
  await ensureBinary();
  dir = mkdtempSync(join(tmpdir(), "gym-require-complete-"));
  writeMcqaDataset(join(dir, "tasks.jsonl"), 40);
}, 120_000);

const base = (output: string) => ["eval", "run", "--resources-server", "mcqa", "--model-type", "mock_model", "--input", "tasks.jsonl", "--output", output, "+require_complete=true"];
/** The command after "Resume with:", run as a shell would (the binary in place of `gym`). */
const resumeLine = (stderr: string) => /Resume with:\n {2}(.+)/.exec(stderr)?.[1];

test("a budget-cut run exits 75 naming why and the --resume command; following the printed command finishes it with exit 0", async () => {
  const args = [...base("cut.jsonl"), "++policy_model.responses_api_models.mock_model.latency_ms=100", "--concurrency", "2", "--num-repeats", "2", "+dispatch_budget_s=1"];
  let r = await gym(args, { cwd: dir });
  const seen: number[] = [];
  for (let i = 0; i < 12 && r.code !== 0; i++) {
    seen.push(r.code);
    // Every incomplete exit explains itself on its last lines, with the same code it exits with.
    expect(r.stderr).toContain(`Incomplete (exit ${r.code}, require_complete=true)`);
    const command = resumeLine(r.stderr);
    expect(command).toBe(`gym ${args.join(" ")} --resume`);
    r = await run(["bash", "-c", command!.replace(/^gym /, `${gymBinary} `)], { cwd: dir });
  }
  expect(seen[0]).toBe(75);
  expect({ code: r.code, tail: r.stderr.slice(-300) }).toMatchObject({ code: 0 });
  expect(r.stderr).toContain("Coverage: 80 of 80 rollouts scored");
  expect(r.stderr).not.toContain("Resume with:");
}, 120_000);

test("a run that made no progress exits 1 saying so, with the failure classes and the resume command; once attempts run out, 76 says which limit", async () => {
  const args = [...base("stuck.jsonl"), "--limit", "4", "++policy_model.responses_api_models.mock_model.error_rate=1", "+route_failures_to_sidecar=true"];
  const first = await gym(args, { cwd: dir });
  expect(first.code).toBe(1);
  expect(first.stderr).toContain("Incomplete (exit 1, require_complete=true): 4 of 4 rollouts have not succeeded; 4 can run again, but this run made no progress (no new success or final outcome: 4 agent_run_error)");
  expect(resumeLine(first.stderr)).toBe(`gym ${args.join(" ")} --resume`);
  let last = first;
  for (let i = 0; i < 3 && last.code !== 76; i++) last = await gym([...args, "--resume"], { cwd: dir });
  expect(last.code).toBe(76);
  expect(last.stderr).toContain("none can run again: 4 used all 3 attempts (raise NEMO_GYM_MAX_ROLLOUT_ATTEMPTS to allow more)");
  expect(last.stderr).not.toContain("Resume with:");
}, 120_000);
