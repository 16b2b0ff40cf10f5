/** A run's model calls as its user sees them: on the progress line, in the status file, and in the closing summary. */
import { effectiveConcurrency, modelCallCounters } from "../servers/calls/counters.ts";
import { allLimiters } from "../servers/calls/limiters.ts";

/** The changes of each limit kept in the status file (the newest; `limit_changes_total` counts them all). */
const STATUS_CHANGES = 200;

const limits = () => allLimiters().filter((l) => l.stats.calls > 0);

/** " · limit 22 · 20 calls in flight · 9 429s · 9 retries" for the progress line; "" before the first model call. */
export function modelCallsProgress(): string {
  const c = modelCallCounters;
  if (c.calls === 0) return "";
  const limit = limits().map((l) => l.limit).join("+");
  return `${limit ? ` · limit ${limit}` : ""} · ${c.inFlight} calls in flight · ${c.rateLimited} 429s · ${c.retries} retries`;
}

export interface ModelCallsStatus {
  calls: number;
  succeeded: number;
  rate_limited: number;
  retries: number;
  gave_up: number;
  in_flight: number;
  effective_concurrency: number | null;
  rate_limit_backoff_seconds: number;
  endpoints: {
    endpoint: string;
    limit: number;
    ceiling: number;
    in_flight: number;
    rate_limited: number;
    paused_seconds: number;
    limit_changes_total: number;
    limit_changes: { at: string; from: number; to: number; reason: string }[];
  }[];
}

/** The `model_calls` block of the run's status file (undefined when the run made no model call). */
export function modelCallsStatus(): ModelCallsStatus | undefined {
  const c = modelCallCounters;
  if (c.calls === 0) return undefined;
  const effective = effectiveConcurrency(c);
  return {
    calls: c.calls,
    succeeded: c.succeeded,
    rate_limited: c.rateLimited,
    retries: c.retries,
    gave_up: c.gaveUp,
    in_flight: c.inFlight,
    effective_concurrency: effective === undefined ? null : round(effective, 2),
    rate_limit_backoff_seconds: round(c.rateLimitBackoffMs / 1000, 3),
    endpoints: limits().map((l) => ({
      endpoint: l.endpoint,
      limit: l.limit,
      ceiling: l.ceiling,
      in_flight: l.inFlight,
      rate_limited: l.stats.rateLimited,
      paused_seconds: round(l.stats.pausedMs / 1000, 3),
      limit_changes_total: l.changesTotal,
      limit_changes: l.changes.slice(-STATUS_CHANGES).map(({ at, from, to, reason }) => ({ at, from, to, reason })),
    })),
  };
}

/** The summary's line: calls, 429 share, retries, effective concurrency beside the limit, and the time rate limits cost. */
export function modelCallsSummary(): string | undefined {
  const s = modelCallsStatus();
  if (!s) return undefined;
  const share = s.succeeded > 0 ? ` (${((100 * s.rate_limited) / s.succeeded).toFixed(1)}% of successful calls)` : "";
  const paused = s.endpoints.reduce((sum, e) => sum + e.paused_seconds, 0);
  const limit = s.endpoints.length ? `, adaptive limit now ${s.endpoints.map((e) => `${e.limit} of ${e.ceiling}`).join(", ")}` : ", fixed concurrency";
  return [
    `Model calls: ${s.calls} (${s.succeeded} answered, ${s.gave_up} gave up), ${s.rate_limited} 429s${share}, ${s.retries} retries.`,
    `  effective concurrency ${s.effective_concurrency ?? "-"}${limit}; rate-limit time lost: ${s.rate_limit_backoff_seconds.toFixed(1)} call-s of backoff, ${paused.toFixed(1)} s paused.`,
  ].join("\n");
}

const round = (n: number, digits: number) => Number(n.toFixed(digits));
