/** manifest.yaml: the strict metadata file of a manifest-backed environment or benchmark, and its checks. */
import { DOMAINS } from "../config/servers.ts";

export const PROFILES = ["custom-gym-verifier", "custom-gym-agent-loop", "external-agent-loop", "external-rollout-driver"] as const;
export type IntegrationProfile = (typeof PROFILES)[number];

const REQUIRED = ["name", "version", "kind", "integration_profile", "domain", "description", "modality", "authors", "reward", "resources_server", "agent_server", "datasets"];
const OPTIONAL = [
  "licensing", "determinism", "model_server", "rollout_driver", "grading_mode", "session_model", "state", "sandbox",
  "canonical_split", "standard_prompt_config", "adopted_from", "lifecycle",
];
const DATASET_KEYS = new Set(["name", "type", "jsonl_fpath", "prompt_config", "num_repeats", "prepare_script"]);

/** A manifest that passed the checks (strings trimmed). */
export interface Manifest {
  name: string;
  version: string;
  kind: "environment" | "benchmark";
  integration_profile: IntegrationProfile;
  domain: string;
  description: string;
  modality: string;
  licensing?: string;
  lifecycle?: "active" | "deprecated";
  [key: string]: unknown;
}

/** Checks a parsed manifest; returns the problems (empty = valid) and the trimmed manifest. */
export function checkManifest(raw: unknown): { manifest?: Manifest; problems: string[] } {
  const problems: string[] = [];
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { problems: ["a manifest must be a mapping"] };
  const m = trim(raw) as Record<string, unknown>;
  for (const key of Object.keys(m)) if (!REQUIRED.includes(key) && !OPTIONAL.includes(key)) problems.push(`unknown key '${key}'`);
  for (const key of REQUIRED) if (m[key] === undefined || m[key] === null || m[key] === "") problems.push(`'${key}' is required`);
  const oneOf = (key: string, values: readonly string[]) => {
    if (m[key] !== undefined && !values.includes(m[key] as string)) problems.push(`'${key}' must be one of ${values.join(", ")}`);
  };
  oneOf("kind", ["environment", "benchmark"]);
  oneOf("integration_profile", PROFILES);
  oneOf("domain", DOMAINS);
  oneOf("determinism", ["seeded", "stochastic", "unknown"]);
  oneOf("session_model", ["episode", "step"]);
  oneOf("state", ["none", "per_session"]);
  oneOf("lifecycle", ["active", "deprecated"]);
  const authors = m.authors;
  if (authors !== undefined && (!Array.isArray(authors) || authors.length === 0 || new Set(authors).size !== authors.length || authors.some((a) => typeof a !== "string"))) {
    problems.push("'authors' must be a non-empty list of unique names");
  }
  const reward = m.reward as { range?: unknown; higher_is_better?: unknown } | undefined;
  if (reward !== undefined) {
    const range = reward?.range;
    if (!Array.isArray(range) || range.length !== 2 || !range.every((x) => typeof x === "number" && Number.isFinite(x)) || !(range[0] < range[1])) {
      problems.push("'reward.range' must be [low, high] with finite low < high");
    }
    if (typeof reward?.higher_is_better !== "boolean") problems.push("'reward.higher_is_better' must be true or false");
  }
  checkDatasets(m, problems);
  const profile = m.integration_profile as string;
  if (profile?.startsWith("custom-gym") && !m.model_server) problems.push(`profile ${profile} needs 'model_server'`);
  if (profile === "external-rollout-driver" && !m.rollout_driver) problems.push("profile external-rollout-driver needs 'rollout_driver'");
  if (m.rollout_driver && profile !== "external-rollout-driver") problems.push("only the external-rollout-driver profile may set 'rollout_driver'");
  if (m.kind === "benchmark") {
    for (const key of ["canonical_split", "standard_prompt_config"]) if (!m[key]) problems.push(`a benchmark needs '${key}'`);
  }
  return problems.length > 0 ? { problems } : { manifest: m as Manifest, problems };
}

function checkDatasets(m: Record<string, unknown>, problems: string[]): void {
  const datasets = m.datasets;
  if (datasets === undefined) return;
  if (!Array.isArray(datasets) || datasets.length === 0) return void problems.push("'datasets' must list at least one dataset");
  const names = new Set<string>();
  datasets.forEach((d, i) => {
    if (!d || typeof d !== "object") return void problems.push(`datasets[${i}] must be a mapping`);
    const ds = d as Record<string, unknown>;
    for (const key of Object.keys(ds)) if (!DATASET_KEYS.has(key)) problems.push(`datasets[${i}]: unknown key '${key}'`);
    if (typeof ds.name !== "string") problems.push(`datasets[${i}].name is required`);
    else if (names.has(ds.name)) problems.push(`datasets[${i}].name '${ds.name}' is not unique`);
    else names.add(ds.name);
    if (!["train", "validation", "example", "benchmark"].includes(ds.type as string)) problems.push(`datasets[${i}].type must be train, validation, example or benchmark`);
    if (typeof ds.jsonl_fpath !== "string") problems.push(`datasets[${i}].jsonl_fpath is required`);
    if (ds.num_repeats !== undefined && !(Number.isInteger(ds.num_repeats) && (ds.num_repeats as number) >= 1)) problems.push(`datasets[${i}].num_repeats must be an integer ≥ 1`);
    if (ds.type === "benchmark" && typeof ds.prepare_script !== "string") problems.push(`datasets[${i}]: a benchmark dataset needs 'prepare_script'`);
  });
  if (m.kind === "benchmark" && !datasets.some((d) => (d as Record<string, unknown>)?.type === "benchmark")) problems.push("a benchmark needs at least one benchmark dataset");
}

function trim(value: unknown): unknown {
  if (typeof value === "string") return value.trim();
  if (Array.isArray(value)) return value.map(trim);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trim(v)]));
  return value;
}
