/**
 * The response cache: (1) what one model call costs through postUpstream against mock_model on loopback — no
 * cache (the peer: what every call costs without one), a cache miss (lookup + send + store) and a cache hit;
 * (2) `gym eval run` of 10,000 rollouts (mcqa, openai_model → mock_model) uncached, with --cache on an empty
 * cache (all misses) and with --cache again (all hits), as wall times and ratios.
 *
 * Knobs: GYM_BENCH_CALLS (2000 calls per variant in part 1), GYM_BENCH_ROLLOUTS (10000), GYM_BENCH_LATENCY_MS
 * (mock latency in part 2, default 1000: a short generation), GYM_BENCH_RUNS (1; medians of interleaved runs).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { disableResponseCache, enableResponseCache, runInCallScope } from "../../src/servers/calls/cache/index.ts";
import { postUpstream } from "../../src/servers/upstream.ts";
import { writeMcqaDataset } from "../../src/testing/datasets.ts";
import { binary, median, requireBinary } from "./_util.ts";

requireBinary();
const here = import.meta.dir;
const calls = Number(process.env.GYM_BENCH_CALLS ?? 2000);
const rollouts = Number(process.env.GYM_BENCH_ROLLOUTS ?? 10000);
const latencyMs = Number(process.env.GYM_BENCH_LATENCY_MS ?? 1000);
const runs = Math.max(1, Number(process.env.GYM_BENCH_RUNS ?? 1));
const dir = mkdtempSync(join(tmpdir(), "gym-bench-cache-"));

async function startMock(latency: number): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(process.execPath, [join(here, "_serve-mock.ts"), String(latency)], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve) => proc.stdout!.once("data", (d: Buffer) => resolve(d.toString().trim())));
  return { url, proc };
}

// 1. One call, sequentially, so the per-call cost is not hidden by overlap.
{
  const { url, proc } = await startMock(0);
  const endpoint = `${url}/v1/chat/completions`;
  const body = (i: number) => ({ model: "mock", messages: [{ role: "user", content: `question ${i}` }], temperature: 1 });
  const perCall = async (label: string, prefix: string) => {
    const started = performance.now();
    for (let i = 0; i < calls; i++) await runInCallScope(0, () => postUpstream(endpoint, body(i), { apiKey: "x" })).result;
    const us = ((performance.now() - started) * 1000) / calls;
    return { label: `${prefix}${label}`, us };
  };
  for (let i = 0; i < 200; i++) await postUpstream(endpoint, body(-i), {}); // warm the connection pool
  const results: Record<string, number[]> = { none: [], miss: [], hit: [] };
  for (let r = 0; r < runs; r++) {
    await disableResponseCache();
    results.none!.push((await perCall("none", "")).us);
    const path = join(dir, `part1-${r}.sqlite`);
    enableResponseCache({ expiryMs: 3_600_000, path });
    results.miss!.push((await perCall("miss", "")).us);
    results.hit!.push((await perCall("hit", "")).us);
    await disableResponseCache();
  }
  proc.kill();
  const none = median(results.none!);
  const miss = median(results.miss!);
  const hit = median(results.hit!);
  console.log(`one model call through postUpstream, mock_model on loopback (no latency), ${calls} calls in sequence${runs > 1 ? `, median of ${runs}` : ""}:`);
  console.log(`  no cache (the peer):  ${none.toFixed(0)} µs per call`);
  console.log(`  cache miss:           ${miss.toFixed(0)} µs per call (${(miss - none).toFixed(0)} µs lookup + store; ${(miss / none).toFixed(2)}× the uncached call)`);
  console.log(`  cache hit:            ${hit.toFixed(0)} µs per call (${(hit / none).toFixed(2)}× the uncached call, ${(none / hit).toFixed(1)}× faster)`);
}

// 2. A whole run, uncached vs cached.
{
  const { url, proc } = await startMock(latencyMs);
  const input = join(dir, "tasks.jsonl");
  writeMcqaDataset(input, rollouts / 4);
  const cacheDir = join(dir, "cache");
  const run = (name: string, extra: string[]) => {
    const args = ["eval", "run", "--resources-server", "mcqa", "--model-type", "openai_model", "--model", "mock", "--model-url", `${url}/v1`, "--model-api-key", "x",
      "--input", input, "--num-repeats", "4", "--concurrency", "256", "--output", join(dir, name, "r.jsonl"), "--disable-aggregation", ...extra];
    const started = performance.now();
    const out = spawnSync(binary, args, { encoding: "utf8", env: { ...process.env, NEMO_GYM_CACHE_DIR: cacheDir } });
    if (out.status !== 0) throw new Error(`gym eval run ${name} failed: ${out.stderr.slice(-800)}`);
    return (performance.now() - started) / 1000;
  };
  const times: Record<string, number[]> = { uncached: [], miss: [], hit: [] };
  for (let r = 0; r < runs; r++) {
    rmSync(cacheDir, { recursive: true, force: true });
    times.uncached!.push(run(`u${r}`, []));
    times.miss!.push(run(`m${r}`, ["--cache"]));
    times.hit!.push(run(`h${r}`, ["--cache"]));
  }
  proc.kill();
  const [u, m, h] = [median(times.uncached!), median(times.miss!), median(times.hit!)];
  console.log(`gym eval run, ${rollouts} rollouts (mcqa, openai_model → mock_model with ${latencyMs} ms latency, concurrency 256), wall time incl. start-up${runs > 1 ? `, median of ${runs}` : ""}:`);
  console.log(`  no cache:                 ${u.toFixed(2)} s`);
  console.log(`  --cache, empty (misses):  ${m.toFixed(2)} s (${(m / u).toFixed(2)}× the uncached run)`);
  console.log(`  --cache, full (hits):     ${h.toFixed(2)} s (${(h / u).toFixed(2)}× the uncached run, ${(u / h).toFixed(1)}× faster; 0 model calls)`);
}
rmSync(dir, { recursive: true, force: true });
