// On the compiled binary: a run whose every judge call failed still leaves its rollouts file (empty), so the
// documented recovery works as written; a recovery pointed at a missing --rollouts is refused before any output
// is opened, so the corrected retry is not refused by a leftover file.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, type ServedApp } from "../../../runtime/serve.ts";
import { ensureBinary, gym } from "../../../testing/binary.ts";
import { judgeEndpoint, policyEndpoint, writeSimpleQADataset } from "../../../testing/judge-mocks.ts";

let dir: string;
let policy: ServedApp;
let broken: ServedApp;
let healthy: ServedApp;
const judgeYaml = (url: string) => `genrm_model:\n  responses_api_models:\n    openai_model:\n      entrypoint: app.py\n      openai_base_url: ${url}/v1\n      openai_api_key: sk-judge\n      openai_model: judge\n`;
const lines = (path: string) => readFileSync(join(dir, path), "utf8").split("\n").filter(Boolean);

beforeAll(async () => {
  await ensureBinary();
  dir = mkdtempSync(join(tmpdir(), "gym-judge-all-failed-"));
  writeSimpleQADataset(join(dir, "tasks.jsonl"), 6);
  policy = await serve(policyEndpoint());
  broken = await serve(judgeEndpoint({ failEvery: 1, apiKey: "sk-judge" }).fetch);
  healthy = await serve(judgeEndpoint({ apiKey: "sk-judge" }).fetch);
  writeFileSync(join(dir, "broken-judge.yaml"), judgeYaml(broken.url));
  writeFileSync(join(dir, "judge.yaml"), judgeYaml(healthy.url));
}, 120_000);
afterAll(async () => {
  await Promise.all([policy?.stop(), broken?.stop(), healthy?.stop()]);
});

const recover = (rollouts: string, output: string, extra: string[] = []) =>
  gym(["eval", "reverify", "--judge-failed-only", "--resources-server", "simpleqa", "--config", "judge.yaml", "--inputs", "run/rollouts_materialized_inputs.jsonl", "--rollouts", rollouts, "-o", output, ...extra], { cwd: dir });

test("every judge call failed: an empty rollouts file is left, a typo'd --rollouts leaves no output, and the recovery then succeeds", async () => {
  const run = await gym(["eval", "run", "--resources-server", "simpleqa", "--model-type", "openai_model", "--model", "policy", "--model-url", `${policy.url}/v1`,
    "--model-api-key", "sk-policy", "--config", "broken-judge.yaml", "--input", "tasks.jsonl", "-o", "run/rollouts.jsonl"], { cwd: dir });
  expect(run.stderr).toContain("Coverage: 0 of 6 rollouts scored");
  expect(lines("run/rollouts_failures.jsonl")).toHaveLength(6);
  expect(statSync(join(dir, "run/rollouts.jsonl")).size).toBe(0);

  const typo = await recover("run/rollout.jsonl", "recovered.jsonl");
  expect(typo.code).toBe(1);
  expect(typo.stderr).toContain("File not found: run/rollout.jsonl (--rollouts)");
  expect(existsSync(join(dir, "recovered.jsonl"))).toBe(false);
  expect(existsSync(join(dir, "recovered_failures.jsonl"))).toBe(false);

  const recovered = await recover("run/rollouts.jsonl", "recovered.jsonl");
  expect({ code: recovered.code, stderr: recovered.stderr.slice(-400) }).toMatchObject({ code: 0 });
  expect(recovered.stderr).toContain("Re-verified 6 rollout(s): 6 scored, 0 to the failures sidecar.");
  expect(lines("recovered.jsonl")).toHaveLength(6);

  // In place, as the README documents it: --append onto the run's own (empty) rollouts file.
  const appended = await recover("run/rollouts.jsonl", "run/rollouts.jsonl", ["--append"]);
  expect(appended.code).toBe(0);
  expect(lines("run/rollouts.jsonl")).toHaveLength(6);
}, 120_000);

test("a run from a build that left no rollouts file: the refusal says so and how to go on", async () => {
  rmSync(join(dir, "old"), { recursive: true, force: true });
  const run = await gym(["eval", "run", "--resources-server", "simpleqa", "--model-type", "openai_model", "--model", "policy", "--model-url", `${policy.url}/v1`,
    "--model-api-key", "sk-policy", "--config", "broken-judge.yaml", "--input", "tasks.jsonl", "-o", "old/rollouts.jsonl"], { cwd: dir });
  expect(run.stderr).toContain("Coverage: 0 of 6 rollouts scored");
  rmSync(join(dir, "old/rollouts.jsonl"));
  const refused = await gym(["eval", "reverify", "--judge-failed-only", "--resources-server", "simpleqa", "--config", "judge.yaml", "--inputs", "old/rollouts_materialized_inputs.jsonl", "--rollouts", "old/rollouts.jsonl", "-o", "old-recovered.jsonl"], { cwd: dir });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("though its failures sidecar old/rollouts_failures.jsonl exists");
  expect(refused.stderr).toContain("touch old/rollouts.jsonl");
  expect(existsSync(join(dir, "old-recovered.jsonl"))).toBe(false);
}, 120_000);
