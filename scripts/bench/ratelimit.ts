/**
 * Rate limits: `gym eval run --concurrency 256` (mcqa, openai_model) against a provider that allows 24 calls in
 * flight (429 with Retry-After: 1 beyond that) at 100 ms per call — adaptive (the default), beside the fixed-
 * concurrency baseline (--no-adaptive: every rollout calls at once, as before) and a user who knows the limit and
 * sets --concurrency 24 --no-adaptive. Each is printed as wall time against the limit-bound ideal
 * (rollouts / 24 × 100 ms), with the 429 share of successful calls and the effective concurrency the run reports.
 * A last run changes the limit mid-run (24 → 8 → 32, a third of the calls each) with its own ideal. "rate" is the
 * provider's view (calls served from its first call to its last answer, so process start-up is left out), "wall" the
 * user's (the whole command).
 *
 * Knobs: GYM_BENCH_ROLLOUTS (4000), GYM_BENCH_LATENCY_MS (100), GYM_BENCH_LIMIT (24), GYM_BENCH_PEER=/path/to/gym
 * (another build, e.g. the one before adaptive concurrency: run with --concurrency 256 beside the others).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "../../src/runtime/serve.ts";
import { writeMcqaDataset } from "../../src/testing/datasets.ts";
import { rateLimitedEndpoint } from "../../src/testing/rate-limited-endpoint.ts";
import { binary, requireBinary } from "./_util.ts";

requireBinary();
const rollouts = Number(process.env.GYM_BENCH_ROLLOUTS ?? 4000);
const latencyMs = Number(process.env.GYM_BENCH_LATENCY_MS ?? 100);
const limit = Number(process.env.GYM_BENCH_LIMIT ?? 24);
const dir = mkdtempSync(join(tmpdir(), "gym-bench-ratelimit-"));
writeMcqaDataset(join(dir, "tasks.jsonl"), rollouts);

function gym(args: string[], exe = binary): Promise<{ code: number; seconds: number }> {
  const start = performance.now();
  const child = spawn(exe, args, { cwd: dir, stdio: ["ignore", "ignore", "ignore"] });
  return new Promise((resolve) => child.on("close", (code) => resolve({ code: code ?? 1, seconds: (performance.now() - start) / 1000 })));
}

interface Row {
  scenario: string;
  seconds: number;
  /** Seconds from the provider's first call to its last answer. */
  span: number;
  ideal: number;
  served: number;
  rateLimited: number;
  failed: number;
  effective: number | null;
}

async function scenario(name: string, flags: string[], phases: number[] = [limit], exe = binary): Promise<Row> {
  const endpoint = rateLimitedEndpoint({ maxInFlight: phases[0], latencyMs, retryAfterS: 1 });
  const served = await serve(endpoint.fetch);
  const per = Math.ceil(rollouts / phases.length);
  const watch = setInterval(() => endpoint.setMaxInFlight(phases[Math.min(phases.length - 1, Math.floor(endpoint.stats.served / per))]!), 2);
  const out = name.replace(/\W+/g, "-");
  const run = await gym(["eval", "run", "--resources-server", "mcqa", "--model-type", "openai_model", "--model", "m", "--model-url", `${served.url}/v1`, "--model-api-key", "sk-bench",
    "--input", "tasks.jsonl", "-o", `${out}/rollouts.jsonl`, "+route_failures_to_sidecar=true", ...flags,
    // The mock is on loopback, where adaptive concurrency is off by default (a self-hosted endpoint): ask for it.
    ...(flags.includes("--no-adaptive") ? [] : ["+adaptive_concurrency=true"])], exe);
  clearInterval(watch);
  await served.stop();
  const status = JSON.parse(readFileSync(join(dir, out, "rollouts_batch_status.json"), "utf8"));
  const ideal = phases.reduce((sum, n) => sum + (per / n) * (latencyMs / 1000), 0);
  return {
    scenario: name,
    seconds: run.seconds,
    span: ((endpoint.stats.lastServedAt ?? 0) - (endpoint.stats.firstCallAt ?? 0)) / 1000,
    ideal,
    served: endpoint.stats.served,
    rateLimited: endpoint.stats.rateLimited,
    failed: Object.values(status.failures_by_class as Record<string, number>).reduce((a, b) => a + b, 0),
    effective: status.model_calls?.effective_concurrency ?? null,
  };
}

console.log(`${rollouts} rollouts, provider: ${limit} calls in flight (429 + Retry-After: 1 beyond), ${latencyMs} ms per call; limit-bound ideal ${((rollouts / limit) * latencyMs / 1000).toFixed(1)} s`);
const rows: Row[] = [];
for (const [name, flags, phases, exe] of [
  ["gym adaptive, --concurrency 256", ["--concurrency", "256"]],
  ["gym --no-adaptive, --concurrency 256 (fixed baseline)", ["--concurrency", "256", "--no-adaptive"]],
  [`gym --no-adaptive, --concurrency ${limit} (limit known)`, ["--concurrency", String(limit), "--no-adaptive"]],
  ["gym adaptive, limit 24 → 8 → 32", ["--concurrency", "256"], [24, 8, 32]],
  ...(process.env.GYM_BENCH_PEER ? [["peer build, --concurrency 256", ["--concurrency", "256"], undefined, process.env.GYM_BENCH_PEER]] : []),
] as [string, string[], number[] | undefined, string | undefined][]) {
  const row = await scenario(name, flags, phases, exe ?? binary);
  rows.push(row);
  console.log(
    `${row.scenario.padEnd(56)} rate ${(row.ideal / row.span).toFixed(2)}× of ideal (${row.span.toFixed(1)} s)  wall ${row.seconds.toFixed(1).padStart(5)} s = ${(row.ideal / row.seconds).toFixed(2)}×  ideal ${row.ideal.toFixed(1)} s  ` +
      `429s ${String(row.rateLimited).padStart(6)} = ${((100 * row.rateLimited) / Math.max(1, row.served)).toFixed(1).padStart(5)}% of successful  effective concurrency ${row.effective ?? "-"}  failed rollouts ${row.failed}`,
  );
}
const [adaptive, fixed] = rows;
console.log(`adaptive vs fixed baseline: ${(fixed!.seconds / adaptive!.seconds).toFixed(2)}× faster, ${fixed!.rateLimited} → ${adaptive!.rateLimited} 429s`);
rmSync(dir, { recursive: true, force: true });
