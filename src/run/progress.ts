/** Progress on stderr: a live line on a terminal (done/total, rate, ETA, mean reward, failures, cache hits, cost, model calls), plain periodic lines otherwise. */
import { processCounts, responseCacheEnabled } from "../servers/calls/cache/index.ts";
import { modelCallsProgress } from "./model-calls.ts";

export class Progress {
  private done = 0;
  private failed = 0;
  private rewardSum = 0;
  private rewardCount = 0;
  private readonly started = performance.now();
  private lastPrint = 0;
  private readonly tty: boolean;
  /** More text for the line (the run's cost so far and its projection). */
  extra: (() => string) | undefined;

  constructor(
    private readonly total: number,
    private readonly write: (text: string) => void = (t) => process.stderr.write(t),
    tty = !!process.stderr.isTTY && !process.env.CI,
    private readonly everyMs = tty ? 200 : 10_000,
  ) {
    this.tty = tty;
  }

  success(reward: unknown): void {
    this.done++;
    if (typeof reward === "number" && Number.isFinite(reward)) {
      this.rewardSum += reward;
      this.rewardCount++;
    }
    this.maybePrint();
  }

  failure(): void {
    this.done++;
    this.failed++;
    this.maybePrint();
  }

  /** A line that must not be overwritten by the live bar (drop lines, warnings). */
  log(line: string): void {
    this.write(`${this.tty ? "\r\u001b[K" : ""}${line}\n`);
    if (this.tty) this.print();
  }

  finish(): void {
    if (this.total === 0) return;
    this.print();
    if (this.tty) this.write("\n");
  }

  line(): string {
    const seconds = (performance.now() - this.started) / 1000;
    const rate = seconds > 0 ? this.done / seconds : 0;
    const left = this.total - this.done;
    const eta = rate > 0 && left > 0 ? ` ETA ${formatDuration(left / rate)}` : "";
    const pct = this.total > 0 ? ((100 * this.done) / this.total).toFixed(1) : "100.0";
    const reward = this.rewardCount > 0 ? ` mean reward ${(this.rewardSum / this.rewardCount).toFixed(4)}` : "";
    const failures = this.failed > 0 ? ` failures ${this.failed}` : "";
    const cache = responseCacheEnabled() ? ` cache ${processCounts.hits} hits/${processCounts.misses} misses` : "";
    return `${this.done}/${this.total} rollouts (${pct}%) ${rate.toFixed(1)}/s${eta}${reward}${failures}${cache}${this.extra?.() ?? ""}${modelCallsProgress()}`;
  }

  counts(): { done: number; total: number } {
    return { done: this.done, total: this.total };
  }

  private maybePrint(): void {
    const now = performance.now();
    if (now - this.lastPrint >= this.everyMs) this.print();
  }

  private print(): void {
    this.lastPrint = performance.now();
    this.write(this.tty ? `\r\u001b[K${this.line()}` : `${this.line()}\n`);
  }
}

function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${Math.round(seconds % 60)}s`;
  return `${Math.floor(seconds / 3600)}h${Math.round((seconds % 3600) / 60)}m`;
}
