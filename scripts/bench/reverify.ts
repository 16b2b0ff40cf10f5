/**
 * `gym eval reverify` throughput: the reverify stage with the in-process mcqa server over ≥ 100,000 rollouts
 * (NeMo Gym's published mcqa rollouts replicated with new identities), beside a bare loop that only
 * JSON.parse's and JSON.stringify's each line of the same rollouts file. Printed, never asserted.
 *
 *   bun scripts/bench/reverify.ts                  # 100,000 rollouts (goal: ≥ 20,000 rollouts/s)
 *   GYM_BENCH_ROWS=20000 bun scripts/bench/reverify.ts
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ServerRegistry } from "../../src/servers/registry.ts";
import { builtinCatalogs } from "../../src/catalog/builtins.ts";
import { replicateCase, reverifyCases } from "../../src/stages/reverify/fixtures.ts";
import { reverify } from "../../src/stages/reverify/index.ts";

const rows = Number(process.env.GYM_BENCH_ROWS ?? process.argv[2] ?? 100_000);
const concurrency = Number(process.env.GYM_BENCH_CONCURRENCY ?? 64);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gym-bench-reverify-"));

function generate(): { inputs: string; rollouts: string; rows: number; mb: number } {
  const mcqa = reverifyCases().find((c) => c.name === "mcqa")!;
  const inputs = path.join(dir, "rollouts_materialized_inputs.jsonl");
  const rollouts = path.join(dir, "rollouts.jsonl");
  const inFd = fs.openSync(inputs, "w");
  const roFd = fs.openSync(rollouts, "w");
  const copiesPerBlock = 200;
  const perCopy = mcqa.stored.length;
  let written = 0;
  for (let block = 0; written < rows; block++) {
    const part = replicateCase(mcqa, copiesPerBlock);
    // Shift the block's task indices past the previous blocks'.
    const shift = (text: string) => text.replace(/"_ng_task_index":(\d+)/g, (_, t: string) => `"_ng_task_index":${Number(t) + block * copiesPerBlock * perCopy}`);
    fs.writeSync(inFd, shift(part.inputsText));
    fs.writeSync(roFd, shift(part.rolloutsText));
    written += part.rows;
  }
  fs.closeSync(inFd);
  fs.closeSync(roFd);
  return { inputs, rollouts, rows: written, mb: fs.statSync(rollouts).size / 1024 / 1024 };
}

/** The bare loop: read the file, split lines, JSON.parse and JSON.stringify each. */
function bareLoop(file: string): number {
  const fd = fs.openSync(file, "r");
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(1 << 20);
  let rest = "";
  let n = 0;
  let bytes = 0;
  for (;;) {
    const read = fs.readSync(fd, buffer, 0, buffer.length, null);
    if (read === 0) break;
    const lines = (rest + decoder.decode(buffer.subarray(0, read), { stream: true })).split("\n");
    rest = lines.pop()!;
    for (const line of lines) if (line) (bytes += JSON.stringify(JSON.parse(line)).length), n++;
  }
  fs.closeSync(fd);
  return n + (bytes < 0 ? 1 : 0);
}

const files = generate();
console.log(`reverify bench: ${files.rows.toLocaleString("en-US")} mcqa rollouts (${files.mb.toFixed(0)} MB), in-process mcqa, concurrency ${concurrency}`);

const start = performance.now();
const bareRows = bareLoop(files.rollouts);
const bareSeconds = (performance.now() - start) / 1000;

const instances = [
  { name: "mcqa", serverType: "resources_servers" as const, implementation: "mcqa", block: { grading_mode: null } },
  { name: "mcqa_simple_agent", serverType: "responses_api_agents" as const, implementation: "simple_agent", block: { resources_server: { type: "resources_servers", name: "mcqa" } } },
];
const servers = await ServerRegistry.create([instances[0]!], { builtins: await builtinCatalogs() });
const output = path.join(dir, "reverified.jsonl");
const timed = async (disableAggregation: boolean) => {
  const t = performance.now();
  const report = await reverify({ inputs: files.inputs, rollouts: files.rollouts, output, instances, servers, concurrency, disableAggregation, overwrite: true });
  return { report, seconds: (performance.now() - t) / 1000 };
};
const verifyOnly = await timed(true);
// --resume of a run cut short after 90% of its rows (the 10% left are verified; the rest is skipped by identity).
const keptRows = fs.readFileSync(output, "utf8").split("\n").filter(Boolean);
fs.writeFileSync(output, keptRows.slice(0, Math.floor(keptRows.length * 0.9)).map((l) => `${l}\n`).join(""));
const resumeStart = performance.now();
const resumed = await reverify({ inputs: files.inputs, rollouts: files.rollouts, output, instances, servers, concurrency, disableAggregation: true, resume: true });
const resumeSeconds = (performance.now() - resumeStart) / 1000;
const verifyPeakMb = (process.resourceUsage?.().maxRSS ?? 0) / 1024;
const full = await timed(false);
await servers.close();
const peakMb = (process.resourceUsage?.().maxRSS ?? 0) / 1024;

const rate = (n: number, s: number) => `${Math.round(n / s).toLocaleString("en-US")} rollouts/s`.padStart(18);
const meanReward = (full.report.metrics?.[0]?.key_metrics as Record<string, unknown> | undefined)?.["mean/reward"];
console.log(`  bare JSON.parse + stringify loop      ${bareSeconds.toFixed(2).padStart(6)} s ${rate(bareRows, bareSeconds)}`);
console.log(`  gym reverify, --disable-aggregation   ${verifyOnly.seconds.toFixed(2).padStart(6)} s ${rate(verifyOnly.report.verified, verifyOnly.seconds)}  (${(bareSeconds / verifyOnly.seconds).toFixed(2)}× the bare loop)`);
console.log(`  gym reverify --resume, 10% left       ${resumeSeconds.toFixed(2).padStart(6)} s   ${resumed.verified.toLocaleString("en-US")} verified, ${resumed.skipped.done.toLocaleString("en-US")} skipped  (${(bareSeconds / resumeSeconds).toFixed(2)}× the bare loop's time over the whole file)`);
console.log(`  gym reverify + aggregate metrics      ${full.seconds.toFixed(2).padStart(6)} s ${rate(full.report.verified, full.seconds)}  (${(bareSeconds / full.seconds).toFixed(2)}× the bare loop)`);
console.log(`  scored ${full.report.succeeded.toLocaleString("en-US")}, mean/reward ${meanReward}; peak RSS ${verifyPeakMb.toFixed(0)} MB while verifying (the inputs index), ${peakMb.toFixed(0)} MB with metrics (the server's /aggregate_metrics over every row)`);
fs.rmSync(dir, { recursive: true, force: true });
