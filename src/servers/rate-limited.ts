/** A ServerClient call that waits out rate limits (429, or 503 with Retry-After) instead of failing the rollout. */
import { ServerCallError, type ServerClient, type ServerRequestOptions } from "./client.ts";
import type { Cookies } from "./cookies.ts";
import { parseRetryAfter } from "./calls/headers.ts";
import { backoffDelay } from "./calls/retry.ts";

export interface RateLimitOptions {
  /** How many times to wait and send again. Default 8. */
  retries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * POSTs like `client.call`, but a 429 (or a 503 that says when to come back) is waited out — honouring
 * Retry-After, else exponential backoff with jitter — and sent again. Other statuses fail as usual.
 */
export async function callRateLimited<T>(client: ServerClient, path: string, json: unknown, options: ServerRequestOptions & RateLimitOptions = {}): Promise<{ body: T; cookies: Cookies }> {
  const retries = options.retries ?? 8;
  for (let attempt = 0; ; attempt++) {
    const reply = await client.post(path, json, options);
    if (reply.ok) {
      const body = reply.json<T>();
      // The jar is made when read (an in-process answer builds it on demand).
      return {
        body,
        get cookies(): Cookies {
          return reply.cookies;
        },
      };
    }
    const retryAfter = parseRetryAfter(reply.headers.get("retry-after"));
    const limited = reply.status === 429 || (reply.status === 503 && retryAfter !== undefined);
    if (!limited || attempt >= retries) {
      throw new ServerCallError({ server: client.name, path, method: "POST", reason: "status", status: reply.status, body: reply.text });
    }
    await new Promise((resolve) => setTimeout(resolve, backoffDelay(attempt, options.baseDelayMs ?? 250, options.maxDelayMs ?? 30_000, retryAfter)));
  }
}
