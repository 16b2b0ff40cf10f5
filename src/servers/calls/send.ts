/**
 * The one model-call path below the cache: each try waits for a slot of its endpoint's adaptive limiter, goes out
 * over HTTP, tells the limiter what it found, and a failure is retried within the call's bounded budget.
 */
import { ServerCallError } from "../client.ts";
import { fetchText, preparedHeaders, type TextExchange } from "../fetch-text.ts";
import { modelCallCounters } from "./counters.ts";
import { markParsed } from "../plain-json.ts";
import { retryAfterMs } from "./headers.ts";
import type { AttemptOutcome, Ticket } from "./limiter.ts";
import { endpointOf, limiterFor } from "./limiters.ts";
import { DEFAULT_RETRY_POLICY, retryDecision, type RetryPolicy } from "./retry.ts";

export interface ModelCallOptions {
  apiKey?: string;
  headers?: Record<string, string>;
  /** Per try, ms. Default 10 minutes (long generations are normal). */
  timeoutMs?: number;
  /** Retries after the first try (`+max_model_retries`). Default 8. */
  maxRetries?: number;
  /** Most seconds one call waits between its tries, in total (`+max_model_retry_seconds`). Default 600. */
  maxRetrySeconds?: number;
  /** First backoff, ms; doubles per retry, with full jitter. Default 500. */
  baseDelayMs?: number;
  /** Upper bound of the exponential part of one wait, ms. Default 30 s. */
  maxDelayMs?: number;
  /** Adaptive concurrency for this endpoint and key, up to `ceiling` calls in flight; false or absent: none. */
  adaptive?: { ceiling: number } | false;
  /** Called before each wait (for logging, and for tests to observe the schedule). */
  onRetry?: (info: { attempt: number; status?: number; delayMs: number }) => void;
  /** Sleep function, replaceable in tests. */
  sleep?: (ms: number) => Promise<void>;
  /** Given the raw text and parse of a complete HTTP 200 answer (the response cache stores these bytes). */
  keep?: (text: string, value: unknown) => void;
}

/**
 * A call that spent its retry budget. The budget comes first in the message and in the body (which a model server
 * passes on as its 500's detail), so the rollout's failure row says why: "gave up after 8 retries …: <last answer>".
 */
export class ModelCallGaveUp extends ServerCallError {
  constructor(last: ServerCallError, retries: number, waitedMs: number, why: "retries" | "seconds") {
    const budget = why === "retries" ? `max_model_retries=${retries}` : "max_model_retry_seconds";
    const note = `gave up after ${retries} retr${retries === 1 ? "y" : "ies"} and ${(waitedMs / 1000).toFixed(1)} s of waiting (${budget} spent; raise +max_model_retries / +max_model_retry_seconds, or lower --concurrency)`;
    const body = last.reason === "status" ? `${note}; the last answer (${last.status}): ${last.body}` : note;
    super({ server: last.server, path: last.path, method: last.method, reason: last.reason, status: last.status, body, detail: last.message, cause: last });
    this.message = `${note}: ${last.message}`;
  }
}

/**
 * POSTs JSON to a model endpoint and returns the parsed answer. 429s, 5xx and connection failures are retried
 * with full-jitter exponential backoff, never sooner than `Retry-After` / `retry-after-ms` asks; a permanent 4xx
 * is not. The final failure is a ServerCallError (E_HTTP) carrying the upstream status and body.
 */
