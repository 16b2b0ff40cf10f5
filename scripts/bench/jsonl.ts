/**
 * JSONL throughput: gym's reader+writer over a generated rollouts file (default 1 GB; GYM_BENCH_MB to change),
 * beside `jq -c .`, a bare Python json.loads/dumps loop and a bare JSON.parse loop, with peak memory.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { measure } from "./_util.ts";
import { writeRolloutsFile } from "./_rollouts-file.ts";

const mb = Number(process.env.GYM_BENCH_MB ?? 1024);
const dir = join(import.meta.dir, "..", "..", ".bench");
mkdirSync(dir, { recursive: true });
const file = join(dir, `rollouts-${mb}mb.jsonl`);
const { bytes } = writeRolloutsFile(file, mb);
const size = bytes / 2 ** 20;
const bun = process.execPath;
const here = import.meta.dir;
const peers: [string, string][] = [
  ["gym read+parse", `${bun} ${join(here, "_jsonl-pass.ts")} read ${file}`],
  ["gym read+parse+write", `${bun} ${join(here, "_jsonl-pass.ts")} copy ${file} /dev/null`],
  ["bare JSON.parse loop (Bun)", `${bun} ${join(here, "_bare-parse.ts")} ${file}`],
  ["jq -c .", `jq -c . ${file} > /dev/null`],
  ["python3 json.loads loop", `python3 ${join(here, "_python-loop.py")} ${file}`],
  ["python3 json.loads+dumps loop", `python3 ${join(here, "_python-loop.py")} ${file} --write > /dev/null`],
];
console.log(`file: ${file} (${size.toFixed(0)} MB)`);
const results: Record<string, number> = {};
for (const [name, cmd] of peers) {
  const r = measure(cmd);
  if (r.status !== 0) console.log(`${name}: failed (exit ${r.status})`);
  results[name] = size / r.seconds;
  console.log(`${name.padEnd(32)} ${(size / r.seconds).toFixed(0).padStart(6)} MB/s  ${r.seconds.toFixed(2).padStart(7)} s  peak ${r.peakMb === null ? "?" : r.peakMb.toFixed(0)} MB`);
}
const read = results["gym read+parse"]!;
const copy = results["gym read+parse+write"]!;
console.log(`read+parse: ${(read / results["jq -c ."]!).toFixed(2)}× jq, ${(read / results["python3 json.loads loop"]!).toFixed(2)}× python, ${(read / results["bare JSON.parse loop (Bun)"]!).toFixed(2)}× the bare loop`);
console.log(`read+parse+write: ${(copy / results["jq -c ."]!).toFixed(2)}× jq, ${(copy / results["python3 json.loads+dumps loop"]!).toFixed(2)}× python`);
console.log(`targets: read+parse ≥ 400 MB/s ${read >= 400 ? "met" : "NOT met"}; ≥ 3× jq ${read >= 3 * results["jq -c ."]! ? "met" : "NOT met"}`);
