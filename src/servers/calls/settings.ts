/** A model server's call settings from the run's config: the retry budget and whether (and up to what) its endpoint's concurrency adapts. */
import { GymError } from "../../errors.ts";
import { retryKeysFrom } from "./retry.ts";
import type { ModelCallOptions } from "./send.ts";

/** Rollouts in flight when the run sets no bound (the same default as collection's). */
const DEFAULT_CEILING = 256;

/**
 * Whether an endpoint is someone else's: anything but loopback (127.0.0.0/8, ::1, localhost). A loopback endpoint is
 * self-hosted (vLLM, SGLang, a gateway on this machine), sends no 429s, and would only pay the adaptive limiter's
 * slow start, so adaptive concurrency is on by default for remote endpoints only. An unparsable URL counts as remote.
 */
export function isRemoteEndpoint(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return true;
  }
  return !(host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host));
}

/**
 * `+max_model_retries`, `+max_model_retry_seconds` and adaptive concurrency (`+adaptive_concurrency`, which
 * `--no-adaptive` sets to false; unset: `adaptiveByDefault`, true for hosted-provider servers on a remote endpoint, see isRemoteEndpoint). The ceiling is
 * the run's `--concurrency` (num_samples_in_parallel / max_resident_rollout_tasks), lowered by the server's own
 * `max_concurrent_requests`.
 */
export function modelCallSettings(globalConfig: Record<string, unknown>, serverCap: number | null | undefined, adaptiveByDefault: boolean): Pick<ModelCallOptions, "maxRetries" | "maxRetrySeconds" | "adaptive"> {
  const flag = globalConfig.adaptive_concurrency;
  if (flag !== undefined && flag !== null && typeof flag !== "boolean" && flag !== "true" && flag !== "false") {
    throw new GymError("E_CONFIG", `adaptive_concurrency must be true or false, got ${JSON.stringify(flag)}.`, { hint: "Pass --no-adaptive (or +adaptive_concurrency=false) for a fixed concurrency." });
  }
  const adaptive = flag === undefined || flag === null ? adaptiveByDefault : flag === true || flag === "true";
  const bounds = [globalConfig.num_samples_in_parallel, globalConfig.max_resident_rollout_tasks, serverCap].filter((n): n is number => typeof n === "number" && n >= 1);
  const ceiling = bounds.length ? Math.min(...bounds) : DEFAULT_CEILING;
  return { ...retryKeysFrom(globalConfig), adaptive: adaptive ? { ceiling } : false };
}
