/** What a provider's answer says about its rate limits: Retry-After, retry-after-ms, x-ratelimit-{limit,remaining,reset}-{requests,tokens}. */

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** How long the provider asks us to wait: `retry-after-ms` (OpenAI, Azure) wins over `Retry-After`. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number(headers.get("retry-after-ms") ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  return parseRetryAfter(headers.get("retry-after"), now);
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * An `x-ratelimit-reset-*` value as milliseconds from now: OpenAI's Go-style durations ("1s", "6m0s", "20ms",
 * "1h2m3.5s"), plain seconds ("0.5"), or an epoch time in seconds (> 10⁹, as some gateways send).
 */
export function parseResetMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  const plain = Number(text);
  if (text !== "" && Number.isFinite(plain)) return plain > 1e9 ? Math.max(0, plain * 1000 - now) : Math.max(0, plain * 1000);
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(text)) return undefined;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) total += Number(amount) * UNIT_MS[unit!]!;
  return total;
}

/** One `x-ratelimit-*` family (requests or tokens) of one answer. */
export interface RateLimitWindow {
  limit?: number;
  remaining: number;
  /** Milliseconds until the window refills (when the provider says). */
  resetMs?: number;
}

/** The `requests` and `tokens` windows an answer reports (absent when it sends no such headers). */
export function rateLimitWindows(headers: Headers, now = Date.now()): { requests?: RateLimitWindow; tokens?: RateLimitWindow } {
  const window = (kind: string): RateLimitWindow | undefined => {
    const remaining = Number(headers.get(`x-ratelimit-remaining-${kind}`) ?? NaN);
    if (!Number.isFinite(remaining)) return undefined;
    const limit = Number(headers.get(`x-ratelimit-limit-${kind}`) ?? NaN);
    return { remaining, limit: Number.isFinite(limit) ? limit : undefined, resetMs: parseResetMs(headers.get(`x-ratelimit-reset-${kind}`), now) };
  };
  return { requests: window("requests"), tokens: window("tokens") };
}
