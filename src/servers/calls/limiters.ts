/** One adaptive limiter per (model endpoint, API key) in this process: the policy and every judge on that endpoint share it. */
import { AdaptiveLimiter } from "./limiter.ts";

export { endpointOf } from "./endpoint.ts";

const limiters = new Map<string, AdaptiveLimiter>();

/** The limiter of this endpoint and key, made on first use with `ceiling` (the run's `--concurrency`) as its top. */
export function limiterFor(endpoint: string, apiKey: string | undefined, ceiling: number): AdaptiveLimiter {
  const key = `${endpoint}\n${apiKey ?? ""}`;
  let limiter = limiters.get(key);
  if (!limiter) {
    limiter = new AdaptiveLimiter(endpoint, ceiling);
    limiters.set(key, limiter);
  } else limiter.raiseCeiling(ceiling);
  return limiter;
}

/** Every limiter made so far (for the progress line, the status file and the summary). */
export function allLimiters(): AdaptiveLimiter[] {
  return [...limiters.values()];
}

/** Forgets every limiter (tests that run several scenarios in one process). */
export function resetLimiters(): void {
  limiters.clear();
}
