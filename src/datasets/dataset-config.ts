/** A `datasets:` entry of an agent instance, normalized the way NeMo Gym dumps it into metrics files. */
import { DATASET_LICENSES } from "../config/datasets.ts";
import { GymError } from "../errors.ts";

export type DatasetType = "train" | "validation" | "example" | "benchmark";

/** A dataset entry as written in config (open record). */
export type DatasetEntry = Record<string, unknown>;

const TYPES = new Set<DatasetType>(["train", "validation", "example", "benchmark"]);


/**
 * Checks a dataset entry and returns it in NeMo Gym's dump order with defaults filled:
 * `name, type, jsonl_fpath, num_repeats, source, gitlab_identifier, huggingface_identifier, license`
 * (benchmarks: `name, type, jsonl_fpath, prepare_script, prompt_config, num_repeats`). `where` names the
 * config location for errors (e.g. "mcqa_simple_agent.datasets[0]").
 */
export function normalizeDatasetEntry(entry: DatasetEntry, where: string): DatasetEntry {
  const fail = (field: string, expected: string) =>
    new GymError("E_CONFIG", `${where}.${field}: expected ${expected}, got ${JSON.stringify(entry[field]) ?? "nothing"}.`, {
      hint: "Fix the dataset entry in the agent instance's `datasets:` list.",
    });
  for (const field of ["name", "jsonl_fpath"]) if (typeof entry[field] !== "string") throw fail(field, "a string");
  if (!TYPES.has(entry.type as DatasetType)) throw fail("type", "one of train, validation, example, benchmark");
  const repeats = entry.num_repeats ?? 1;
  if (!Number.isInteger(repeats) || (repeats as number) < 1) throw fail("num_repeats", "an integer ≥ 1");
  if (entry.type === "benchmark") {
    if (typeof entry.prepare_script !== "string") throw fail("prepare_script", "a path (benchmark datasets need a prepare script)");
    return {
      name: entry.name,
      type: entry.type,
      jsonl_fpath: entry.jsonl_fpath,
      prepare_script: entry.prepare_script,
      prompt_config: entry.prompt_config ?? null,
      num_repeats: repeats,
    };
  }
  const license = entry.license ?? null;
  if ((entry.type === "train" || entry.type === "validation") && license === null) {
    throw new GymError("E_CONFIG", `${where}.license: a license is required for ${entry.type} dataset '${entry.name}'.`, {
      hint: `Set license to one of: ${DATASET_LICENSES.join(", ")}.`,
    });
  }
  if (license !== null && !(DATASET_LICENSES as readonly string[]).includes(license as string)) throw fail("license", `one of ${DATASET_LICENSES.map((l) => `'${l}'`).join(", ")}`);
  const { source, gitlab, huggingface } = reconcileSource(entry, where);
  return {
    name: entry.name,
    type: entry.type,
    jsonl_fpath: entry.jsonl_fpath,
    num_repeats: repeats,
    source,
    gitlab_identifier: gitlab,
    huggingface_identifier: huggingface,
    license,
  };
}

/** `source:` and the deprecated `*_identifier` keys mirror each other, as in NeMo Gym. */
function reconcileSource(entry: DatasetEntry, where: string) {
  const obj = (v: unknown) => (v && typeof v === "object" ? (v as Record<string, unknown>) : undefined);
  const gitlabOf = (v: Record<string, unknown>) => ({ dataset_name: v.dataset_name, version: v.version, artifact_fpath: v.artifact_fpath });
  const hfOf = (v: Record<string, unknown>) => ({ repo_id: v.repo_id, artifact_fpath: v.artifact_fpath ?? null });
  const source = obj(entry.source);
  const gl = obj(entry.gitlab_identifier);
  const hf = obj(entry.huggingface_identifier);
  if (source && (gl || hf)) {
    throw new GymError("E_CONFIG", `${where}: set only one of 'source' and the deprecated '*_identifier' keys for dataset '${entry.name}'.`, {
      hint: "Keep the unified `source:` block and delete gitlab_identifier / huggingface_identifier.",
    });
  }
  if (source) {
    if (source.type === "gitlab") return { source: { type: "gitlab", ...gitlabOf(source) }, gitlab: gitlabOf(source), huggingface: null };
    if (source.type === "huggingface") return { source: { type: "huggingface", ...hfOf(source) }, gitlab: null, huggingface: hfOf(source) };
    throw new GymError("E_CONFIG", `${where}.source.type: expected 'gitlab' or 'huggingface', got ${JSON.stringify(source.type)}.`);
  }
  if (gl && hf) return { source: null, gitlab: gitlabOf(gl), huggingface: hfOf(hf) };
  if (gl) return { source: { type: "gitlab", ...gitlabOf(gl) }, gitlab: gitlabOf(gl), huggingface: null };
  if (hf) return { source: { type: "huggingface", ...hfOf(hf) }, gitlab: null, huggingface: hfOf(hf) };
  return { source: null, gitlab: null, huggingface: null };
}
