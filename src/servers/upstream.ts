/** Calls from a model server to its upstream (OpenAI, vLLM, …): the one model-call path of calls/ — response cache, adaptive limit, bounded retries, cost accounting. */
import { cachedModelCall } from "./calls/cache/index.ts";
import { recordModelCall } from "./calls/accounting.ts";
import { sendModelCall, type ModelCallOptions } from "./calls/send.ts";
import { batchTransport } from "./calls/batch/index.ts";

/** How a model server calls its upstream: key, headers, timeout, retry budget, adaptive concurrency. */
export type UpstreamOptions = ModelCallOptions;

/**
 * POSTs JSON to `url` and returns the parsed answer, through the model-call path (calls/send.ts): the endpoint's
 * adaptive limiter, then bounded retries of 429/5xx and connection failures. A final failure is a ServerCallError
 * (E_HTTP) carrying the upstream status and body.
 */
export function postUpstream<T = Record<string, unknown>>(url: string, body: unknown, options: UpstreamOptions = {}): Promise<T> {
  // Cache first (a hit never reaches the limiter or the accounting); a miss is sent (directly, or in a batch with
  // --batch), counted, and stored when complete.
  let batch: ReturnType<typeof batchTransport>;
  try {
    batch = batchTransport();
  } catch (error) {
    return Promise.reject(error);
  }
  return cachedModelCall({ url, body, apiKey: options.apiKey, headers: options.headers }, (keep) =>
    (batch ? batch.call<T>(url, body, { apiKey: options.apiKey, headers: options.headers, keep }) : sendModelCall<T>(url, body, keep ? { ...options, keep } : options)).then(recordModelCall),
  );
}
