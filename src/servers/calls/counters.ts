/** Process-wide counts of model calls (every endpoint, adaptive or not): what the progress line and the summary report. */

export interface ModelCallCounters {
  /** Calls started (one per sendModelCall, whatever its number of tries). */
  calls: number;
  succeeded: number;
  /** Tries answered 429. */
  rateLimited: number;
  /** Tries after the first. */
  retries: number;
  /** Calls that spent their retry budget (each fails its rollout). */
  gaveUp: number;
  /** Tries in flight now. */
  inFlight: number;
  /** Call-milliseconds waited before a retry of a 429. */
  rateLimitBackoffMs: number;
}

export const modelCallCounters: ModelCallCounters = { calls: 0, succeeded: 0, rateLimited: 0, retries: 0, gaveUp: 0, inFlight: 0, rateLimitBackoffMs: 0 };

/** Back to zero (tests that run several scenarios in one process). */
export function resetModelCallCounters(): void {
  Object.assign(modelCallCounters, { calls: 0, succeeded: 0, rateLimited: 0, retries: 0, gaveUp: 0, inFlight: 0, rateLimitBackoffMs: 0 });
}
