/** collect: dispatches materialized rows to their agents' `/run`, at bounded concurrency, and classifies every outcome. */
import type { Row } from "../jsonl/read.ts";
import { mapConcurrent } from "../jsonl/concurrency.ts";
import { isServerCallError, type ServerDirectory } from "../servers/client.ts";
import type { LatencyTracker } from "../metrics/latency.ts";
import { rootCause } from "./root-cause.ts";
import { maskSecretText } from "../config/secrets.ts";
import { responseCacheEnabled, runInCallScope, type CacheCounts } from "../servers/calls/cache/index.ts";
import { batchTransportEnabled } from "../servers/calls/batch/index.ts";

/** One rollout to dispatch: the materialized row and the attempt number it runs as. */
export interface DispatchRequest {
  id: string;
  row: Row;
  attempt: number;
}

/** Every admitted request yields exactly one event (a request cancelled by an abort yields none). */
export type CollectEvent =
  | { kind: "success"; request: DispatchRequest; row: Row; seconds: number }
  | { kind: "failure"; request: DispatchRequest; row: Row; seconds: number }
  | { kind: "drained"; request: DispatchRequest; row: Row }
  | { kind: "unrouted"; request: DispatchRequest; row: Row; message: string };

export interface CollectOptions {
  agents: ServerDirectory;
  concurrency: number;
  latency: LatencyTracker;
  /** Persist the attempt reservation before the request is sent. */
  reserve: (request: DispatchRequest) => Promise<void>;
  /** A failed `/run` becomes a sidecar failure (true) or an evidence row that aborts the run (false, NeMo Gym's default). */
  routeFailuresToSidecar: boolean;
  /** Monotonic deadline (performance.now() ms) after which no new rollout starts. */
  deadlineMs?: number;
  drainMarginS?: number;
  /** Stops admitting new rows (Ctrl-C, or an unrouted failure). */
  signal?: AbortSignal;
  /** Per-call timeout of `/run`, ms; 0 = none. */
  timeoutMs?: number;
}

const IDENTITY_FIELDS = ["_ng_task_index", "_ng_rollout_index", "agent_ref", "task_source", "skills_ref", "_ng_attempt_index", "_ng_rollout_id", "_ng_environment_server", "_ng_result_type"];
const GATEWAY_STATUSES = new Set([429, 502, 503, 504]);
const MAX_RATE_LIMIT_WAITS = 8;

/** Yields one event per request as rollouts finish (completion order). */
export async function* collect(requests: Iterable<DispatchRequest> | AsyncIterable<DispatchRequest>, options: CollectOptions): AsyncGenerator<CollectEvent> {
  const pacer = new RateLimitPacer();
  yield* mapConcurrent(admit(requests, options.signal), options.concurrency, (request) => dispatchOne(request, options, pacer));
}

async function* admit(requests: Iterable<DispatchRequest> | AsyncIterable<DispatchRequest>, signal?: AbortSignal): AsyncGenerator<DispatchRequest> {
  for await (const request of requests) {
    if (signal?.aborted) return;
    yield request;
  }
}

async function dispatchOne(request: DispatchRequest, options: CollectOptions, pacer: RateLimitPacer): Promise<CollectEvent> {
  // The budget check runs after the slot is acquired, right before the POST: it sees the real time left.
  if (options.deadlineMs !== undefined) {
    const remaining = (options.deadlineMs - performance.now()) / 1000;
    if (remaining <= 0 || remaining < options.latency.margin(options.drainMarginS)) return drained(request);
  }
  await options.reserve(request);
  const body = request.attempt > 0 ? { ...request.row, _ng_attempt_index: request.attempt } : request.row;
  const agent = options.agents.get((request.row.agent_ref as { name: string }).name);
  const started = performance.now();
  // With the response cache on, each /run is one call scope: its model calls are keyed by the repeat index.
  const cache: CacheCounts | undefined = responseCacheEnabled() ? { hits: 0, misses: 0 } : undefined;
  // With --batch too: the Batch API journal records each model call's (task, rollout).
  const scoped = cache ?? (batchTransportEnabled() ? { hits: 0, misses: 0 } : undefined);
  for (let wait = 0; ; wait++) {
    await pacer.ready();
    let status: number | undefined;
    let text = "";
    let failureType = "HTTPError";
    let retryAfter: string | null = null;
    try {
      // Only the top level of the answer is changed here (stamp): the rest is read (written out), never changed.
      const post = () => agent.post("/run", body, { timeoutMs: options.timeoutMs, readOnlyAnswer: true });
      const reply = scoped ? await inCallScope(request.row, post, scoped) : await post();
      status = reply.status;
      // The text and headers are read only on failure: an in-process answer is an object until asked for text.
      if (reply.ok) {
        const seconds = (performance.now() - started) / 1000;
        let result: Row;
        try {
          result = ownTopLevel(reply.json<Row>());
        } catch {
          return classifyFailure(request, options, "agent_request_failed", "JSONDecodeError", `/run answered ${status} with a body that is not JSON`, status, reply.text, seconds);
        }
        stamp(result, body);
        if (cache) result._ng_response_cache = cache;
        options.latency.record(seconds, true);
        const failed = typeof result._ng_failure_class === "string";
        return { kind: failed ? "failure" : "success", request, row: failed ? withElapsed(result, seconds) : result, seconds };
      }
      text = reply.text;
      retryAfter = reply.headers.get("retry-after");
    } catch (error) {
      if (!isServerCallError(error)) throw error;
      failureType = error.reason === "timeout" ? "TimeoutError" : error.reason === "connection" ? "ClientConnectorError" : "JSONDecodeError";
      text = error.body || error.message;
      status = error.status;
    }
    // A rate limit or an overloaded gateway before the rollout ran: slow everyone down and send again.
    if ((status === 429 || status === 503) && wait < MAX_RATE_LIMIT_WAITS && !options.signal?.aborted) {
      pacer.backOff(retryAfter, wait);
      continue;
    }
    const seconds = (performance.now() - started) / 1000;
    const failureClass = status === undefined || GATEWAY_STATUSES.has(status) ? "agent_request_failed" : "agent_run_error";
    const message = status === undefined ? rootCause(text) : `/run answered ${status}: ${rootCause(text)}`;
    return classifyFailure(request, options, failureClass, failureType, message, status, text, seconds);
  }
}

