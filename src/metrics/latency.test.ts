import { describe, expect, test } from "bun:test";
import { LatencyTracker } from "./latency.ts";

/** numpy's default (linear) quantile of a sorted list, the reference the tracker must match. */
function reference(sorted: number[], q: number): number {
  const pos = q * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

describe("LatencyTracker", () => {
  test("the summary's median, p90, p99 and max are exact over every recorded duration, in any order", () => {
    const random = seeded(7);
    const tracker = new LatencyTracker();
    const all: number[] = [];
    for (let i = 0; i < 20_000; i++) {
      const seconds = random() * 10 + (i % 97 === 0 ? 50 : 0);
      tracker.record(seconds, true);
      all.push(seconds);
    }
    all.sort((a, b) => a - b);
    const f = (s: number) => (s < 60 ? `${s.toFixed(2)} s` : `${(s / 60).toFixed(2)} min`);
    const hours = (all.reduce((a, b) => a + b, 0) / 3600).toFixed(3);
    expect(tracker.count).toBe(20_000);
    expect(tracker.summary(3)).toBe(`Latency per attempt: median ${f(reference(all, 0.5))}, p90 ${f(reference(all, 0.9))}, p99 ${f(reference(all, 0.99))}, max ${f(all.at(-1)!)}; ${hours} task-hours; 3 rows not started.`);
    expect(tracker.quantile(0.75)).toBe(reference(all, 0.75));
  });

  test("the drain margin is p75 once 5 durations are known, an explicit margin wins, none before", () => {
    const tracker = new LatencyTracker();
    for (const s of [4, 1, 3, 2]) tracker.record(s, true);
    expect(tracker.margin()).toBe(0);
    tracker.record(5, true);
    expect(tracker.margin()).toBe(4);
    expect(tracker.margin(0.5)).toBe(0.5);
  });

  test("a failed call shorter than the median is left out; a longer one counts", () => {
    const tracker = new LatencyTracker();
    for (const s of [1, 2, 3]) tracker.record(s, true);
    tracker.record(0.5, false);
    expect(tracker.count).toBe(3);
    tracker.record(9, false);
    expect(tracker.count).toBe(4);
    expect(tracker.summary(0)).toContain("max 9.00 s");
  });

  test("no duration: the summary says so", () => {
    expect(new LatencyTracker().summary(2)).toBe("Latency: no attempt finished; 2 rows not started.");
  });
});
