/**
 * Analysis stages on every row shape of `_shapes.ts`: `gym eval aggregate`, `profile`, `health-check` and
 * reverify's reading of its inputs, beside a bare streaming JSON.parse loop (Bun), a Python orjson loop and jq
 * (mean reward per task), all on the same file in one run. Per tool: MB/s, wall, CPU (user + system) and peak
 * RSS, and the ratios to the bare loop (goals: wall ≤ 1.0×, CPU ≤ 1.2×), to orjson (≥ 2×) and to jq (≥ 5×), in wall
 * and CPU time (on a loaded machine CPU is the steadier one). Reverify's reading is set beside a bare loop over
 * its own input (the materialized inputs); the row reader alone shows what the stages pay for reading.
 * Tools run interleaved, `GYM_BENCH_RUNS` times each (default 1; the median is shown). Printed, never asserted.
 *
 *   bun scripts/bench/stages.ts                      # 200 MB per shape, shapes a–d
 *   GYM_BENCH_MB=1024 GYM_BENCH_SHAPES=c bun scripts/bench/stages.ts
 *   GYM_BENCH_ONLY='aggregate|bare' bun scripts/bench/stages.ts   # only the tools whose label matches
 *   GYM_BENCH_BASE=/tmp/base bun scripts/bench/stages.ts   # also "base:" rows: dist/gym and scripts of another checkout (before/after in one run)
 *
 * With GYM_BENCH_BASE, every file the stages write (merged copy, metrics, sources, verdicts, summaries,
 * profile files) is compared byte for byte with the base build's, from the last run of each, and any
 * difference is printed (with its first differing byte).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type Shape, shapeFiles, SHAPES } from "./_shapes.ts";

const mb = Number(process.env.GYM_BENCH_MB ?? 200);
const shapes = (process.env.GYM_BENCH_SHAPES?.split(",") as Shape[] | undefined) ?? [...SHAPES];
const runs = Number(process.env.GYM_BENCH_RUNS ?? 1);
const root = path.join(import.meta.dir, "..", "..");
const bench = path.join(root, ".bench");
const bun = process.execPath;
// GYM_BENCH_BIN: another gym binary (a copy, while dist/ is being rebuilt); GYM_BENCH_SOURCE: run the sources.
const built = process.env.GYM_BENCH_BIN ?? path.join(root, "dist", "gym");
const gym = fs.existsSync(built) && !process.env.GYM_BENCH_SOURCE ? [built] : [bun, path.join(root, "src", "main.ts")];

interface Measured {
  wall: number;
  cpu: number;
  peak: number;
  error?: string;
}

/** Runs a command under /usr/bin/time -v: wall seconds, CPU seconds and peak resident memory. */
function measure(command: string[], work: string, cwd = work): Measured {
  const timing = path.join(work, "time.txt");
  const start = performance.now();
  // time -o: a Bun child leaves the shared stderr pipe non-blocking, which truncates time's own report.
  const result = spawnSync("/usr/bin/time", ["-v", "-o", timing, ...command], { encoding: "utf8", maxBuffer: 1 << 26, cwd });
  const wall = (performance.now() - start) / 1000;
  const report = fs.readFileSync(timing, "utf8");
  const field = (re: RegExp) => Number(re.exec(report)?.[1] ?? NaN);
  const cpu = field(/User time \(seconds\): ([\d.]+)/) + field(/System time \(seconds\): ([\d.]+)/);
  const peak = field(/Maximum resident set size \(kbytes\): (\d+)/) / 1024;
  return { wall, cpu, peak, error: result.status === 0 ? undefined : `exit ${result.status}: ${result.stderr.split("\n").slice(0, 3).join(" / ")}` };
}

