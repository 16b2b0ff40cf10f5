/** Where a model call goes: its endpoint (the API base URL) and its operation. The one rule for every part of the call path. */

/** The operations a model endpoint serves, as the last segments of a call's URL path. */
const OPERATIONS = ["chat/completions", "completions", "responses", "messages", "embeddings", "tokenize", "detokenize"];
const OPERATION_AT_END = new RegExp(`/+(${OPERATIONS.join("|")})/?$`);

/**
 * `http://host:8000/v1/chat/completions?x=1` → base `http://host:8000/v1`, operation `chat/completions` (or
 * undefined when the path ends in no known operation). The query and fragment never belong to the base.
 */
export function splitEndpoint(url: string): { base: string; operation: string | undefined } {
  const parsed = new URL(url);
  const match = OPERATION_AT_END.exec(parsed.pathname);
  const path = match ? parsed.pathname.slice(0, match.index) : parsed.pathname.replace(/\/+$/, "");
  return { base: `${parsed.origin}${path}`, operation: match?.[1] };
}

/** The endpoint a URL belongs to: calls of one endpoint share its limiter and are listed together in the cache. */
export function endpointOf(url: string): string {
  return splitEndpoint(url).base;
}
