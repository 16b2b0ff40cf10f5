/**
 * One HTTP exchange, the whole answer read as text: exactly what ofetch's `$fetch.raw(url, { retry: 0,
 * ignoreResponseError: true, responseType: "text", timeout })` sends, answers and throws, without its
 * per-call option merging (a model server makes one of these per model call).
 */

export interface TextExchange {
  status: number;
  headers: Headers;
  /** The body text ("" when the answer has none). */
  text: string;
}

export interface FetchTextOptions {
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Milliseconds before the exchange is aborted with a TimeoutError (0/undefined: none). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);
const PAYLOAD_METHODS = new Set(["PATCH", "POST", "PUT", "DELETE"]);

/** A failed exchange, worded as ofetch words it: `[POST] "url": <no response> <cause>`. */
export class FetchError extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = "FetchError";
  }
}

function requestHeaders(given: Record<string, string>, withBody: boolean): Headers {
  const headers = new Headers(given);
  if (withBody) {
    // A string body counts as JSON for ofetch: it fills in both headers when they are missing.
    if (!headers.get("content-type")) headers.set("content-type", "application/json");
    if (!headers.has("accept")) headers.set("accept", "application/json");
  }
  return headers;
}

const PREPARED = new WeakSet<object>();

/**
 * The headers `fetchText` sends with a body, made once for a caller that sends the same ones over and over (a
 * model server's upstream calls): frozen, names in lower case and in the order a Headers object lists them.
 */
export function preparedHeaders(given: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  requestHeaders(given, true).forEach((value, name) => (out[name] = value));
  Object.freeze(out);
  PREPARED.add(out);
  return out;
}

export async function fetchText(url: string, options: FetchTextOptions): Promise<TextExchange> {
  const method = options.method.toUpperCase();
  const withBody = !!options.body && PAYLOAD_METHODS.has(method);
  const headers = withBody && PREPARED.has(options.headers) ? options.headers : requestHeaders(options.headers, withBody);
  let signal = options.signal;
  const deadline = !signal && options.timeoutMs ? deadlineFor(options.timeoutMs) : undefined;
  if (deadline) signal = deadline.controller.signal;
  let response: Response;
  try {
    // ofetch hands its whole option bag to fetch: Bun reads `timeout` from it as the socket idle timeout.
    const init: RequestInit & { timeout?: number } = { method, headers, body: options.body, signal };
    if (options.timeoutMs !== undefined) init.timeout = options.timeoutMs;
    response = await fetch(url, init);
  } catch (error) {
    const detail = (error as Error | undefined)?.message || String(error ?? "");
    throw new FetchError(`[${method}] ${JSON.stringify(url)}: <no response>${detail ? ` ${detail}` : ""}`, error);
  } finally {
    if (deadline) deadline.settle();
  }
  // An answer without a body reads as "" (reading `response.body` would make a stream just to look).
  const hasBody = !NULL_BODY_STATUSES.has(response.status) && method !== "HEAD";
  return { status: response.status, headers: response.headers, text: hasBody ? await response.text() : "" };
}

/**
 * Exchanges with the same timeout that start within one short window share one controller and one timer, set
 * to fire at the window's end plus the timeout: each exchange gets at least its whole timeout and at most one
 * window more (a 600 s model-call timeout is not a timer and a controller per call). The timer goes when the
 * last exchange of its window settles.
 */
class Deadline {
  readonly controller = new AbortController();
  private inFlight = 0;
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly timeoutMs: number;

  constructor(timeoutMs: number, windowMs: number) {
    this.timeoutMs = timeoutMs;
    this.timer = setTimeout(() => {
      this.close();
      const error = Object.assign(new Error("[TimeoutError]: The operation was aborted due to timeout"), { name: "TimeoutError", code: 23 });
      this.controller.abort(error);
    }, timeoutMs + windowMs);
  }

  join(): this {
    this.inFlight++;
    return this;
  }

  settle(): void {
    if (--this.inFlight > 0) return;
    clearTimeout(this.timer);
    this.close();
  }

  /** Takes no new exchanges. */
  private close(): void {
    if (OPEN.get(this.timeoutMs)?.deadline === this) OPEN.delete(this.timeoutMs);
  }
}

/** The open window per timeout (ms): its number and its deadline. */
const OPEN = new Map<number, { window: number; deadline: Deadline }>();

function deadlineFor(timeoutMs: number): Deadline {
  // A window is a tenth of the timeout, at most 50 ms (a 50 ms timeout fires between 50 and 55 ms).
  const windowMs = Math.min(50, Math.max(1, timeoutMs / 10));
  const window = Math.floor(performance.now() / windowMs);
  const open = OPEN.get(timeoutMs);
  if (open && open.window === window) return open.deadline.join();
  const deadline = new Deadline(timeoutMs, windowMs);
  OPEN.set(timeoutMs, { window, deadline });
  return deadline.join();
}
