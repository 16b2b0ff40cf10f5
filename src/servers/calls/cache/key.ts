/** The cache key of a model call: what the answer depends on (body, endpoint, model, account, repeat) and nothing else. */
import { createHash, createHmac } from "node:crypto";
import { canonicalJson } from "../../../outputs/digest.ts";

/** Body fields that change how a request travels, never what it asks for. */
const TRANSPORT_FIELDS = new Set(["timeout", "request_timeout", "max_retries", "request_id", "idempotency_key", "extra_headers"]);
/** Headers that trace or authenticate a request; authentication enters the key only as the account fingerprint. */
const TRACING_HEADERS = new Set(["authorization", "traceparent", "tracestate", "baggage", "user-agent", "x-request-id", "x-client-request-id", "content-length"]);

/** The request body as it matters to the answer: transport-only top-level fields dropped, keys sorted. */
export function canonicalBody(body: unknown): string {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return canonicalJson(body);
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) if (!TRANSPORT_FIELDS.has(key)) kept[key] = value;
  return canonicalJson(kept);
}

/**
 * Who is calling, as an HMAC (keyed by the store's own secret) of the API key and the headers that may
 * change an answer (organization, project, API version…). The key itself is never stored; "" when neither is set.
 */
export function accountFingerprint(secret: string, apiKey: string | undefined, headers: Record<string, string> | undefined): string {
  const kept = Object.entries(headers ?? {})
    .map(([name, value]) => [name.toLowerCase(), value] as const)
    .filter(([name]) => !TRACING_HEADERS.has(name) && !name.startsWith("x-stainless-") && name !== "content-type")
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (!apiKey && kept.length === 0) return "";
  return createHmac("sha256", secret).update(canonicalJson([apiKey ?? "", kept])).digest("hex").slice(0, 32);
}

/** What a call is, before its repeat position is known: the same text for every sample of one request. */
export interface CallIdentity {
  url: string;
  model: string;
  account: string;
  body: string;
}

/** sha256 of the call's identity (see `CallIdentity`). */
export function requestHash(identity: CallIdentity): string {
  return createHash("sha256").update(canonicalJson(["gym-response-cache/1", identity.url, identity.model, identity.account, identity.body])).digest("hex");
}

/**
 * The stored key: the request hash plus where the call sits — the rollout's repeat index (its
 * `_ng_rollout_index`) and how many identical calls came before it in that rollout — so sampled repeats stay distinct.
 */
export function cacheKey(request: string, repeat: string, occurrence: number): string {
  return createHash("sha256").update(`${request}\u0000${repeat}\u0000${occurrence}`).digest("hex");
}
