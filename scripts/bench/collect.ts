/**
 * Collection throughput: `gym eval run` (mcqa, openai_model → mock_model on loopback, no latency) in rollouts/s at
 * concurrency 256, beside the mock's raw request rate from a plain load loop in the same run (goal ≥ 60 %), with
 * the CPU each spends per request (all threads: user + system). Then time to first completed rollout with 10,000
 * rollouts in flight against a 1 s-latency mock (goal ≤ the latency + 1 s).
 *
 * Knobs: GYM_BENCH_ROLLOUTS (20000), GYM_BENCH_RUNS (1: raw and gym interleaved this many times, medians printed),
 * GYM_BENCH_PEER=/path/to/gym (another build, e.g. a copy of the session-start binary, measured beside dist/gym in
 * the same runs).
 *
 * Scale mode: `bun scripts/bench/collect.ts --rollouts 1000000` runs one collection of that many rollouts against the
 * mock (concurrency 256) and prints its throughput per tenth of the run (flat is the goal: no O(n) work per rollout),
 * its peak RSS (goal < 500 MB), then cuts the last tenth of the rollouts file off (as a killed run leaves it) and
 * times `--resume` from its start to its first new rollout on disk (goal < 5 s). GYM_BENCH_BINARY=/path/to/gym runs
 * another build than dist/gym in this mode. The RSS is also sampled by phase (start-up, dispatch, end of run).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync, truncateSync } from "node:fs";
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

const scaleAt = process.argv.indexOf("--rollouts");
if (scaleAt > 0) {
  await scaleRun(Number(process.argv[scaleAt + 1]));
  process.exit(0);
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

/** Lines in a file (newline bytes), counted from `from` on: returns the new count and the size read up to. */
function countLines(path: string, from: number, lines: number): [number, number] {
  if (!existsSync(path)) return [lines, from];
  const size = statSync(path).size;
  if (size <= from) return [lines, from];
  const fd = openSync(path, "r");
  const buffer = Buffer.allocUnsafe(1 << 20);
  let at = from;
  while (at < size) {
    const n = readSync(fd, buffer, 0, Math.min(buffer.length, size - at), at);
    if (n <= 0) break;
    for (let i = 0; i < n; i++) if (buffer[i] === 10) lines++;
    at += n;
  }
  closeSync(fd);
  return [lines, at];
}

async function scaleRun(total: number): Promise<void> {
  if (!(total >= 40 && total % 4 === 0)) throw new Error("--rollouts N needs a multiple of 4, at least 40");
  const dir = mkdtempSync(join(tmpdir(), "gym-bench-scale-"));
  const input = join(dir, "tasks.jsonl");
  writeMcqaDataset(input, total / 4);
  const { url, proc } = await startMock(0);
  const output = join(dir, "r", "rollouts.jsonl");
  const args = gymArgs(url, input, output, 256, 4);
  const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  console.log(`scale: ${total.toLocaleString("en-US")} rollouts, concurrency 256, mock on loopback; load average before: ${load()}`);
  const usage = join(dir, "usage.txt");
  const started = performance.now();
  const gym = process.env.GYM_BENCH_BINARY ?? binary;
  const run = timeTool ? spawn(timeTool, ["-f", "%M %U %S", "-o", usage, gym, ...args], { stdio: "ignore" }) : spawn(gym, args, { stdio: "ignore" });
  const exited = new Promise<number>((resolve) => run.on("exit", (code) => resolve(code ?? 1)));
  let done = false;
  void exited.then(() => (done = true));
  // The time each tenth of the rollouts was on disk.
  const marks: number[] = [];
  let lines = 0;
  let read = 0;
  let first = NaN;
  // The RSS of the gym process (under /usr/bin/time: its child) by phase: start-up (no row yet), dispatch, the end.
  const peaks = { startup: 0, dispatch: 0, end: 0 };
  const rssOf = (): number => {
    try {
      const pid = timeTool ? readFileSync(`/proc/${run.pid}/task/${run.pid}/children`, "utf8").trim().split(" ")[0] : String(run.pid);
      return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
    } catch {
      return 0;
    }
  };
  while (!done) {
    await new Promise((r) => setTimeout(r, 200));
    [lines, read] = countLines(output, read, lines);
    const now = (performance.now() - started) / 1000;
    if (lines > 0 && Number.isNaN(first)) first = now;
    while (marks.length < 10 && lines >= ((marks.length + 1) * total) / 10) marks.push(now);
    const phase = lines === 0 ? "startup" : lines < total ? "dispatch" : "end";
    peaks[phase] = Math.max(peaks[phase], rssOf());
  }
  const code = await exited;
  const wall = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`gym eval run (${total} rollouts) exited ${code}`);
  [lines, read] = countLines(output, read, lines);
  while (marks.length < 10) marks.push(wall);
  const [rssKb, user, system] = timeTool ? readFileSync(usage, "utf8").trim().split("\n").pop()!.split(" ").map(Number) : [NaN, NaN, NaN];
  const rates = marks.map((t, i) => total / 10 / (t - (i === 0 ? first : marks[i - 1]!)));
  console.log(`  throughput per tenth (rollouts/s): ${rates.map((r) => r.toFixed(0)).join(", ")} (the first tenth timed from the first row on disk, ${first.toFixed(2)} s after launch)`);
  console.log(`  last tenth / first tenth: ${((100 * rates[9]!) / rates[0]!).toFixed(0)} % (goal: flat); all ${total.toLocaleString("en-US")} in ${wall.toFixed(1)} s; ${(((user! + system!) * 1000) / total).toFixed(3)} ms CPU per rollout`);
  console.log(`  peak RSS: ${(rssKb! / 1024).toFixed(0)} MB (goal < 500 MB; sampled every 0.2 s: start-up ${peaks.startup.toFixed(0)}, dispatch ${peaks.dispatch.toFixed(0)}, end ${peaks.end.toFixed(0)} MB); load average after: ${load()}`);
  // A killed run: the last tenth of the rollouts is not on disk. --resume reads the inventory and dispatches it again.
  const text = readFileSync(output);
  let cut = 0;
  for (let i = 0, seen = 0; i < text.length; i++) if (text[i] === 10 && ++seen === total - total / 10) cut = i + 1;
  truncateSync(output, cut);
  const resumeStarted = performance.now();
  const resume = spawn(gym, [...args, "--resume"], { stdio: "ignore" });
  const resumeExited = new Promise<number>((resolve) => resume.on("exit", (c) => resolve(c ?? 1)));
  let firstResumed = NaN;
  while (Number.isNaN(firstResumed) && performance.now() - resumeStarted < 120_000) {
    if (statSync(output).size > cut) firstResumed = (performance.now() - resumeStarted) / 1000;
    else await new Promise((r) => setTimeout(r, 10));
  }
  const resumeCode = await resumeExited;
  const resumeWall = (performance.now() - resumeStarted) / 1000;
  proc.kill();
  if (resumeCode !== 0) throw new Error(`gym eval run --resume exited ${resumeCode}`);
  console.log(`  --resume with ${(total / 10).toLocaleString("en-US")} of ${total.toLocaleString("en-US")} rollouts left: first new rollout on disk ${firstResumed.toFixed(2)} s after start (goal < 5 s); done in ${resumeWall.toFixed(1)} s`);
  rmSync(dir, { recursive: true, force: true });
}