// GYM_BENCH_BASE: another checkout (e.g. `git archive` of main with node_modules linked): its binary and bench scripts run as "base:" rows.
const base = process.env.GYM_BENCH_BASE;
function baseTools(files: ReturnType<typeof shapeFiles>, work: string): [string, string[]][] {
  if (!base) return [];
  const bin = path.join(base, "dist", "gym");
  const scripts = path.join(base, "scripts", "bench");
  const runDir = path.dirname(files.rollouts);
  return [
    ["base: gym eval aggregate", [bin, "eval", "aggregate", "--input-glob", files.rollouts, "--output", "merged.jsonl"]],
    ["base: gym eval profile", [bin, "eval", "profile", "--inputs", files.inputs, "--rollouts", files.rollouts, "--output", "profile.jsonl"]],
    ["base: gym eval health-check", [bin, "eval", "health-check", runDir, "--rollouts-file", path.basename(files.rollouts)]],
    ["base: row reader alone (health shape)", [bun, path.join(scripts, "_read-only.ts"), files.rollouts, "health"]],
    ["base: reverify: inputs index", [bun, path.join(scripts, "_reverify-read.ts"), files.inputs]],
  ];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

for (const shape of shapes) {
  const files = shapeFiles(shape, mb, bench);
  const size = files.bytes / 2 ** 20;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `gym-bench-stages-${shape}-`));
  const runDir = path.dirname(files.rollouts);
  const tools: [string, string[]][] = [
    ["bare JSON.parse loop (bun)", [bun, path.join(import.meta.dir, "_mean-reward.ts"), files.rollouts]],
    ["python orjson loop", ["python3", path.join(import.meta.dir, "_mean-reward.py"), files.rollouts]],
    // jq: pairs then group_by (a reduce into an object keyed by task is quadratic in jq).
    ["jq mean reward per task", ["jq", "-n", "[inputs | [._ng_task_index, .reward]] | group_by(.[0]) | map((map(.[1]) | add) / length) | add / length", files.rollouts]],
    // Stage outputs are named relative to a folder per build (mine/, base/), so the two builds' files can be compared.
    ["gym eval aggregate", [...gym, "eval", "aggregate", "--input-glob", files.rollouts, "--output", "merged.jsonl"]],
    ["gym eval profile", [...gym, "eval", "profile", "--inputs", files.inputs, "--rollouts", files.rollouts, "--output", "profile.jsonl"]],
    ["gym eval health-check", [...gym, "eval", "health-check", runDir, "--rollouts-file", path.basename(files.rollouts)]],
    ["row reader alone (health shape)", [bun, path.join(import.meta.dir, "_read-only.ts"), files.rollouts, "health"]],
    // Reverify reads the materialized inputs into its index: its peer is the bare loop over that same file.
    ["bare loop over the inputs file", [bun, path.join(import.meta.dir, "_mean-reward.ts"), files.inputs]],
    ["reverify: inputs index", [bun, path.join(import.meta.dir, "_reverify-read.ts"), files.inputs]],
    ...baseTools(files, work),
  ].filter(([label]) => !process.env.GYM_BENCH_ONLY || new RegExp(process.env.GYM_BENCH_ONLY).test(label as string)) as [string, string[]][];
  const results = new Map<string, Measured[]>(tools.map(([label]) => [label, []]));
  const sides = { mine: path.join(work, "mine"), base: path.join(work, "base") };
  for (const dir of Object.values(sides)) fs.mkdirSync(dir);
  for (let r = 0; r < runs; r++)
    for (const [label, command] of tools) {
      const side = label.startsWith("base: ") ? sides.base : sides.mine;
      results.get(label)!.push(measure(command, work, side));
      // health-check writes beside the rollouts: its files are moved into the build's folder.
      if (label.endsWith("gym eval health-check")) keepHealthOutputs(files.rollouts, side);
    }
  const summary = new Map([...results].map(([label, ms]) => [label, { wall: median(ms.map((m) => m.wall)), cpu: median(ms.map((m) => m.cpu)), peak: Math.max(...ms.map((m) => m.peak)), error: ms.find((m) => m.error)?.error }]));
  const bare = summary.get("bare JSON.parse loop (bun)");
  const orjson = summary.get("python orjson loop");
  const jq = summary.get("jq mean reward per task");
  console.log(`\nshape (${shape}): ${path.basename(files.rollouts)}, ${size.toFixed(0)} MB, ${runs} run(s) each, interleaved`);
  const ratio = (x: number | undefined, y: number | undefined) => (x && y ? (x / y).toFixed(2) : "?");
  for (const [label, m] of summary) {
    // reverify reads the inputs file (its own size, its own bare loop); profile reads both files, the rollouts' size is shown.
    const name = label.replace(/^base: /, "");
    const inputsSide = name.startsWith("reverify") || name.startsWith("bare loop over the inputs");
    const mbs = inputsSide ? fs.statSync(files.inputs).size / 2 ** 20 : size;
    const peer = name.startsWith("reverify") ? summary.get("bare loop over the inputs file") : bare;
    const ratios =
      name.startsWith("gym") || name.startsWith("reverify") || name.startsWith("row reader")
        ? `  vs bare: wall ${ratio(m.wall, peer?.wall)}× cpu ${ratio(m.cpu, peer?.cpu)}×` +
          (inputsSide ? "" : ` | faster than orjson: wall ${ratio(orjson?.wall, m.wall)}× cpu ${ratio(orjson?.cpu, m.cpu)}× | than jq: wall ${ratio(jq?.wall, m.wall)}× cpu ${ratio(jq?.cpu, m.cpu)}×`)
        : "";
    console.log(`  ${label.padEnd(38)} ${(mbs / m.wall).toFixed(0).padStart(5)} MB/s ${m.wall.toFixed(2).padStart(6)} s  cpu ${m.cpu.toFixed(2).padStart(6)} s  peak ${m.peak.toFixed(0).padStart(5)} MB${ratios}${m.error ? `  (${m.error})` : ""}`);
  }
  // The issue's goals, per stage: wall ≤ 1.0× the bare loop's, and ≥ 2× faster than the orjson loop (wall and CPU).
  for (const stage of ["aggregate", "profile", "health-check"]) {
    const m = summary.get(`gym eval ${stage}`);
    if (!m || !bare || !orjson) continue;
    const mark = (ok: boolean) => (ok ? "met" : "NOT met");
    const vsBare = m.wall / bare.wall;
    const vsOrjson = orjson.wall / m.wall;
    console.log(
      `  goal ${stage.padEnd(12)} wall ${vsBare.toFixed(2)}× bare (≤ 1.0: ${mark(vsBare <= 1)}), ${vsOrjson.toFixed(2)}× faster than orjson (≥ 2: ${mark(vsOrjson >= 2)})` +
        ` | cpu ${(m.cpu / bare.cpu).toFixed(2)}× bare, ${(orjson.cpu / m.cpu).toFixed(2)}× faster than orjson`,
    );
  }
  if (base) compareOutputs(sides.mine, sides.base);
  fs.rmSync(work, { recursive: true, force: true });
}

