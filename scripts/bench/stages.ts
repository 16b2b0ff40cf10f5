/**
 * Analysis stages on a large rollouts-shaped file: `gym eval aggregate`, `profile` and `health-check`
 * beside `jq` (mean reward per task) and a bare streaming JSON.parse loop on the same file.
 * Prints MB/s and peak RSS per tool. Printed, never asserted.
 *
 *   bun scripts/bench/stages.ts            # 1 GB (≥ 100,000 tasks × 8 repeats)
 *   GYM_BENCH_MB=50 bun scripts/bench/stages.ts   # smaller
 *   GYM_BENCH_ONLY=aggregate bun scripts/bench/stages.ts   # only the tools whose label matches
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const targetMb = Number(process.env.GYM_BENCH_MB ?? process.argv[2] ?? 1024);
const repeats = 8;
const root = path.join(import.meta.dir, "..", "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gym-bench-stages-"));
const rollouts = path.join(dir, "rollouts.jsonl");
const inputs = path.join(dir, "rollouts_materialized_inputs.jsonl");

/** One rollout row shaped like NeMo Gym's (prompt, response with output text and usage, reward, verifier fields). */
function row(task: number, rollout: number, filler: string): string {
  const reward = (task * 7 + rollout * 3) % 5 < 2 ? "1.0" : "0.0";
  const out = 50 + ((task + rollout) % 200);
  return `{"responses_create_params":{"input":[{"role":"user","content":"Question ${task}: ${filler}"}],"temperature":1.0},"response":{"id":"resp_${task}_${rollout}","object":"response","output":[{"type":"message","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Answer ${rollout}: ${filler}","annotations":[]}]}],"usage":{"input_tokens":${120 + (task % 50)},"input_tokens_details":{"cached_tokens":0},"output_tokens":${out},"output_tokens_details":{"reasoning_tokens":0},"total_tokens":${120 + (task % 50) + out}}},"reward":${reward},"extracted_answer":"${String.fromCharCode(65 + ((task + rollout) % 4))}","_ng_task_index":${task},"_ng_rollout_index":${rollout},"agent_ref":{"name":"bench_agent"}}\n`;
}

function generate(): { rows: number; tasks: number; bytes: number } {
  const sample = row(0, 0, "x".repeat(400));
  // The full-size run covers at least 100,000 tasks × 8 repeats.
  const tasks = Math.max(targetMb >= 1024 ? 100_000 : 100, Math.ceil((targetMb * 1024 * 1024) / sample.length / repeats));
  const filler = "lorem ipsum dolor sit amet ".repeat(15);
  const out = fs.openSync(rollouts, "w");
  const inp = fs.openSync(inputs, "w");
  let bytes = 0;
  // Completion order: repeat-major, so the file is not sorted by task (as a real run's output is not).
  for (let r = 0; r < repeats; r++) {
    let block = "";
    let inBlock = "";
    for (let t = 0; t < tasks; t++) {
      block += row(t, r, filler);
      inBlock += `{"responses_create_params":{"input":[{"role":"user","content":"Question ${t}"}]},"_ng_task_index":${t},"_ng_rollout_index":${r},"agent_ref":{"name":"bench_agent"}}\n`;
      if (block.length > 1 << 22) {
        bytes += fs.writeSync(out, block);
        fs.writeSync(inp, inBlock);
        block = inBlock = "";
      }
    }
    bytes += fs.writeSync(out, block);
    fs.writeSync(inp, inBlock);
  }
  // On disk before timing: otherwise the kernel writes the fresh GB back while the tools run (seconds of noise).
  fs.fsyncSync(out);
  fs.fsyncSync(inp);
  fs.closeSync(out);
  fs.closeSync(inp);
  return { rows: tasks * repeats, tasks, bytes };
}

/** Runs a command under /usr/bin/time -v: wall seconds and peak resident memory. */
function measure(label: string, command: string[], inputBytes: number): void {
  if (process.env.GYM_BENCH_ONLY && !new RegExp(process.env.GYM_BENCH_ONLY).test(label)) return;
  const start = performance.now();
  // time -o: a Bun child leaves the shared stderr pipe non-blocking, which truncates time's own report.
  const timing = path.join(dir, "time.txt");
  const result = spawnSync("/usr/bin/time", ["-v", "-o", timing, ...command], { encoding: "utf8", maxBuffer: 1 << 26 });
  const seconds = (performance.now() - start) / 1000;
  const report = fs.readFileSync(timing, "utf8");
  const peak = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(report)?.[1] ?? NaN) / 1024;
  // CPU seconds (user + system): steadier than wall time on a shared machine.
  const cpu = Number(/User time \(seconds\): ([\d.]+)/.exec(report)?.[1] ?? NaN) + Number(/System time \(seconds\): ([\d.]+)/.exec(report)?.[1] ?? NaN);
  const status = result.status === 0 ? "" : `  (exit ${result.status}: ${result.stderr.split("\n").slice(0, 3).join(" / ")})`;
  console.log(`${label.padEnd(34)} ${(inputBytes / 1048576 / seconds).toFixed(1).padStart(7)} MB/s  ${seconds.toFixed(2).padStart(7)} s  cpu ${cpu.toFixed(2).padStart(6)} s  peak ${peak.toFixed(0).padStart(6)} MB${status}`);
}

const { rows, tasks, bytes } = generate();
console.log(`Generated ${(bytes / 1048576).toFixed(0)} MB: ${tasks} tasks × ${repeats} repeats = ${rows} rows in ${dir}`);
const bun = process.execPath;
const gym = [bun, path.join(root, "src", "main.ts")];
const parseLoop = path.join(dir, "parse-loop.ts");
fs.writeFileSync(
  parseLoop,
  `import { createReadStream } from "node:fs"; import { createInterface } from "node:readline";
const sums = new Map(); for await (const line of createInterface({ input: createReadStream(process.argv[2]) })) { if (!line) continue; const r = JSON.parse(line); const s = sums.get(r._ng_task_index) ?? [0, 0]; s[0] += r.reward; s[1]++; sums.set(r._ng_task_index, s); }
let total = 0; for (const [, [s, n]] of sums) total += s / n; console.log(sums.size, total / sums.size);\n`,
);
measure("bare JSON.parse loop (bun)", [bun, parseLoop, rollouts], bytes);
// jq: pairs then group_by (a reduce into an object keyed by task is quadratic in jq at 100k tasks).
measure("jq mean reward per task", ["jq", "-n", "[inputs | [._ng_task_index, .reward]] | group_by(.[0]) | map((map(.[1]) | add) / length) | length", rollouts], bytes);
measure("gym eval aggregate", [...gym, "eval", "aggregate", "--input-glob", rollouts, "--output", path.join(dir, "merged.jsonl")], bytes);
// The command also health-checks the merged file (as NeMo Gym does); the stage alone, for comparison.
const stageOnly = `const { aggregateShards } = await import(${JSON.stringify(path.join(root, "src", "stages", "aggregate.ts"))}); await aggregateShards({ inputs: [process.argv[1]], output: process.argv[2] });`;
measure("  aggregate stage (no health pass)", [bun, "-e", stageOnly, rollouts, path.join(dir, "stage", "merged.jsonl")], bytes);
measure("gym eval profile", [...gym, "eval", "profile", "--inputs", inputs, "--rollouts", rollouts], bytes);
measure("gym eval health-check", [...gym, "eval", "health-check", dir], bytes);
fs.rmSync(dir, { recursive: true, force: true });
