/**
 * `gym view` on a large rollouts file (default 1 GB; GYM_BENCH_VIEW_MB to change): time from the page opening to
 * its first sample row (chromium when installed, else the same API calls over HTTP), with a cold and a warm row
 * index cache, and the server's peak RSS; beside `jq`'s time to its first row and to read the whole file.
 *   bun scripts/bench/view.ts
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeRolloutsFile } from "./_rollouts-file.ts";
import { binary, measure, requireBinary } from "./_util.ts";

requireBinary();
const mb = Number(process.env.GYM_BENCH_VIEW_MB ?? 1024);
const dir = join(import.meta.dir, "..", "..", ".bench", "view");
fs.mkdirSync(dir, { recursive: true });
const file = join(dir, "rollouts.jsonl");
console.error(`writing ${mb} MB rollouts file (kept for later runs) ...`);
writeRolloutsFile(file, mb);
const size = fs.statSync(file).size;
const chromiumPath = "/usr/bin/chromium";
const hasChromium = fs.existsSync(chromiumPath);

const peakMb = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
};

async function viewOnce(cache: string): Promise<{ firstRow: number; fromStart: number; peakFirst: number; peakAll: number; allRows: number }> {
  const started = performance.now();
  const child = spawn(binary, ["view", file, "--port", "0"], { env: { ...process.env, GYM_CACHE_DIR: cache }, stdio: ["ignore", "pipe", "ignore"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on("exit", (code) => reject(new Error(`gym view exited ${code}`)));
  });
  let opened = performance.now();
  if (hasChromium) {
    const { chromium } = await import("playwright-core");
    const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
    const page = await browser.newPage();
    opened = performance.now();
    await page.goto(`${url}#/run/0`);
    await page.getByTestId("sample-row").first().waitFor({ timeout: 120_000 });
    await browser.close();
  } else {
    opened = performance.now();
    await (await fetch(`${url}api/runs/0`)).json();
    await (await fetch(`${url}api/runs/0/samples?limit=50`)).json();
  }
  const done = performance.now();
  const peakFirst = peakMb(child.pid!);
  // Then every row's fields (what sorting and filtering need), read in the background.
  for (;;) {
    const run = ((await (await fetch(`${url}api/runs`)).json()) as { runs: Array<{ rollouts: number; indexed: number }> }).runs[0]!;
    if (run.indexed >= run.rollouts) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const allRows = performance.now();
  const peakAll = peakMb(child.pid!);
  child.kill("SIGINT");
  await new Promise((r) => child.on("exit", r));
  return { firstRow: (done - opened) / 1000, fromStart: (done - started) / 1000, peakFirst, peakAll, allRows: (allRows - started) / 1000 };
}

const cache = fs.mkdtempSync(join(tmpdir(), "gym-view-bench-"));
const cold = await viewOnce(cache);
const warm = await viewOnce(cache);
fs.rmSync(cache, { recursive: true, force: true });

const hasJq = spawnSync("jq", ["--version"]).status === 0;
const jqFirst = hasJq ? measure(`jq -c '{task: ._ng_task_index, reward}' ${JSON.stringify(file)} | head -1`) : null;
const jqAll = hasJq ? measure(`jq -c '{task: ._ng_task_index, reward}' ${JSON.stringify(file)}`) : null;

const s = (x: number) => `${x.toFixed(2)} s`;
const m = (x: number | null | undefined) => (x === null || x === undefined || Number.isNaN(x) ? "n/a" : `${Math.round(x)} MB`);
console.log(`gym view on ${(size / 2 ** 20).toFixed(0)} MB of rollouts (${hasChromium ? "chromium page" : "HTTP API, no chromium"})`);
console.log(`  cold index: first sample row ${s(cold.firstRow)} after the page opened (${s(cold.fromStart)} from process start), peak RSS ${m(cold.peakFirst)}; every row's fields at ${s(cold.allRows)}, peak RSS ${m(cold.peakAll)}`);
console.log(`  warm index: first sample row ${s(warm.firstRow)} after the page opened (${s(warm.fromStart)} from process start), peak RSS ${m(warm.peakFirst)}; every row's fields at ${s(warm.allRows)}, peak RSS ${m(warm.peakAll)}`);
if (jqFirst && jqAll) {
  console.log(`  jq: first row ${s(jqFirst.seconds)} (peak ${m(jqFirst.peakMb)}); whole file ${s(jqAll.seconds)} (peak ${m(jqAll.peakMb)})`);
  console.log(`  ratios: gym view cold first row / jq whole file = ${(cold.fromStart / jqAll.seconds).toFixed(2)}; warm = ${(warm.fromStart / jqAll.seconds).toFixed(2)}`);
} else console.log("  jq: not installed");