/** Moves health-check's verdicts and summary from beside the rollouts into `dir`/health/. */
function keepHealthOutputs(rollouts: string, dir: string): void {
  const stem = path.basename(rollouts, ".jsonl");
  const into = path.join(dir, "health");
  fs.mkdirSync(into, { recursive: true });
  for (const suffix of ["_rollout_verdicts.jsonl", "_quality_summary.json"]) {
    const from = path.join(path.dirname(rollouts), stem + suffix);
    if (fs.existsSync(from)) fs.renameSync(from, path.join(into, suffix.slice(1)));
  }
}

/** Compares every file under `mine` with the same file under `base`, byte for byte (cmp), and prints the result. */
function compareOutputs(mine: string, base: string): void {
  const list = (dir: string): string[] => (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile()).sort();
  const ours = list(mine);
  const theirs = new Set(list(base));
  const differ: string[] = [];
  let bytes = 0;
  for (const f of ours) {
    if (!theirs.delete(f)) {
      differ.push(`${f}: only in this build`);
      continue;
    }
    const cmp = spawnSync("cmp", [path.join(mine, f), path.join(base, f)], { encoding: "utf8" });
    if (cmp.status === 0) bytes += fs.statSync(path.join(mine, f)).size;
    else differ.push(`${f}: ${cmp.stdout.trim() || cmp.stderr.trim()}`);
  }
  for (const f of theirs) differ.push(`${f}: only in the base build`);
  if (differ.length === 0) console.log(`  outputs byte-identical to the base build: ${ours.length} files, ${(bytes / 2 ** 20).toFixed(0)} MB (${ours.join(", ")})`);
  else console.log(`  outputs DIFFER from the base build:\n    ${differ.join("\n    ")}`);
}
