/** A run's settings split into semantic (a change refuses resume) and operational (a change warns), as per-path digests. */
import { canonicalJson, sha256 } from "../outputs/digest.ts";

/** Collection keys whose change is operational: resume goes on with a warning and a drift line. */
export const OPERATIONAL_COLLECTION_KEYS = new Set([
  "resume_from_cache", "dispatch_budget_s", "drain_margin_s", "dispatch_longest_first", "retry_terminal_timeouts",
  "retry_invalid_judge_responses", "allow_unsafe_resume", "output_jsonl_fpath", "input_jsonl_fpath", "num_samples_in_parallel",
  "max_resident_rollout_tasks", "retain_results_in_memory", "require_complete", "disable_aggregation", "disable_health_check",
  "health_check_workers", "health_check_ignored_checks", "upload_rollouts", "count_failure_classes_as_zero",
  "count_missing_rollouts_as_zero", "route_failures_to_sidecar", "record_omitted_rollouts", "timeout_s",
]);

/** Server-block keys that are runtime details (endpoints, credentials, ports), dropped at the server level only. */
export const OPERATIONAL_SERVER_KEYS = new Set([
  "url", "api_key", "openai_api_key", "policy_api_key", "judge_api_key", "tavily_api_key", "anthropic_api_key",
  "model_api_key", "switchyard_api_key", "hf_token", "num_workers", "base_url", "openai_base_url", "policy_base_url",
  "judge_base_url", "sandbox_model_base_url", "model_base_url", "vllm_base_url", "switchyard_base_url", "model_call_capture_dir",
  "latency_ms", "timeout_ms", "timeout_s",
]);

/** Where a server listens: assigned afresh on every start (random free ports), so not a setting at all. */
const ADDRESS_KEYS = new Set(["host", "port"]);

const AUTH_HEADERS = new Set(["authorization", "proxy-authorization", "x-api-key", "api-key"]);
const HEADER_BLOCKS = new Set(["headers", "default_headers", "openai_default_headers", "artifact_request_headers"]);

export interface RunSettings {
  semantic: Record<string, string>;
  operational: Record<string, string>;
}

/**
 * Digests each setting at its dotted path (a list counts as one value). `collection` holds the run's own
 * keys; `servers` maps instance name → resolved server block.
 */
export function runSettings(collection: Record<string, unknown>, servers: Record<string, Record<string, unknown>>): RunSettings {
  const semantic: Record<string, string> = {};
  const operational: Record<string, string> = {};
  for (const [key, value] of Object.entries(collection)) {
    if (value === undefined) continue;
    flatten(value, key, OPERATIONAL_COLLECTION_KEYS.has(key) ? operational : semantic);
  }
  for (const [name, block] of Object.entries(servers)) {
    for (const [key, value] of Object.entries(block)) {
      const path = `${name}.${key}`;
      if (ADDRESS_KEYS.has(key)) continue;
      if (OPERATIONAL_SERVER_KEYS.has(key)) flatten(value, path, operational);
      else if (HEADER_BLOCKS.has(key) && value && typeof value === "object") {
        for (const [header, v] of Object.entries(value)) flatten(v, `${path}.${header}`, AUTH_HEADERS.has(header.toLowerCase()) ? operational : semantic);
      } else flatten(value, path, semantic);
    }
  }
  return { semantic, operational };
}

function flatten(value: unknown, path: string, out: Record<string, string>): void {
  if (value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) flatten(v, `${path}.${k}`, out);
  } else out[path] = sha256(canonicalJson(value ?? null));
}

/** Paths whose digest differs (added, removed or changed), sorted. */
export function changedSettings(saved: Record<string, string>, current: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(saved), ...Object.keys(current)]);
  return [...keys].filter((k) => saved[k] !== current[k]).sort();
}

/** The one config digest stored in the manifest: over the semantic settings. */
export function configDigest(settings: RunSettings): string {
  return sha256(canonicalJson(settings.semantic));
}