export async function sendModelCall<T = Record<string, unknown>>(url: string, body: unknown, options: ModelCallOptions = {}): Promise<T> {
  // The retry policy is made when a try fails (most calls never need it).
  let policy: RetryPolicy | undefined;
  const headers = headersFor(options.headers, options.apiKey);
  const payload = JSON.stringify(body);
  const timeoutMs = options.timeoutMs ?? 600_000;
  urlPath(url); // an invalid URL throws here, before anything is counted or sent
  const limiter = options.adaptive ? limiterFor(endpointOf(url), options.apiKey, options.adaptive.ceiling) : undefined;
  modelCallCounters.calls++;
  let waitedMs = 0;
  for (let attempt = 0; ; attempt++) {
    const ticket: Ticket | undefined = await limiter?.acquire(attempt > 0);
    modelCallCounters.inFlight++;
    const startedAt = performance.now();
    modelCallCounters.firstStartAt ??= startedAt;
    let exchange: TextExchange | undefined;
    let failure: unknown;
    try {
      exchange = await fetchText(url, { method: "POST", headers, body: payload, timeoutMs });
    } catch (error) {
      failure = error;
    }
    modelCallCounters.inFlight--;
    modelCallCounters.lastEndAt = performance.now();
    modelCallCounters.busyMs += modelCallCounters.lastEndAt - startedAt;
    const status = exchange?.status;
    const limited = status === 429;
    const waitAsked = exchange && status !== undefined && status >= 400 ? retryAfterMs(exchange.headers) : undefined;
    const outcome: AttemptOutcome = status !== undefined && status >= 200 && status < 300 ? { kind: "ok", headers: exchange!.headers } : limited ? { kind: "rate_limited", headers: exchange!.headers, retryAfterMs: waitAsked } : { kind: "neutral", headers: exchange?.headers };
    if (ticket) limiter!.release(ticket, outcome);
    if (outcome.kind === "ok") {
      modelCallCounters.succeeded++;
      try {
        const value = JSON.parse(exchange!.text) as T;
        markParsed(value);
        if (status === 200) options.keep?.(exchange!.text, value);
        return value;
      } catch (error) {
        throw new ServerCallError({ server: `upstream ${url}`, path: urlPath(url), method: "POST", reason: "invalid_json", status, body: exchange!.text, cause: error });
      }
    }
    if (limited) modelCallCounters.rateLimited++;
    const error = exchange ? new ServerCallError({ server: `upstream ${url}`, path: urlPath(url), method: "POST", reason: "status", status, body: exchange.text }) : transportError(url, failure, timeoutMs);
    policy ??= retryPolicy(options);
    const decision = retryDecision(policy, attempt, waitedMs, status, waitAsked);
    if (!decision.retry) {
      if (decision.why === "permanent") throw error;
      modelCallCounters.gaveUp++;
      throw new ModelCallGaveUp(error, attempt, waitedMs, decision.why);
    }
    options.onRetry?.({ attempt: attempt + 1, status, delayMs: decision.delayMs });
    modelCallCounters.retries++;
    if (limiter) limiter.stats.retries++;
    if (limited) {
      modelCallCounters.rateLimitBackoffMs += decision.delayMs;
      if (limiter) limiter.stats.backoffMs += decision.delayMs;
    }
    waitedMs += decision.delayMs;
    await (options.sleep ?? sleepMs)(decision.delayMs);
  }
}

const sleepMs = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function retryPolicy(options: ModelCallOptions): RetryPolicy {
  return {
    ...DEFAULT_RETRY_POLICY,
    ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }),
    ...(options.maxRetrySeconds !== undefined && { maxRetrySeconds: options.maxRetrySeconds }),
    ...(options.baseDelayMs !== undefined && { baseDelayMs: options.baseDelayMs }),
    ...(options.maxDelayMs !== undefined && { maxDelayMs: options.maxDelayMs }),
  };
}

function transportError(url: string, failure: unknown, timeoutMs: number): ServerCallError {
  const timedOut = /timeout|aborted/i.test(String((failure as Error)?.message ?? failure));
  return new ServerCallError({
    server: `upstream ${url}`,
    path: urlPath(url),
    method: "POST",
    reason: timedOut ? "timeout" : "connection",
    detail: timedOut ? `${timeoutMs} ms` : (failure as Error)?.message,
    cause: failure,
  });
}

// A model server calls one upstream URL over and over: its path (for error reports) is parsed once.
let lastUrl: string | undefined;
let lastPath = "";

/** `new URL(url).pathname` (throwing as it does for an invalid URL), remembered for the last URL. */
function urlPath(url: string): string {
  if (url !== lastUrl) {
    lastPath = new URL(url).pathname;
    lastUrl = url;
  }
  return lastPath;
}

/** The headers of a model call by key and extra headers (a model server sends the same ones on every call). */
const HEADERS = new Map<string, Record<string, string>>();

function headersFor(extra: Record<string, string> | undefined, apiKey: string | undefined): Record<string, string> {
  const id = `${apiKey ?? ""}\u0000${extra ? JSON.stringify(extra) : ""}`;
  let headers = HEADERS.get(id);
  if (!headers) {
    const given: Record<string, string> = { "content-type": "application/json", ...extra };
    if (apiKey) given.authorization = `Bearer ${apiKey}`;
    headers = preparedHeaders(given);
    if (HEADERS.size > 256) HEADERS.clear();
    HEADERS.set(id, headers);
  }
  return headers;
}
