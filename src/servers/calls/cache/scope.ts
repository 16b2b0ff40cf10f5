/** Where a model call sits: the rollout it belongs to (repeat index, attempt) carried with AsyncLocalStorage, and across HTTP in a header. */
import { AsyncLocalStorage } from "node:async_hooks";
import type { MiddlewareHandler } from "hono";

/** Calls served from the cache (hits) and sent upstream (misses). */
export interface CacheCounts {
  hits: number;
  misses: number;
}

/** One rollout attempt's calls: its repeat index, and how many times each request was made in it so far. */
export interface CallScope {
  repeat: string;
  /** The task index of the rollout (set by collection; the Batch API journal records it). */
  task?: string;
  /** Unique per attempt, so a retried rollout counts its calls from the start again. */
  attempt: string;
  seen: Map<string, number>;
  counts: CacheCounts;
}

/** The header that carries a scope to a separately served server: `<repeat>;<attempt>`. */
export const SCOPE_HEADER = "x-gym-call-scope";
/** The header a served server answers with: `<hits>,<misses>` of the calls the request made. */
export const COUNTS_HEADER = "x-gym-response-cache";

const storage = new AsyncLocalStorage<CallScope>();
/** Calls made outside any rollout (a NeMo Gym client, a probe): counted per process, so repeats still differ. */
const unscoped: CallScope = { repeat: "-", attempt: "-", seen: new Map(), counts: { hits: 0, misses: 0 } };
/** Scopes of requests that arrived over HTTP, by attempt (the oldest forgotten first). */
const remote = new Map<string, Map<string, number>>();
const REMEMBERED_ATTEMPTS = 20_000;
let attempts = 0;

/** Runs `fn` as one rollout attempt with repeat index `repeat`; `counts` fills in as its calls are made. */
export function runInCallScope<T>(repeat: unknown, fn: () => Promise<T>, task?: unknown): { result: Promise<T>; counts: CacheCounts } {
  const scope: CallScope = { repeat: String(repeat ?? "-"), ...(task !== undefined && { task: String(task) }), attempt: `${process.pid}.${++attempts}.${Date.now()}`, seen: new Map(), counts: { hits: 0, misses: 0 } };
  return { result: storage.run(scope, fn), counts: scope.counts };
}

/** The scope of the call being made (the process-wide one outside any rollout). */
export function currentScope(): CallScope {
  return storage.getStore() ?? unscoped;
}

/** The position of this request within its scope: 0 for the first identical call, 1 for the next… */
export function nextOccurrence(scope: CallScope, request: string): number {
  const n = scope.seen.get(request) ?? 0;
  if (scope === unscoped && scope.seen.size > 1_000_000) scope.seen.clear();
  scope.seen.set(request, n + 1);
  return n;
}

/** The scope header for an outgoing HTTP call, or undefined outside any rollout. */
export function outgoingScopeHeader(): string | undefined {
  const scope = storage.getStore();
  return scope ? `${encodeURIComponent(scope.repeat)};${scope.attempt}` : undefined;
}

/** This process's model calls (those of separately served servers included, as they report them). */
export const processCounts: CacheCounts = { hits: 0, misses: 0 };

/** Adds what a served server reported in its counts header to the current scope. */
export function addReportedCounts(header: string | null | undefined): void {
  if (!header) return;
  const [hits, misses] = header.split(",").map(Number);
  const scope = storage.getStore();
  if (!scope || !Number.isFinite(hits) || !Number.isFinite(misses)) return;
  scope.counts.hits += hits!;
  scope.counts.misses += misses!;
  processCounts.hits += hits!;
  processCounts.misses += misses!;
}

/** Hono middleware: a request carrying a scope header runs in that scope and answers with its counts. */
export const callScopeMiddleware: MiddlewareHandler = async (c, next) => {
  const header = c.req.header(SCOPE_HEADER);
  if (!header) return next();
  const split = header.indexOf(";");
  const repeat = decodeURIComponent(split < 0 ? header : header.slice(0, split));
  const attempt = split < 0 ? "" : header.slice(split + 1);
  let seen = remote.get(attempt);
  if (!seen) {
    seen = new Map();
    remote.set(attempt, seen);
    if (remote.size > REMEMBERED_ATTEMPTS) remote.delete(remote.keys().next().value!);
  }
  const scope: CallScope = { repeat, attempt, seen, counts: { hits: 0, misses: 0 } };
  await storage.run(scope, next);
  if (scope.counts.hits || scope.counts.misses) c.header(COUNTS_HEADER, `${scope.counts.hits},${scope.counts.misses}`);
};
