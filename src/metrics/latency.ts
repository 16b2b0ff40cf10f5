/**
 * Attempt durations: the drain margin (p75) and the closing latency summary (median, p90, p99, max).
 * New durations wait in `pending` and are sorted into `sorted` in batches (a merge, O(n)) once they are more
 * than 1/32 of it, so recording stays amortised O(log n) however long the run (an insertion per duration was
 * O(n) each: quadratic over a run). The margin and the median gate read `sorted`, which then covers at least
 * 97% of the durations; the summary merges everything first, so its figures are exact.
 */
export class LatencyTracker {
  private sorted: number[] = [];
  private pending: number[] = [];

  /** Records a duration (seconds). Failed calls shorter than the current median say nothing about rollout length. */
  record(seconds: number, usableReply: boolean): void {
    if (!usableReply && this.count > 0 && seconds < this.quantile(0.5)) return;
    this.pending.push(seconds);
    if (this.pending.length > this.sorted.length >> 5) this.settle();
  }

  /** Sorts the pending durations into `sorted`. */
  private settle(): void {
    if (this.pending.length === 0) return;
    const add = this.pending.sort((a, b) => a - b);
    const old = this.sorted;
    const merged = new Array<number>(old.length + add.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < old.length && j < add.length) merged[k++] = old[i]! <= add[j]! ? old[i++]! : add[j++]!;
    while (i < old.length) merged[k++] = old[i++]!;
    while (j < add.length) merged[k++] = add[j++]!;
    this.sorted = merged;
    this.pending = [];
  }

  get count(): number {
    return this.sorted.length + this.pending.length;
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
    this.settle();
    if (this.sorted.length === 0) return `Latency: no attempt finished${notStarted ? `; ${notStarted} rows not started` : ""}.`;
    const f = (s: number) => (s < 60 ? `${s.toFixed(2)} s` : `${(s / 60).toFixed(2)} min`);
    const total = this.sorted.reduce((a, b) => a + b, 0) / 3600;
    return `Latency per attempt: median ${f(this.quantile(0.5))}, p90 ${f(this.quantile(0.9))}, p99 ${f(this.quantile(0.99))}, max ${f(this.sorted.at(-1)!)}; ${total.toFixed(3)} task-hours; ${notStarted} rows not started.`;
  }
}
