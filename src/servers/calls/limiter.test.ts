// The controller on its own, on a hand-driven clock: slow start, one cut per 429 episode, the cooldown, the
// ceiling, retries first, x-ratelimit pacing, and the headers it reads.
import { describe, expect, test } from "bun:test";
import { parseResetMs, rateLimitWindows, retryAfterMs } from "./headers.ts";
import { AdaptiveLimiter, type Ticket } from "./limiter.ts";
import { endpointOf, limiterFor, resetLimiters } from "./limiters.ts";

function clocked(ceiling: number, initial?: number) {
  let now = 0;
  const limiter = new AdaptiveLimiter("http://p/v1", ceiling, { now: () => now, initial });
  return { limiter, advance: (ms: number) => (now += ms) };
}

/** Takes every slot the limiter grants right now. */
async function fill(limiter: AdaptiveLimiter, asked: number): Promise<Ticket[]> {
  const granted: Ticket[] = [];
  for (let i = 0; i < asked; i++) void limiter.acquire().then((t) => granted.push(t));
  await Promise.resolve();
  await new Promise((r) => setTimeout(r, 0));
  return granted;
}

describe("AdaptiveLimiter", () => {
  test("slow start: the limit doubles per window of calls that succeed while it is in use, up to the ceiling", async () => {
    const { limiter } = clocked(20);
    expect(limiter.limit).toBe(4);
    const granted = await fill(limiter, 100);
    expect(granted).toHaveLength(4);
    const expected = [8, 16, 20, 20];
    for (const limit of expected) {
      const window = granted.splice(0);
      for (const t of window) limiter.release(t, { kind: "ok" });
      await new Promise((r) => setTimeout(r, 0));
      expect(limiter.limit).toBe(limit);
      expect(limiter.inFlight).toBe(limit);
      expect(granted).toHaveLength(limit);
    }
  });

  test("the limit does not grow when it is not in use (the saturation gate)", () => {
    const { limiter } = clocked(100);
    const lone = limiter.acquire();
    return lone.then((t) => {
      limiter.release(t, { kind: "ok" });
      expect(limiter.limit).toBe(4);
    });
  });

  test("a 429 episode cuts once (×0.9), freezes growth for Retry-After, and only a call sent after the cut cuts again", async () => {
    const { limiter, advance } = clocked(100, 20);
    const tickets = await fill(limiter, 20);
    limiter.release(tickets[0]!, { kind: "rate_limited", retryAfterMs: 1000 });
    expect(limiter.limit).toBe(18);
    limiter.release(tickets[1]!, { kind: "rate_limited", retryAfterMs: 1000 });
    expect(limiter.limit).toBe(18); // sent before the cut: the same episode
    limiter.release(tickets[2]!, { kind: "ok" });
    expect(limiter.limit).toBe(18); // frozen
    const [late] = await fill(limiter, 1);
    limiter.release(late!, { kind: "rate_limited" });
    expect(limiter.limit).toBe(16); // 18 × 0.9 = 16.2: news, a second cut
    advance(1001);
    for (const t of tickets.slice(3)) limiter.release(t, { kind: "ok" });
    expect(limiter.limit).toBeGreaterThanOrEqual(16);
    expect(limiter.changes.map((c) => c.reason)).toEqual(["429 (retry after 1000 ms)", "429"]);
    expect(limiter.stats.rateLimited).toBe(3);
  });

  test("5xx and connection failures are neutral: no cut, no growth", async () => {
    const { limiter } = clocked(100, 10);
    const tickets = await fill(limiter, 10);
    for (const t of tickets) limiter.release(t, { kind: "neutral" });
    expect(limiter.limit).toBe(10);
  });

  test("retried calls are let in before calls not sent yet", async () => {
    const { limiter } = clocked(1, 1);
    const order: string[] = [];
    const [held] = await fill(limiter, 1);
    void limiter.acquire().then((t) => (order.push("fresh"), limiter.release(t, { kind: "neutral" })));
    void limiter.acquire(true).then((t) => (order.push("retry"), limiter.release(t, { kind: "neutral" })));
    limiter.release(held!, { kind: "neutral" });
    await new Promise((r) => setTimeout(r, 0));
    expect(order).toEqual(["retry", "fresh"]);
  });

  test("x-ratelimit-remaining-requests: no more calls than the window has left, then a pause until it resets", async () => {
    const limiter = new AdaptiveLimiter("http://p/v1", 100, { initial: 50 });
    const [probe] = await fill(limiter, 1);
    limiter.release(probe!, { kind: "ok", headers: new Headers({ "x-ratelimit-limit-requests": "10", "x-ratelimit-remaining-requests": "3", "x-ratelimit-reset-requests": "40ms" }) });
    const granted = await fill(limiter, 10);
    expect(granted).toHaveLength(3);
    await new Promise((r) => setTimeout(r, 60));
    expect(limiter.inFlight).toBe(10); // the window reset: the other seven went out
    expect(limiter.changes.at(-1)!.reason).toMatch(/^x-ratelimit-remaining-requests spent: paused \d+ ms$/);
  });

  test("x-ratelimit-remaining-tokens under 5% of the limit: nothing new is sent until the token window resets", async () => {
    const limiter = new AdaptiveLimiter("http://p/v1", 100, { initial: 10 });
    const [probe] = await fill(limiter, 1);
    limiter.release(probe!, { kind: "ok", headers: new Headers({ "x-ratelimit-limit-tokens": "10000", "x-ratelimit-remaining-tokens": "300", "x-ratelimit-reset-tokens": "40ms" }) });
    const granted = await fill(limiter, 5);
    expect(granted).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 60));
    expect(limiter.inFlight).toBe(5);
    expect(limiter.changes.at(-1)!.reason).toMatch(/^x-ratelimit-remaining-tokens low: paused \d+ ms$/);
    expect(limiter.stats.pausedMs).toBeGreaterThan(0);
  });

  test("one limiter per endpoint and key; a second user with a higher --concurrency raises the ceiling", () => {
    resetLimiters();
    const a = limiterFor(endpointOf("http://h:1/v1/chat/completions"), "k", 8);
    expect(limiterFor(endpointOf("http://h:1/v1/responses"), "k", 32)).toBe(a);
    expect(a.ceiling).toBe(32);
    expect(limiterFor(endpointOf("http://h:1/v1/responses"), "other", 8)).not.toBe(a);
    expect(endpointOf("http://h:1/tokenize")).toBe("http://h:1");
    resetLimiters();
  });
});

