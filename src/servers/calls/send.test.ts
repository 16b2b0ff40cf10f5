// sendModelCall against provider-shaped mocks on 127.0.0.1: a concurrency limit, a request window with x-ratelimit-*
// headers, a limit that changes mid-run, a permanent 4xx, and retry budgets that run out.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { serve, type ServedApp } from "../../runtime/serve.ts";
import { rateLimitedEndpoint, type RateLimitedEndpointOptions } from "../../testing/rate-limited-endpoint.ts";
import { ServerCallError } from "../client.ts";
import { modelCallCounters, resetModelCallCounters } from "./counters.ts";
import { allLimiters, endpointOf, resetLimiters } from "./limiters.ts";
import { ModelCallGaveUp, sendModelCall, type ModelCallOptions } from "./send.ts";

let served: ServedApp | undefined;
/** The limiter of the mock's endpoint (other test files in this process may have made their own). */
const limiterOf = (url: string) => allLimiters().find((l) => l.endpoint === endpointOf(url));
beforeEach(() => {
  resetLimiters();
  resetModelCallCounters();
});
afterEach(async () => {
  await served?.stop();
  served = undefined;
  resetLimiters();
  resetModelCallCounters();
});

async function start(options: RateLimitedEndpointOptions) {
  const endpoint = rateLimitedEndpoint(options);
  served = await serve(endpoint.fetch);
  return { endpoint, url: `${served.url}/v1/responses` };
}

const ask = (url: string, i: number, options: ModelCallOptions) => sendModelCall<{ output: unknown[] }>(url, { model: "m", input: [{ role: "user", content: `question ${i}` }] }, options);
const many = (url: string, from: number, n: number, options: ModelCallOptions) => Promise.all(Array.from({ length: n }, (_, k) => ask(url, from + k, options)));

describe("sendModelCall: adaptive concurrency against a provider's limits", () => {
  test("24 calls in flight allowed, 600 asked at once: every call answered once, 429s under 5% of them", async () => {
    const { endpoint, url } = await start({ maxInFlight: 24, latencyMs: 20, retryAfterS: 0.2 });
    const answers = await many(url, 0, 600, { adaptive: { ceiling: 256 } });
    expect(answers.every((a) => Array.isArray(a.output))).toBe(true);
    expect(endpoint.stats.served).toBe(600);
    expect([...endpoint.stats.servedPerQuestion.values()].every((n) => n === 1)).toBe(true);
    expect(endpoint.stats.servedPerQuestion.size).toBe(600);
    expect(endpoint.stats.rateLimited).toBeLessThanOrEqual(0.05 * 600);
    expect(modelCallCounters.rateLimited).toBe(endpoint.stats.rateLimited);
    expect(limiterOf(url)!.changes.some((c) => c.reason.startsWith("429"))).toBe(true);
  });

  test("the limit follows the provider's: 24, then 8, then 32", async () => {
    const { endpoint, url } = await start({ maxInFlight: 24, latencyMs: 20, retryAfterS: 0.1 });
    const options = { adaptive: { ceiling: 256 } };
    await many(url, 0, 400, options);
    const limiter = limiterOf(url);
    endpoint.setMaxInFlight(8);
    await many(url, 400, 300, options);
    expect(limiter!.limit).toBeLessThanOrEqual(10);
    endpoint.setMaxInFlight(32);
    endpoint.stats.maxInFlight = 0;
    await many(url, 700, 800, options);
    expect(endpoint.stats.maxInFlight).toBeGreaterThan(24);
    expect(endpoint.stats.served).toBe(1500);
    expect(endpoint.stats.servedPerQuestion.size).toBe(1500);
  });

  test("x-ratelimit-remaining-requests: calls wait for the window instead of being refused", async () => {
    const { endpoint, url } = await start({ requestsPerWindow: 40, windowMs: 200, latencyMs: 5, retryAfterS: 0.2 });
    await many(url, 0, 300, { adaptive: { ceiling: 256 } });
    expect(endpoint.stats.served).toBe(300);
    // Only a window that turns over while an answer is on its way can still refuse a call.
    expect(endpoint.stats.rateLimited).toBeLessThanOrEqual(15);
    expect(limiterOf(url)!.changes.some((c) => c.reason.startsWith("x-ratelimit-remaining-requests spent"))).toBe(true);
  });

  test("without the limiter (--no-adaptive) the same load is mostly refused at first", async () => {
    const { endpoint, url } = await start({ maxInFlight: 24, latencyMs: 20, retryAfterS: 0.05 });
    await many(url, 0, 200, { adaptive: false, maxRetries: 50, baseDelayMs: 10 });
    expect(endpoint.stats.served).toBe(200);
    expect(endpoint.stats.rateLimited).toBeGreaterThan(100);
    expect(limiterOf(url)).toBeUndefined();
  });
});

describe("sendModelCall: bounded retries", () => {
  test("a permanent 4xx is not retried", async () => {
    const { endpoint, url } = await start({ alwaysStatus: 400 });
    const error = await ask(url, 1, { adaptive: { ceiling: 8 } }).catch((e) => e);
    expect(error).toBeInstanceOf(ServerCallError);
    expect(error).not.toBeInstanceOf(ModelCallGaveUp);
    expect(error.status).toBe(400);
    expect(endpoint.stats.refused).toBe(1);
  });

  test("max_model_retries spent: one try plus N retries, then a clear error", async () => {
    const { endpoint, url } = await start({ alwaysStatus: 429, retryAfterS: 0 });
    const error = await ask(url, 1, { adaptive: { ceiling: 8 }, maxRetries: 3, baseDelayMs: 1 }).catch((e) => e);
    expect(error).toBeInstanceOf(ModelCallGaveUp);
    expect(error.status).toBe(429);
    expect(error.message).toStartWith("gave up after 3 retries");
    expect(error.body).toStartWith("gave up after 3 retries");
    expect(error.message).toContain("max_model_retries=3 spent");
    expect(endpoint.stats.refused).toBe(4);
    expect(modelCallCounters.gaveUp).toBe(1);
  });

  test("max_model_retry_seconds: a Retry-After longer than the budget left is not waited", async () => {
    const { endpoint, url } = await start({ alwaysStatus: 429, retryAfterS: 2 });
    const error = await ask(url, 1, { maxRetrySeconds: 1 }).catch((e) => e);
    expect(error).toBeInstanceOf(ModelCallGaveUp);
    expect(error.message).toContain("max_model_retry_seconds spent");
    expect(endpoint.stats.refused).toBe(1);
  });

  test("Retry-After is honoured: the wait before a retry is at least what the provider asked", async () => {
    const { url } = await start({ alwaysStatus: 429, retryAfterS: 0.3 });
    const delays: number[] = [];
    await ask(url, 1, { maxRetries: 2, baseDelayMs: 1, onRetry: (info) => delays.push(info.delayMs), sleep: async () => {} }).catch(() => {});
    expect(delays).toHaveLength(2);
    // The provider's 300 ms, then a jitter of at most base·2^attempt (1 ms, 2 ms).
    expect(delays[0]).toBeGreaterThanOrEqual(300);
    expect(delays[0]).toBeLessThanOrEqual(301);
    expect(delays[1]).toBeGreaterThanOrEqual(300);
    expect(delays[1]).toBeLessThanOrEqual(302);
  });
});
