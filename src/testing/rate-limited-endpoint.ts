/**
 * A model endpoint with a provider's limits, for tests and benches: at most `maxInFlight` calls at once (more are
 * answered 429 with Retry-After at once), and/or a fixed window of `requestsPerWindow` calls with OpenAI's
 * `x-ratelimit-*` headers. It counts what it saw; the limit can change while it runs.
 */
import { policyEndpoint } from "./judge-mocks.ts";

export interface RateLimitedEndpointOptions {
  /** Calls in flight the provider accepts (undefined: no concurrency limit). */
  maxInFlight?: number;
  /** Calls per window (undefined: no window); every answer then carries x-ratelimit-{limit,remaining,reset}-requests. */
  requestsPerWindow?: number;
  windowMs?: number;
  /** Time each accepted call takes. */
  latencyMs?: number;
  /** Seconds sent as Retry-After with a 429 (null: none). Default 1. */
  retryAfterS?: number | null;
  /** Every call answered with this status (a permanent 400, a 429 storm, …) instead of served. */
  alwaysStatus?: number;
}

export interface RateLimitedEndpointStats {
  /** Calls answered 200. */
  served: number;
  rateLimited: number;
  /** Calls answered `alwaysStatus`. */
  refused: number;
  inFlight: number;
  maxInFlight: number;
  /** Date.now() of the first call and of the last answer served (the span the achieved rate is measured over). */
  firstCallAt?: number;
  lastServedAt?: number;
  /** Calls served per question (the prompt's first "question N"), to prove none was answered twice. */
  servedPerQuestion: Map<string, number>;
}

export interface RateLimitedEndpoint {
  fetch: (request: Request) => Promise<Response>;
  stats: RateLimitedEndpointStats;
  /** Changes the concurrency limit (calls already in flight finish). */
  setMaxInFlight(n: number): void;
}

const json = (value: unknown, status: number, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json", ...headers } });

export function rateLimitedEndpoint(options: RateLimitedEndpointOptions = {}): RateLimitedEndpoint {
  const answer = policyEndpoint();
  const stats: RateLimitedEndpointStats = { served: 0, rateLimited: 0, refused: 0, inFlight: 0, maxInFlight: 0, servedPerQuestion: new Map() };
  let maxInFlight = options.maxInFlight;
  const windowMs = options.windowMs ?? 1000;
  let windowStart = Date.now();
  let windowUsed = 0;
  const retryAfter = options.retryAfterS === undefined ? 1 : options.retryAfterS;

  const windowHeaders = (): Record<string, string> => {
    if (options.requestsPerWindow === undefined) return {};
    const resetMs = Math.max(0, windowStart + windowMs - Date.now());
    return {
      "x-ratelimit-limit-requests": String(options.requestsPerWindow),
      "x-ratelimit-remaining-requests": String(Math.max(0, options.requestsPerWindow - windowUsed)),
      "x-ratelimit-reset-requests": `${resetMs}ms`,
    };
  };
  const limited = (type: string) => {
    stats.rateLimited++;
    const headers = { ...windowHeaders(), ...(retryAfter === null ? {} : { "retry-after": String(retryAfter) }) };
    return json({ error: { message: `Rate limit reached (${type})`, type, param: null, code: "rate_limit_exceeded" } }, 429, headers);
  };

  const fetch = async (request: Request): Promise<Response> => {
    if (request.method !== "POST") return answer(request);
    stats.firstCallAt ??= Date.now();
    if (options.alwaysStatus !== undefined) {
      stats.refused++;
      return json({ error: { message: `refused with ${options.alwaysStatus}`, type: "invalid_request_error", code: null } }, options.alwaysStatus, options.alwaysStatus === 429 && retryAfter !== null ? { "retry-after": String(retryAfter) } : {});
    }
    if (options.requestsPerWindow !== undefined) {
      if (Date.now() >= windowStart + windowMs) {
        windowStart = Date.now();
        windowUsed = 0;
      }
      if (windowUsed >= options.requestsPerWindow) return limited("requests per window");
      windowUsed++;
    }
    if (maxInFlight !== undefined && stats.inFlight >= maxInFlight) return limited("requests in flight");
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    const headers = windowHeaders();
    try {
      const text = await request.text();
      if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
      const question = /question (\d+)/.exec(text)?.[1] ?? "?";
      stats.servedPerQuestion.set(question, (stats.servedPerQuestion.get(question) ?? 0) + 1);
      stats.served++;
      stats.lastServedAt = Date.now();
      const served = await answer(new Request(request.url, { method: "POST", body: text, headers: { "content-type": "application/json" } }));
      return json(await served.json(), 200, headers);
    } finally {
      stats.inFlight--;
    }
  };
  return { fetch, stats, setMaxInFlight: (n) => (maxInFlight = n) };
}