describe("rate-limit headers", () => {
  test("retry-after-ms wins over Retry-After; HTTP dates and seconds both read", () => {
    expect(retryAfterMs(new Headers({ "retry-after": "2", "retry-after-ms": "150" }))).toBe(150);
    expect(retryAfterMs(new Headers({ "retry-after": "1.5" }))).toBe(1500);
    expect(retryAfterMs(new Headers({ "retry-after": new Date(10_000).toUTCString() }), 4_000)).toBe(6_000);
    expect(retryAfterMs(new Headers({ "retry-after": "soon" }))).toBeUndefined();
  });

  test("x-ratelimit-reset-* as OpenAI writes it (6m0s, 1s, 20ms), as seconds, or as an epoch time", () => {
    expect(parseResetMs("6m0s")).toBe(360_000);
    expect(parseResetMs("1h2m3.5s")).toBe(3_723_500);
    expect(parseResetMs("20ms")).toBe(20);
    expect(parseResetMs("0.5")).toBe(500);
    expect(parseResetMs("1700000010", 1_700_000_000_000)).toBe(10_000);
    expect(parseResetMs("later")).toBeUndefined();
    const windows = rateLimitWindows(new Headers({ "x-ratelimit-limit-tokens": "1000", "x-ratelimit-remaining-tokens": "20", "x-ratelimit-reset-tokens": "2s" }));
    expect(windows).toEqual({ requests: undefined, tokens: { limit: 1000, remaining: 20, resetMs: 2000 } });
  });
});
