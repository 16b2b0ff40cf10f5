/**
 * Judged collection: `gym eval run` on simpleqa (openai_model policy → mock, openai_model judge `genrm_model` →
 * mock, both on loopback with the same latency) in rollouts/s and peak judge calls in flight, beside the same
 * run unjudged (simple_agent `skip_verification`) in the same process tree, one run each.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeSimpleQADataset } from "../../src/testing/judge-mocks.ts";
import { binary, requireBinary } from "./_util.ts";

requireBinary();
const rollouts = Number(process.env.GYM_BENCH_ROLLOUTS ?? 4000);
const latencyMs = Number(process.env.GYM_BENCH_LATENCY_MS ?? 20);
const concurrency = 256;
const dir = mkdtempSync(join(tmpdir(), "gym-bench-judge-"));
writeSimpleQADataset(join(dir, "tasks.jsonl"), rollouts);

const mocks = spawn(process.execPath, [join(import.meta.dir, "_serve-judge-mocks.ts"), String(latencyMs)], { stdio: ["ignore", "pipe", "inherit"] });
const [policyUrl, judgeUrl] = await new Promise<string[]>((resolve) => mocks.stdout!.once("data", (d: Buffer) => resolve(d.toString().trim().split(" "))));
writeFileSync(join(dir, "judge.yaml"), `genrm_model:\n  responses_api_models:\n    openai_model:\n      entrypoint: app.py\n      openai_base_url: ${judgeUrl}/v1\n      openai_api_key: x\n      openai_model: judge\n`);

function run(name: string, extra: string[]): number {
  const args = ["eval", "run", "--resources-server", "simpleqa", "--model-type", "openai_model", "--model", "policy", "--model-url", `${policyUrl}/v1`, "--model-api-key", "x",
    "--config", join(dir, "judge.yaml"), "--input", join(dir, "tasks.jsonl"), "--concurrency", String(concurrency), "-o", join(dir, name, "r.jsonl"), "--disable-aggregation", ...extra];
  const started = performance.now();
  const r = spawnSync(binary, args, { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`gym eval run failed: ${r.stderr.slice(-800)}`);
  return rollouts / ((performance.now() - started) / 1000);
}

try {
  const unjudged = run("unjudged", ["++simpleqa_simple_agent.responses_api_agents.simple_agent.skip_verification=true"]);
  const judged = run("judged", []);
  const stats = (await (await fetch(`${judgeUrl}/stats`)).json()) as { calls: number; maxInFlight: number };
  console.log(`mock latency ${latencyMs} ms per policy call and per judge call, ${rollouts} rollouts, --concurrency ${concurrency}`);
  console.log(`unjudged run (skip_verification):   ${unjudged.toFixed(0)} rollouts/s`);
  console.log(`judged run (simpleqa → genrm_model): ${judged.toFixed(0)} rollouts/s, ${stats.calls} judge calls, peak ${stats.maxInFlight} judge calls in flight`);
  console.log(`ratio: judged = ${((100 * judged) / unjudged).toFixed(0)} % of unjudged (each judged rollout waits for two calls of ${latencyMs} ms instead of one)`);
} finally {
  mocks.kill();
}
