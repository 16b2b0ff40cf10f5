/** `--cache` and `--cache-expiry` (for eval run, eval reverify, env start) and turning the response cache on from them or the config. */
import type { ArgsDef } from "citty";

/** The flags; they set the config keys `response_cache` and `response_cache_expiry` (`+response_cache=true` works too). */
export const cacheArgs = {
  cache: { type: "boolean", description: "Serve repeated model and judge calls from the response cache, and keep new answers in it (sets response_cache)" },
  "cache-expiry": { type: "string", description: "With --cache: how long an answer is kept and served, e.g. 12h, 7d, 2w (default 7d; sets response_cache_expiry)", valueHint: "DURATION" },
} as const satisfies ArgsDef;

/** The config keys the flags set (only those given). */
export function cacheFlagKeys(args: Record<string, unknown>): Record<string, boolean | string> {
  const keys: Record<string, boolean | string> = {};
  if (args.cache === true) keys.response_cache = true;
  if (typeof args["cache-expiry"] === "string") keys.response_cache_expiry = args["cache-expiry"];
  return keys;
}

/**
 * Turns the response cache on for this process when the flags or the resolved config ask for it (flags win).
 * Returns a line for stderr saying where it is, or undefined when the cache stays off.
 */
export async function startResponseCache(args: Record<string, unknown>, resolved: Record<string, unknown>): Promise<string | undefined> {
  const keys = { response_cache: resolved.response_cache, response_cache_expiry: resolved.response_cache_expiry, ...cacheFlagKeys(args) };
  const on = keys.response_cache === true || keys.response_cache === "true";
  if (!on) return undefined;
  const { DEFAULT_EXPIRY, enableResponseCache, parseDuration, responseStorePath } = await import("../../servers/calls/cache/index.ts");
  const expiry = keys.response_cache_expiry === undefined || keys.response_cache_expiry === null ? DEFAULT_EXPIRY : String(keys.response_cache_expiry);
  const expiryMs = parseDuration(expiry, "--cache-expiry");
  enableResponseCache({ expiryMs });
  return `Response cache: ${responseStorePath()} (answers kept ${expiry}).`;
}
