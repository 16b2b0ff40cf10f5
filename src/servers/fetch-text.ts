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

export async function fetchText(url: string, options: FetchTextOptions): Promise<TextExchange> {
  const method = options.method.toUpperCase();
  const headers = new Headers(options.headers);
  if (options.body && PAYLOAD_METHODS.has(method)) {
    // A string body counts as JSON for ofetch: it fills in both headers when they are missing.
    if (!headers.get("content-type")) headers.set("content-type", "application/json");
    if (!headers.has("accept")) headers.set("accept", "application/json");
  }
  let signal = options.signal;
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (!signal && options.timeoutMs) {
    const controller = new AbortController();
    timer = setTimeout(() => {
      const error = Object.assign(new Error("[TimeoutError]: The operation was aborted due to timeout"), { name: "TimeoutError", code: 23 });
      controller.abort(error);
    }, options.timeoutMs);
    signal = controller.signal;
  }
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
    if (timer) clearTimeout(timer);
  }
  const hasBody = response.body && !NULL_BODY_STATUSES.has(response.status) && method !== "HEAD";
  return { status: response.status, headers: response.headers, text: hasBody ? await response.text() : "" };
}
