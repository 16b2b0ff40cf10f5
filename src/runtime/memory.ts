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
    collectGarbage();
    this.bound = Math.max(FLOOR, process.memoryUsage.rss() + MARGIN);
  }
}
