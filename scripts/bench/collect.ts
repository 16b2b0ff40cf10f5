/**
 * Collection throughput: `gym eval run` (mcqa, openai_model → mock_model on loopback, no latency) in rollouts/s at
 * concurrency 256, beside the mock's raw request rate from a plain load loop in the same run (goal ≥ 60 %), with
 * the CPU each spends per request (all threads: user + system). Then time to first completed rollout with 10,000
 * rollouts in flight against a 1 s-latency mock (goal ≤ the latency + 1 s).
 *
 * Knobs: GYM_BENCH_ROLLOUTS (20000), GYM_BENCH_RUNS (1: raw and gym interleaved this many times, medians printed),
 * GYM_BENCH_PEER=/path/to/gym (another build, e.g. a copy of the session-start binary, measured beside dist/gym in
 * the same runs).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeMcqaDataset } from "../../src/testing/datasets.ts";
import { binary, median, requireBinary } from "./_util.ts";

requireBinary();
const here = import.meta.dir;
const bun = process.execPath;
const rollouts = Number(process.env.GYM_BENCH_ROLLOUTS ?? 20000);
const runs = Math.max(1, Number(process.env.GYM_BENCH_RUNS ?? 1));
const builds: [string, string][] = [["gym", binary], ...(process.env.GYM_BENCH_PEER ? [["peer", process.env.GYM_BENCH_PEER] as [string, string]] : [])];
const timeTool = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;

async function startMock(latencyMs: number): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(bun, [join(here, "_serve-mock.ts"), String(latencyMs)], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve) => proc.stdout!.once("data", (d: Buffer) => resolve(d.toString().trim())));
  return { url, proc };
}

function gymArgs(url: string, input: string, output: string, concurrency: number, repeats: number): string[] {
  return ["eval", "run", "--resources-server", "mcqa", "--model-type", "openai_model", "--model", "mock", "--model-url", `${url}/v1`, "--model-api-key", "x",
    "--input", input, "--num-repeats", String(repeats), "--concurrency", String(concurrency), "--output", output, "--disable-aggregation"];
}

const dir = mkdtempSync(join(tmpdir(), "gym-bench-collect-"));
const input = join(dir, "tasks.jsonl");
writeMcqaDataset(input, rollouts / 4);

// 1. Throughput, raw and gym interleaved in each run (same mock process, warmed by the first raw loop).
{
  const { url, proc } = await startMock(0);
  const raw: { rate: number; cpuMs: number }[] = [];
  const gym: Record<string, { rate: number; cpuMs: number; seconds: number }[]> = Object.fromEntries(builds.map(([name]) => [name, []]));
  for (let i = 0; i < runs; i++) {
    const [rate, cpuMs] = spawnSync(bun, [join(here, "_raw-load.ts"), url, String(rollouts), "256"], { encoding: "utf8" }).stdout.trim().split(" ").map(Number);
    raw.push({ rate: rate!, cpuMs: cpuMs! });
    for (const [name, path] of builds) {
      const usage = join(dir, "usage.txt");
      const started = performance.now();
      const args = gymArgs(url, input, join(dir, "t", "r.jsonl"), 256, 4);
      const run = timeTool ? spawnSync(timeTool, ["-f", "%U %S", "-o", usage, path, ...args], { encoding: "utf8" }) : spawnSync(path, args, { encoding: "utf8" });
      const seconds = (performance.now() - started) / 1000;
      if (run.status !== 0) throw new Error(`${name} eval run failed: ${run.stderr.slice(-500)}`);
      const cpu = timeTool ? readFileSync(usage, "utf8").trim().split("\n").pop()!.split(" ").map(Number) : [NaN, NaN];
      gym[name]!.push({ rate: rollouts / seconds, seconds, cpuMs: ((cpu[0]! + cpu[1]!) * 1000) / rollouts });
    }
  }
  proc.kill();
  const rawRate = median(raw.map((r) => r.rate));
  const runsNote = runs > 1 ? ` (median of ${runs} interleaved runs)` : "";
  console.log(`raw load loop against mock_model:   ${rawRate.toFixed(0)} requests/s (concurrency 256)${runsNote}; ${median(raw.map((r) => r.cpuMs)).toFixed(3)} ms CPU per request`);
  for (const [name, path] of builds) {
    const rate = median(gym[name]!.map((r) => r.rate));
    const ratios = gym[name]!.map((r, i) => (100 * r.rate) / raw[i]!.rate);
    const label = name === "gym" ? "gym eval run (agent + mcqa verify):" : `peer ${path}:`;
    console.log(`${label} ${rate.toFixed(0)} rollouts/s (${rollouts} rollouts in ${median(gym[name]!.map((r) => r.seconds)).toFixed(2)} s, wall time incl. start-up); ${median(gym[name]!.map((r) => r.cpuMs)).toFixed(3)} ms CPU per rollout`);
    const ratio = median(ratios);
    console.log(`  ratio: ${ratio.toFixed(0)} % of the raw request rate${runs > 1 ? ` (per run: ${ratios.map((r) => r.toFixed(0)).join(", ")})` : ""} (goal ≥ 60 %: ${ratio >= 60 ? "met" : "NOT met"})`);
  }
}

// 2. Time to first completed rollout with 10,000 in flight against a 1 s-latency mock.
{
  const latencyS = 1;
  const { url, proc } = await startMock(latencyS * 1000);
  const input10k = join(dir, "tasks10k.jsonl");
  writeMcqaDataset(input10k, 2500);
  const output = join(dir, "f", "r.jsonl");
  const firsts: Record<string, number[]> = Object.fromEntries(builds.map(([name]) => [name, []]));
  const totals: Record<string, number[]> = Object.fromEntries(builds.map(([name]) => [name, []]));
  for (let i = 0; i < runs; i++) {
    for (const [name, path] of builds) {
      rmSync(join(dir, "f"), { recursive: true, force: true });
      const started = performance.now();
      const run = spawn(path, gymArgs(url, input10k, output, 10000, 4), { stdio: "ignore" });
      const exited = new Promise<number>((resolve) => run.on("exit", (c) => resolve(c ?? 1)));
      let first = NaN;
      while (Number.isNaN(first)) {
        if (existsSync(output) && statSync(output).size > 0) first = (performance.now() - started) / 1000;
        else await new Promise((r) => setTimeout(r, 5));
        if (performance.now() - started > 60_000) break;
      }
      const code = await exited;
      if (code !== 0) throw new Error(`${name} eval run (10,000 in flight) exited ${code}`);
      firsts[name]!.push(first);
      totals[name]!.push((performance.now() - started) / 1000);
    }
  }
  proc.kill();
  for (const [name, path] of builds) {
    const first = median(firsts[name]!);
    const label = name === "gym" ? "" : ` [peer ${path}]`;
    const each = runs > 1 ? ` (per run: ${firsts[name]!.map((f) => f.toFixed(2)).join(", ")})` : "";
    console.log(`first completed rollout with 10,000 in flight (${latencyS} s mock latency)${label}: ${first.toFixed(2)} s from launch${each} (goal ≤ ${latencyS + 1} s: ${first <= latencyS + 1 ? "met" : "NOT met"}); all 10,000 in ${median(totals[name]!).toFixed(1)} s`);
  }
}
rmSync(dir, { recursive: true, force: true });
