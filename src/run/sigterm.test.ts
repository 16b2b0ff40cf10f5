/** SIGTERM (what Slurm sends at walltime) on `gym eval run`: drain, then exit non-zero even without require_complete. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import mockModel from "../components/responses_api_models/mock_model/index.ts";
import { serve, type ServedApp } from "../runtime/serve.ts";
import { ensureBinary, gym, gymBinary } from "../testing/binary.ts";
import { writeMcqaDataset } from "../testing/datasets.ts";

const context = { name: "upstream", serverType: "responses_api_models", implementation: "mock_model", servers: { get: () => { throw new Error("no peers"); } }, globalConfig: {} } as const;
const rows = (path: string) => (existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)) : []);
let upstream: ServedApp;
let dir: string;

beforeAll(async () => {
  await ensureBinary();
  upstream = await serve((await mockModel({ model: "mock", latency_ms: 150 }, context as never)).fetch);
  dir = mkdtempSync(join(tmpdir(), "gym-sigterm-"));
  writeMcqaDataset(join(dir, "tasks.jsonl"), 20);
}, 120_000);
afterAll(() => upstream?.stop());

const args = (extra: string[]) => [
  "eval", "run", "--resources-server", "mcqa", "--model-type", "openai_model", "--model", "mock", "--model-url", `${upstream.url}/v1`,
  "--model-api-key", "sk-test", "--input", join(dir, "tasks.jsonl"), "--num-repeats", "2", "--concurrency", "2", "--output", join(dir, "out", "r.jsonl"), ...extra,
];

test("SIGTERM twice mid-run: in-flight rollouts drain, exit 75 without +require_complete, and --resume completes it exactly once", async () => {
  const proc = Bun.spawn([gymBinary, ...args([])], { cwd: dir, stdout: "ignore", stderr: "pipe", env: { ...process.env, NO_COLOR: "1" } });
  const out = join(dir, "out", "r.jsonl");
  while (rows(out).length < 4) await Bun.sleep(50);
  proc.kill("SIGTERM");
  await Bun.sleep(20);
  proc.kill("SIGTERM"); // Slurm signals every process and the job script forwards it: a second one must not abort the drain
  const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  expect(stderr).toContain("SIGTERM: no new rollouts start");
  expect(code).toBe(75);
  expect(stderr).toContain("Incomplete (exit 75, stopped by SIGTERM)");
  expect(stderr).toContain("Resume with:\n  gym eval run ");
  const partial = rows(out).length;
  expect(partial).toBeLessThan(40);
  const resumed = await gym(args(["--resume"]), { cwd: dir });
  expect(resumed.code).toBe(0);
  const ids = rows(out).map((r) => `${r._ng_task_index}-${r._ng_rollout_index}`);
  expect(ids.length).toBe(40);
  expect(new Set(ids).size).toBe(40);
}, 60_000);
