/**
 * Download throughput: `gym dataset download` (redirect, Range-capable writer, sha256 check, fsync, rename) beside
 * `curl -L -o` on the same file from the same local fake Hub (in its own process), interleaved, median of runs.
 * Usage: bun scripts/bench/download.ts [MB=256] [runs=3]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { binary, median, requireBinary, timeInterleaved } from "./_util.ts";

requireBinary();
const mb = Number(process.argv[2] ?? 256);
const runs = Number(process.argv[3] ?? 3);
const server = spawn(process.execPath, [join(import.meta.dir, "_serve-hub.ts"), String(mb)], { stdio: ["ignore", "pipe", "inherit"] });
const url: string = await new Promise((resolve) => server.stdout!.once("data", (d: Buffer) => resolve(d.toString().trim())));
const dir = mkdtempSync(join(tmpdir(), "bench-dl-"));
const env = `HF_ENDPOINT=${url} NEMO_GYM_CACHE_DIR=${dir}/cache NO_PROGRESS=1`;
try {
  const times = timeInterleaved(
    {
      gym: ["sh", "-c", `rm -rf ${dir}/cache ${dir}/g.jsonl; ${env} ${binary} dataset download --repo-id bench/data --artifact train.jsonl --output ${dir}/g.jsonl`],
      curl: ["sh", "-c", `rm -f ${dir}/c.jsonl; curl -sfL -o ${dir}/c.jsonl ${url}/datasets/bench/data/resolve/main/train.jsonl`],
      "curl+sha256sum": ["sh", "-c", `rm -f ${dir}/c.jsonl; curl -sfL -o ${dir}/c.jsonl ${url}/datasets/bench/data/resolve/main/train.jsonl && sha256sum ${dir}/c.jsonl >/dev/null`],
    },
    runs,
  );
  const rate = (ms: number) => `${((mb / ms) * 1000).toFixed(0)} MB/s`;
  const g = median(times.gym!);
  for (const [name, t] of Object.entries(times)) console.log(`${name.padEnd(16)} ${median(t).toFixed(0).padStart(6)} ms  ${rate(median(t))}  (gym/${name} time ratio ${(g / median(t)).toFixed(2)})`);
  console.log(`(${mb} MB, ${runs} interleaved runs; gym also copies the cached file to --output)`);
} finally {
  server.kill();
  rmSync(dir, { recursive: true, force: true });
}
