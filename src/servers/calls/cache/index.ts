/**
 * The response cache, the first layer of the model-call path: a call is looked up before it is sent and its
 * answer kept after a complete 2xx body; identical calls in flight wait for one another.
 */
import { endpointOf } from "../endpoint.ts";
import { accountFingerprint, cacheKey, canonicalBody, requestHash } from "./key.ts";
import { isCacheable } from "./cacheable.ts";
import { currentScope, nextOccurrence, processCounts, type CacheCounts } from "./scope.ts";
import { ResponseStore, responseStorePath } from "./store.ts";

export { DEFAULT_EXPIRY, parseDuration } from "./duration.ts";
export { ResponseStore, responseStorePath, type StoreSummary } from "./store.ts";
export { addReportedCounts, callScopeMiddleware, COUNTS_HEADER, outgoingScopeHeader, processCounts, runInCallScope, SCOPE_HEADER, type CacheCounts } from "./scope.ts";

export interface ResponseCacheSettings {
  /** Lifetime of a stored answer, and the oldest answer served. */
  expiryMs: number;
  /** The SQLite file (default `<cache root>/responses.sqlite`). */
  path?: string;
  /** Where the one warning of an unusable database goes (default stderr). */
  warn?: (message: string) => void;
}

/** A model call as the cache sees it. */
export interface ModelCall {
  url: string;
  body: unknown;
  apiKey?: string;
  headers?: Record<string, string>;
}

/** Hands the cache the 2xx body text and its parse, before anyone can change the parse. */
export type KeepAnswer = (text: string, value: unknown) => void;

let settings: ResponseCacheSettings | undefined;
let store: Promise<ResponseStore | undefined> | undefined;
const inFlight = new Map<string, Promise<string | undefined>>();

/** Turns the cache on for this process (`--cache`, `+response_cache=true`). */
export function enableResponseCache(next: ResponseCacheSettings): void {
  settings = next;
  store = undefined;
}

/** Turns it off again (tests) and closes the store. */
export async function disableResponseCache(): Promise<void> {
  const open = store;
  settings = undefined;
  store = undefined;
  (await open)?.close();
}

export function responseCacheEnabled(): boolean {
  return settings !== undefined;
}

const warnOnStderr = (message: string) => process.stderr.write(`Warning: ${message}\n`);

/**
 * Serves `call` from the cache, or makes it with `send` and keeps the answer. `send` calls `keep` with the body
 * text of a complete 2xx answer; anything else it returns or throws is passed on and never stored.
 */
export function cachedModelCall<T>(call: ModelCall, send: (keep: KeepAnswer | undefined) => Promise<T>): Promise<T> {
  // Off (the usual case): the call as it is, with no layer of its own.
  const active = settings;
  return active ? cachedCall(active, call, send) : send(undefined);
}

async function cachedCall<T>(active: NonNullable<typeof settings>, call: ModelCall, send: (keep: KeepAnswer | undefined) => Promise<T>): Promise<T> {
  const opened = await (store ??= ResponseStore.open(active.path ?? responseStorePath(), active.warn ?? warnOnStderr));
  if (!opened) return send(undefined);
  const body = call.body as { model?: unknown } | null;
  const model = typeof body?.model === "string" ? body.model : "";
  const identity = { url: call.url, model, account: fingerprintOf(opened.secret, call), body: canonicalBody(call.body) };
  const scope = currentScope();
  const request = requestHash(identity);
  const key = cacheKey(request, scope.repeat, nextOccurrence(scope, request));
  const now = Date.now();
  const stored = opened.get(key, now, active.expiryMs);
  if (stored !== undefined) return hit(scope.counts, stored);
  const pending = inFlight.get(key);
  if (pending) {
    const text = await pending;
    if (text !== undefined) return hit(scope.counts, text);
  }
  let settle!: (text: string | undefined) => void;
  const mine = new Promise<string | undefined>((resolve) => (settle = resolve));
  if (!pending) inFlight.set(key, mine);
  let kept: string | undefined;
  try {
    scope.counts.misses++;
    processCounts.misses++;
    const result = await send((text, value) => {
      if (!isCacheable(value)) return;
      kept = text;
      const createdAt = Date.now();
      const url = new URL(call.url);
      opened.put({ key, model, baseUrl: endpointOf(call.url), path: url.pathname, account: identity.account, createdAt, expiresAt: createdAt + active.expiryMs, body: text });
    });
    return result;
  } finally {
    settle(kept);
    if (inFlight.get(key) === mine) inFlight.delete(key);
  }
}

// A model server sends every call with the same key and headers: their HMAC is computed once.
const fingerprints = new Map<string, string>();
function fingerprintOf(secret: string, call: ModelCall): string {
  const id = `${secret}\u0000${call.apiKey ?? ""}\u0000${call.headers ? JSON.stringify(call.headers) : ""}`;
  let fingerprint = fingerprints.get(id);
  if (fingerprint === undefined) {
    if (fingerprints.size > 1000) fingerprints.clear();
    fingerprints.set(id, (fingerprint = accountFingerprint(secret, call.apiKey, call.headers)));
  }
  return fingerprint;
}

/** A stored answer, parsed afresh (callers may change what they get). */
function hit<T>(counts: CacheCounts, text: string): T {
  counts.hits++;
  processCounts.hits++;
  return JSON.parse(text) as T;
}