function classifyFailure(request: DispatchRequest, options: CollectOptions, failureClass: string, failureType: string, shownMessage: string, status: number | undefined, shownBody: string, seconds: number): CollectEvent {
  options.latency.record(seconds, false);
  // An upstream error body may echo the request's Authorization header or a key: neither is stored nor printed.
  const message = maskSecretText(shownMessage);
  const body = maskSecretText(shownBody);
  const row: Row = {
    _ng_task_index: request.row._ng_task_index,
    _ng_rollout_index: request.row._ng_rollout_index,
    agent_ref: request.row.agent_ref,
    ...(request.attempt > 0 ? { _ng_attempt_index: request.attempt } : {}),
    _ng_failure_class: failureClass,
    _ng_failure_type: failureType,
    _ng_failure_message: message,
    _ng_failure_http_status: status ?? null,
    _ng_failure_response_body: body.length > 2000 ? `${body.slice(0, 2000)}…` : body,
    elapsed_seconds: round3(seconds),
  };
  if (options.routeFailuresToSidecar) return { kind: "failure", request, row, seconds };
  return { kind: "unrouted", request, row: { ...row, _ng_omitted_rollout: true, _ng_unrouted_run_error: true }, message };
}

function drained(request: DispatchRequest): CollectEvent {
  return {
    kind: "drained",
    request,
    row: {
      _ng_task_index: request.row._ng_task_index,
      _ng_rollout_index: request.row._ng_rollout_index,
      agent_ref: request.row.agent_ref,
      _ng_no_persist: true,
      _ng_omitted_rollout: true,
      _ng_dispatch_drained: true,
      _ng_failure_class: "cancelled",
      _ng_failure_message: "not started: the dispatch budget ran out",
    },
  };
}

/** A fresh top level (same keys, same order) over the answer's own nested values; non-objects as they are. */
function ownTopLevel(answer: Row): Row {
  if (answer === null || typeof answer !== "object") return answer;
  return Array.isArray(answer) ? (answer.slice() as unknown as Row) : { ...answer };
}

/** Copies the identity fields of the request onto the agent's result (the agent's own fields are left alone). */
function stamp(result: Row, request: Row): void {
  for (const key of IDENTITY_FIELDS) if (request[key] !== undefined) result[key] = request[key];
}

/** Runs one /run in its own call scope, adding the cache hits and misses of its model calls to `into`. */
async function inCallScope<T>(row: Row, post: () => Promise<T>, into: CacheCounts): Promise<T> {
  const { result, counts } = runInCallScope(row._ng_rollout_index, post, row._ng_task_index);
  try {
    return await result;
  } finally {
    into.hits += counts.hits;
    into.misses += counts.misses;
  }
}

function withElapsed(row: Row, seconds: number): Row {
  return row.elapsed_seconds === undefined ? { ...row, elapsed_seconds: round3(seconds) } : row;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Shared pause after a 429/503: honours Retry-After (seconds or HTTP date), else exponential backoff with jitter. */
class RateLimitPacer {
  private resumeAt = 0;

  backOff(retryAfter: string | null, attempt: number): void {
    let seconds = Number(retryAfter);
    if (retryAfter && !Number.isFinite(seconds)) seconds = (Date.parse(retryAfter) - Date.now()) / 1000;
    if (!Number.isFinite(seconds) || seconds < 0) seconds = Math.min(30, 0.25 * 2 ** attempt) * (0.5 + Math.random());
    this.resumeAt = Math.max(this.resumeAt, performance.now() + seconds * 1000);
  }

  async ready(): Promise<void> {
    const wait = this.resumeAt - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
