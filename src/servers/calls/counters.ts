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
  /** Sum of try durations (ms): over the span from first start to last end, the effective concurrency. */
  busyMs: number;
  firstStartAt?: number;
  lastEndAt?: number;
}

const zero = (): ModelCallCounters => ({ calls: 0, succeeded: 0, rateLimited: 0, retries: 0, gaveUp: 0, inFlight: 0, rateLimitBackoffMs: 0, busyMs: 0, firstStartAt: undefined, lastEndAt: undefined });

export const modelCallCounters: ModelCallCounters = zero();

/** Calls in flight on average while any was (undefined before the first call ended). */
export function effectiveConcurrency(stats: { busyMs: number; firstStartAt?: number; lastEndAt?: number }): number | undefined {
  if (stats.firstStartAt === undefined || stats.lastEndAt === undefined || stats.lastEndAt <= stats.firstStartAt) return undefined;
  return stats.busyMs / (stats.lastEndAt - stats.firstStartAt);
}

/** Back to zero (tests that run several scenarios in one process). */
export function resetModelCallCounters(): void {
  Object.assign(modelCallCounters, zero());
}
