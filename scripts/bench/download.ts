/**
 * Download throughput: `gym dataset download` (redirect, Range-capable writer, sha256 check, fsync, rename) beside
 * `curl -L -o` on the same file from the same local fake Hub (in its own process), interleaved, median of runs; then a
 * second download of the unchanged file (the cache revalidated by one HEAD) beside `curl -I` (that HEAD alone) and a
 * fresh `curl` download (what not caching costs).
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

  const cached = timeInterleaved(
    {
      "gym, cached": ["sh", "-c", `rm -f ${dir}/g.jsonl; ${env} ${binary} dataset download --repo-id bench/data --artifact train.jsonl --output ${dir}/g.jsonl`],
      "curl -I": ["sh", "-c", `curl -sfI -o /dev/null ${url}/datasets/bench/data/resolve/main/train.jsonl`],
      "curl again": ["sh", "-c", `rm -f ${dir}/c.jsonl; curl -sfL -o ${dir}/c.jsonl ${url}/datasets/bench/data/resolve/main/train.jsonl`],
    },
    runs,
  );
  const c = median(cached["gym, cached"]!);
  for (const [name, t] of Object.entries(cached)) console.log(`${name.padEnd(16)} ${median(t).toFixed(0).padStart(6)} ms  (gym cached/${name} time ratio ${(c / median(t)).toFixed(2)})`);
  console.log("(second download of the unchanged file: gym asks the Hub which commit main names, then copies its cached blob)");
} finally {
  server.kill();
  rmSync(dir, { recursive: true, force: true });
}
