/** Bounded retries of one model call: which failures are retried, full-jitter backoff that honours the provider's wait, and the budget. */
import { GymError } from "../../errors.ts";

/** Statuses worth retrying: rate limits and transient server-side failures. */
export const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504, 520, 521, 522, 524]);

/** `+max_model_retries`: retries after the first try of one model call. */
export const DEFAULT_MAX_MODEL_RETRIES = 8;
/** `+max_model_retry_seconds`: the most one call may spend waiting between its tries. */
export const DEFAULT_MAX_MODEL_RETRY_SECONDS = 600;

export interface RetryPolicy {
  maxRetries: number;
  maxRetrySeconds: number;
  /** First backoff, ms; doubles per retry (full jitter). */
  baseDelayMs: number;
  /** Upper bound of the exponential part of one wait, ms (a provider's Retry-After may ask for more). */
  maxDelayMs: number;
  random?: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: DEFAULT_MAX_MODEL_RETRIES,
  maxRetrySeconds: DEFAULT_MAX_MODEL_RETRY_SECONDS,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
};

/**
 * Full-jitter exponential backoff: uniform in [0, min(max, base·2^attempt)], added to the provider's wait when it
 * names one — so calls refused together do not all come back the instant that wait ends, and a call refused again
 * and again waits longer each time (a spread of at most the provider's wait ran through 8 retries too fast: with
 * --no-adaptive at 10× the provider's limit, 3% of the rollouts spent their budget).
 */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, retryAfterMs?: number, random = Math.random): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** attempt);
  return (retryAfterMs ?? 0) + random() * exponential;
}

export type RetryDecision = { retry: true; delayMs: number } | { retry: false; why: "permanent" | "retries" | "seconds" };

/**
 * Whether a failed try (`status` undefined: no answer at all) is sent again and after how long: a permanent status
 * never is; otherwise until `maxRetries` retries are spent or the next wait would take the call's total waiting
 * past `maxRetrySeconds`.
 */
export function retryDecision(policy: RetryPolicy, attempt: number, waitedMs: number, status: number | undefined, retryAfterMs?: number): RetryDecision {
  if (status !== undefined && !RETRY_STATUSES.has(status)) return { retry: false, why: "permanent" };
  if (attempt >= policy.maxRetries) return { retry: false, why: "retries" };
  const delayMs = backoffDelay(attempt, policy.baseDelayMs, policy.maxDelayMs, retryAfterMs, policy.random);
  if (waitedMs + delayMs > policy.maxRetrySeconds * 1000) return { retry: false, why: "seconds" };
  return { retry: true, delayMs };
}

/** `+max_model_retries` and `+max_model_retry_seconds` from a resolved config (checked: a bad value is a clear error). */
export function retryKeysFrom(config: Record<string, unknown>): Pick<RetryPolicy, "maxRetries" | "maxRetrySeconds"> {
  const read = (key: string, fallback: number, whole: boolean) => {
    const value = config[key];
    if (value === undefined || value === null) return fallback;
    const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
    if (typeof n !== "number" || !Number.isFinite(n) || n < 0 || (whole && !Number.isInteger(n))) {
      throw new GymError("E_CONFIG", `${key} must be ${whole ? "a whole number" : "a number"} ≥ 0, got ${JSON.stringify(value)}.`, { hint: `For example +${key}=${fallback}.` });
    }
    return n;
  };
  return { maxRetries: read("max_model_retries", DEFAULT_MAX_MODEL_RETRIES, true), maxRetrySeconds: read("max_model_retry_seconds", DEFAULT_MAX_MODEL_RETRY_SECONDS, false) };
}
