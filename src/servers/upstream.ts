/** Calls from a model server to its upstream (OpenAI, vLLM, …): retries on 429/5xx with backoff, Retry-After, timeout. */
import { ServerCallError } from "./client.ts";
import { fetchText } from "./fetch-text.ts";
import { cachedModelCall, type KeepAnswer } from "./calls/cache/index.ts";
import { recordModelCall } from "./calls/accounting.ts";

export interface UpstreamOptions {
  apiKey?: string;
  headers?: Record<string, string>;
  /** Per attempt, ms. Default 10 minutes (long generations are normal). */
  timeoutMs?: number;
  /** Retries after the first try. Default 8. */
  maxRetries?: number;
  /** First backoff, ms; doubles per retry, with full jitter. Default 500. */
  baseDelayMs?: number;
  /** Upper bound of one wait, ms (a longer Retry-After is capped here). Default 30 s. */
  maxDelayMs?: number;
  /** Called before each wait (for logging, and for tests to observe the schedule). */
  onRetry?: (info: { attempt: number; status?: number; delayMs: number }) => void;
  /** Sleep function, replaceable in tests. */
  sleep?: (ms: number) => Promise<void>;
}

/** Statuses worth retrying: rate limits and transient server-side failures. */
export const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504, 520, 521, 522, 524]);

/**
 * POSTs JSON to `url` and returns the parsed answer. Retries 429/5xx and connection failures with exponential
 * backoff and jitter, waiting at least what `Retry-After` asks. A final failure is a ServerCallError (E_HTTP)
 * carrying the upstream status and body.
 */
export async function postUpstream<T = Record<string, unknown>>(url: string, body: unknown, options: UpstreamOptions = {}): Promise<T> {
  return cachedModelCall({ url, body, apiKey: options.apiKey, headers: options.headers }, (keep) => sendUpstream<T>(url, body, options, keep));
}

async function sendUpstream<T>(url: string, body: unknown, options: UpstreamOptions, keep: KeepAnswer | undefined): Promise<T> {
  const maxRetries = options.maxRetries ?? 8;
  const sleep = options.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const payload = JSON.stringify(body);
  const path = urlPath(url);
  for (let attempt = 0; ; attempt++) {
    let status: number | undefined;
    let text = "";
    let retryAfterMs: number | undefined;
    let failure: unknown;
    try {
      const response = await fetchText(url, { method: "POST", headers, body: payload, timeoutMs: options.timeoutMs ?? 600_000 });
      status = response.status;
      text = response.text;
      if (status >= 200 && status < 300) {
        try {
          const value = JSON.parse(text) as T;
          if (status === 200) keep?.(text, value);
          return recordModelCall(value);
        } catch (error) {
          throw new ServerCallError({ server: `upstream ${url}`, path, method: "POST", reason: "invalid_json", status, body: text, cause: error });
        }
      }
      retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
      if (!RETRY_STATUSES.has(status) || attempt >= maxRetries) {
        throw new ServerCallError({ server: `upstream ${url}`, path, method: "POST", reason: "status", status, body: text });
      }
    } catch (error) {
      if (error instanceof ServerCallError) throw error;
      failure = error;
      const timedOut = /timeout|aborted/i.test(String((error as Error)?.message ?? error));
      if (attempt >= maxRetries) {
        throw new ServerCallError({
          server: `upstream ${url}`,
          path,
          method: "POST",
          reason: timedOut ? "timeout" : "connection",
          detail: timedOut ? `${options.timeoutMs ?? 600_000} ms` : (error as Error)?.message,
          cause: failure,
        });
      }
    }
    const delayMs = backoffDelay(attempt, options.baseDelayMs ?? 500, options.maxDelayMs ?? 30_000, retryAfterMs);
    options.onRetry?.({ attempt: attempt + 1, status, delayMs });
    await sleep(delayMs);
  }
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

/** Full-jitter exponential backoff, but never shorter than the server's Retry-After (capped at `maxMs`). */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, retryAfterMs?: number, random = Math.random): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** attempt);
  const jittered = exponential / 2 + random() * (exponential / 2);
  return Math.min(maxMs, Math.max(jittered, retryAfterMs ?? 0));
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
