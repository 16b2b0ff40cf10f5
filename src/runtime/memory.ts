/**
 * A bound on the resident memory of a long run: each rollout (and each row materialized) leaves garbage that the
 * engine lets pile up to GBs before it collects. A full collection once the RSS passes the bound keeps the peak
 * flat; the bound then sits a fixed margin above what stays, so the peak is what the run holds plus that margin
 * (a 1.5× ratio let a million-rollout run's peak grow with what it holds). Short runs never pay a collection.
 */
import { collectGarbage } from "./gc.ts";

const FLOOR = 384 * 2 ** 20;
const MARGIN = 96 * 2 ** 20;

export class MemoryBound {
  private bound = FLOOR;

  check(): void {
    if (process.memoryUsage.rss() < this.bound) return;
    const started = process.env.GYM_DEBUG_MEMORY ? performance.now() : 0;
    collectGarbage();
    if (started) process.stderr.write(`memory bound: full gc in ${(performance.now() - started).toFixed(0)} ms, rss ${(process.memoryUsage.rss() / 2 ** 20).toFixed(0)} MB\n`);
    this.bound = Math.max(FLOOR, process.memoryUsage.rss() + MARGIN);
  }
}

/**
 * `GYM_DEBUG_MEMORY=1`: a line on stderr with the RSS and the JS heap at a phase boundary (after a full collection,
 * so the heap figure is what stays). Off by default; a debugging aid for the memory bound's figures.
 */
export function traceMemory(label: string): void {
  if (!process.env.GYM_DEBUG_MEMORY) return;
  const before = process.memoryUsage.rss();
  collectGarbage();
  const { rss, heapUsed, external } = process.memoryUsage();
  const mb = (n: number) => (n / 2 ** 20).toFixed(0);
  process.stderr.write(`memory ${label}: rss ${mb(before)} MB (after gc ${mb(rss)}), heap ${mb(heapUsed)} MB, external ${mb(external)} MB\n`);
  if (process.env.GYM_DEBUG_MEMORY === "2") {
    const counts = (require("bun:jsc") as { heapStats(): { objectTypeCounts: Record<string, number> } }).heapStats().objectTypeCounts;
    const top = Object.entries(counts).sort((a, b) => b[1] - a[1]).slice(0, 12);
    process.stderr.write(`memory ${label}: ${top.map(([k, v]) => `${k} ${v}`).join(", ")}\n`);
  }
}
