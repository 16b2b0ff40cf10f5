/** Shared helpers for benchmarks: timing commands (median of interleaved runs) and peak memory via /usr/bin/time. */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

export const binary = join(import.meta.dir, "..", "..", "dist", "gym");

export function requireBinary(): void {
  if (!existsSync(binary)) {
    console.error(`No ${binary}: build it first with \`npm run build\`.`);
    process.exit(1);
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Wall time (ms) of each command, runs interleaved so machine noise hits all of them alike. */
export function timeInterleaved(commands: Record<string, string[]>, runs: number): Record<string, number[]> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  for (const cmd of Object.values(commands)) spawnSync(cmd[0]!, cmd.slice(1)); // warm caches
  for (let i = 0; i < runs; i++) {
    for (const [name, cmd] of Object.entries(commands)) {
      const start = performance.now();
      spawnSync(cmd[0]!, cmd.slice(1), { stdio: "ignore" });
      times[name]!.push(performance.now() - start);
    }
  }
  return times;
}

/** Runs a shell command under GNU time when present: wall seconds and peak RSS in MB. */
export function measure(shell: string): { seconds: number; peakMb: number | null; status: number } {
  const hasTime = existsSync("/usr/bin/time");
  const start = performance.now();
  const result = spawnSync("bash", ["-c", hasTime ? `/usr/bin/time -f '%M' bash -c ${JSON.stringify(shell)} 2>&1 >/dev/null | tail -1` : `${shell} >/dev/null`], { encoding: "utf8" });
  const seconds = (performance.now() - start) / 1000;
  const kb = hasTime ? Number(result.stdout.trim().split("\n").at(-1)) : NaN;
  return { seconds, peakMb: Number.isFinite(kb) ? kb / 1024 : null, status: result.status ?? 1 };
}
