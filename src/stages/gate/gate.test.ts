import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { XMLParser } from "fast-xml-parser";
import { serve, type ServedApp } from "../../runtime/serve.ts";
import { ensureBinary, gym } from "../../testing/binary.ts";
import { writeMcqaDataset } from "../../testing/datasets.ts";
import { usageModel } from "../../testing/usage-model.ts";

let upstream: ServedApp;
let dir: string;
let original: string;
let halved: string;

beforeAll(async () => {
  await ensureBinary();
  upstream = await serve(usageModel("gpt-4.1-mini-2025-04-14").fetch);
  dir = mkdtempSync(join(tmpdir(), "gym-gate-e2e-"));
  // Every task's answer is A, which the endpoint always gives: the original run scores 1 everywhere.
  writeMcqaDataset(join(dir, "raw.jsonl"), 12);
  const rows = readFileSync(join(dir, "raw.jsonl"), "utf8").trimEnd().split("\n").map((l) => ({ ...JSON.parse(l), expected_answer: "A" }));
  writeFileSync(join(dir, "tasks.jsonl"), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  original = join(dir, "original", "rollouts.jsonl");
  const r = await gym(["eval", "run", "--resources-server", "mcqa", "--model-type", "openai_model", "--model", "gpt-4.1-mini", "--model-url", `${upstream.url}/v1`, "--model-api-key", "sk-test", "--input", join(dir, "tasks.jsonl"), "--num-repeats", "2", "--concurrency", "4", "--output", original], { cwd: dir });
  expect(r.code).toBe(0);
  // The same run with half its rewards lost (tasks 0–5 score 0), re-aggregated by gym eval aggregate.
  const lost = readFileSync(original, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l)).map((row) => (row._ng_task_index < 6 ? { ...row, reward: 0 } : row));
  mkdirSync(join(dir, "halved"));
  writeFileSync(join(dir, "halved-input.jsonl"), lost.map((row) => JSON.stringify(row)).join("\n") + "\n");
  halved = join(dir, "halved", "rollouts.jsonl");
  const a = await gym(["eval", "aggregate", "--input-glob", join(dir, "halved-input.jsonl"), "--output", halved], { cwd: dir });
  expect(a.code).toBe(0);
}, 120_000);

afterAll(async () => {
  await upstream?.stop();
});

describe("gym eval gate (compiled binary)", () => {
  test("exits 0 when every check passes, 100 when one fails; the JUnit file parses as a failing testsuite", async () => {
    const pass = await gym(["eval", "gate", join(dir, "original"), "--min", "mean/reward=0.9", "--max-error-rate", "0", "--max-cost", "1"]);
    expect(pass.stdout).toContain("passed");
    expect(pass.code).toBe(0);

    const junit = join(dir, "gate.xml");
    const fail = await gym(["eval", "gate", original, "--min", "mean/reward=0.9", "--max", "mean/reward=0.5", "--junit", junit, "--json"]);
    expect(fail.code).toBe(100);
    const report = JSON.parse(fail.stdout);
    expect(report.passed).toBe(false);
    expect(report.checks.map((c: { passed: boolean }) => c.passed)).toEqual([true, false]);
    const xml = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(junit, "utf8"));
    const suite = xml.testsuites.testsuite;
    expect(suite["@_tests"]).toBe("2");
    expect(suite["@_failures"]).toBe("1");
    expect(suite.testcase[1].failure["@_message"]).toContain("at most 0.5 required");
    expect(suite.testcase[0].failure).toBeUndefined();
  }, 60_000);

  test("a run that lost half its rewards fails --max-regression against the original; the original passes against itself", async () => {
    const self = await gym(["eval", "gate", original, "--baseline", original, "--max-regression", "mean/reward=0.05", "--json"]);
    expect(self.code).toBe(0);
    const worse = await gym(["eval", "gate", halved, "--baseline", join(dir, "original"), "--max-regression", "mean/reward=0.05", "--json"]);
    expect(worse.code).toBe(100);
    const check = JSON.parse(worse.stdout).checks[0];
    expect(check.regression.method).toBe("paired");
    expect(check.regression.delta).toBeCloseTo(-0.5, 12);
    expect(check.regression.beyond_noise).toBe(true);
    expect(check.regression.tasks).toBe(12);
    // A tolerance larger than the drop passes.
    expect((await gym(["eval", "gate", halved, "--baseline", original, "--max-regression", "mean/reward=0.6"])).code).toBe(0);
  }, 60_000);

  test("with GITHUB_STEP_SUMMARY set, a Markdown summary is appended to it", async () => {
    const summary = join(dir, "step-summary.md");
    writeFileSync(summary, "earlier step\n");
    const r = await gym(["eval", "gate", halved, "--min", "mean/reward=0.9"], { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(r.code).toBe(100);
    const text = readFileSync(summary, "utf8");
    expect(text.startsWith("earlier step\n### gym eval gate: ❌ failed (1 of 1 checks)")).toBe(true);
    expect(text).toContain("| ❌ | min mean/reward (mcqa_simple_agent) | mean/reward = 0.5, at least 0.9 required |");
  }, 60_000);

  test("bad input exits 1: a missing run, a metric the run does not have", async () => {
    expect((await gym(["eval", "gate", join(dir, "nowhere"), "--min", "mean/reward=1"])).code).toBe(1);
    const typo = await gym(["eval", "gate", original, "--min", "mean/rewrd=1"]);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain("Metrics of the run: mean/reward");
  }, 60_000);

  test("--max-cost refuses a run whose own prices file cannot be found, rather than pricing it with the built-in table", async () => {
    const work = join(dir, "priced-work");
    mkdirSync(work, { recursive: true });
    writeFileSync(join(work, "my-prices.yaml"), "gpt-4.1-mini-2025-04-14: {input: 1000, output: 1000}\n");
    const priced = join(dir, "priced", "rollouts.jsonl");
    const r = await gym(["eval", "run", "--resources-server", "mcqa", "--model-type", "openai_model", "--model", "gpt-4.1-mini", "--model-url", `${upstream.url}/v1`, "--model-api-key", "sk-test", "--input", join(dir, "tasks.jsonl"), "--concurrency", "4", "--prices", "my-prices.yaml", "--output", priced], { cwd: work });
    expect(r.code).toBe(0);
    // From the folder the run was started in, the run's prices are found: at 1000 USD per million tokens it costs more than 0.000001.
    const here = await gym(["eval", "gate", priced, "--max-cost", "0.000001"], { cwd: work });
    expect(here.code).toBe(100);
    // From elsewhere the file is not found: refused, naming the file and the flag that fixes it.
    const elsewhere = await gym(["eval", "gate", priced, "--max-cost", "1000000"], { cwd: dir });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain("my-prices.yaml");
    expect(elsewhere.stderr).toContain("--prices");
    const named = await gym(["eval", "gate", priced, "--max-cost", "1000000", "--prices", join(work, "my-prices.yaml")], { cwd: dir });
    expect(named.code).toBe(0);
  }, 120_000);
});
