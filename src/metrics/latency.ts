/** Attempt durations: the drain margin (p75) and the closing latency summary (median, p90, p99, max). */

export class LatencyTracker {
  private sorted: number[] = [];

  /** Records a duration (seconds). Failed calls shorter than the current median say nothing about rollout length. */
  record(seconds: number, usableReply: boolean): void {
    if (!usableReply && this.sorted.length > 0 && seconds < this.quantile(0.5)) return;
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sorted[mid]! < seconds) lo = mid + 1;
      else hi = mid;
    }
    this.sorted.splice(lo, 0, seconds);
  }

  get count(): number {
    return this.sorted.length;
  }

  /** Linear-interpolation quantile (numpy's default), q in [0, 1]. */
  quantile(q: number): number {
    const n = this.sorted.length;
    if (n === 0) return 0;
    const pos = q * (n - 1);
    const lo = Math.floor(pos);
    const hi = Math.min(lo + 1, n - 1);
    return this.sorted[lo]! + (this.sorted[hi]! - this.sorted[lo]!) * (pos - lo);
  }

  /** The drain margin: an explicit value wins; else p75 once 5 durations are known; else none. */
  margin(explicit?: number): number {
    if (explicit !== undefined) return explicit;
    return this.sorted.length >= 5 ? this.quantile(0.75) : 0;
  }

  summary(notStarted: number): string {
    if (this.sorted.length === 0) return `Latency: no attempt finished${notStarted ? `; ${notStarted} rows not started` : ""}.`;
    const f = (s: number) => (s < 60 ? `${s.toFixed(2)} s` : `${(s / 60).toFixed(2)} min`);
    const total = this.sorted.reduce((a, b) => a + b, 0) / 3600;
    return `Latency per attempt: median ${f(this.quantile(0.5))}, p90 ${f(this.quantile(0.9))}, p99 ${f(this.quantile(0.99))}, max ${f(this.sorted.at(-1)!)}; ${total.toFixed(3)} task-hours; ${notStarted} rows not started.`;
  }
}
