/** The `datasets:` entries of a server block: NeMo Gym's DatasetConfig / BenchmarkDatasetConfig rules, as issues. */
import { cloneValue, isMapping, type ConfigMap, type ConfigValue } from "./_tree.ts";

/** One validation problem: where (pydantic-style location) and what. */
export interface Issue {
  loc: (string | number)[];
  msg: string;
}

export const DATASET_TYPES = ["train", "validation", "example"] as const;

export const DATASET_LICENSES = [
  "Apache 2.0",
  "MIT",
  "Creative Commons Attribution 4.0 International",
  "Creative Commons Attribution-ShareAlike 4.0 International",
  "CC BY-SA 4.0",
  "CC BY-NC 3.0",
  "NVIDIA Internal Use Only, Do Not Distribute",
  "NVIDIA Evaluation Dataset License Agreement",
  "TBD",
  "GNU General Public License v3.0",
] as const;

/** An unresolved `${…}` passes type checks here; it is checked once resolved. */
const isDeferred = (v: unknown) => typeof v === "string" && v.includes("${");

export function oneOf(options: readonly string[]): string {
  return `Must be one of: ${options.map((o) => `'${o}'`).join(", ")}`;
}

/** Helpers that push pydantic-like messages for the usual field shapes. */
export function fieldChecks(value: ConfigMap, loc: (string | number)[], issues: Issue[]) {
  const at = (key: string) => [...loc, key];
  return {
    requiredString(key: string) {
      if (!Object.hasOwn(value, key)) issues.push({ loc: at(key), msg: "Field required" });
      else if (typeof value[key] !== "string") issues.push({ loc: at(key), msg: "Input should be a valid string" });
    },
    optionalString(key: string) {
      const v = value[key];
      if (v !== undefined && v !== null && typeof v !== "string") issues.push({ loc: at(key), msg: "Input should be a valid string" });
    },
    optionalInt(key: string, min?: number) {
      const v = value[key];
      if (v === undefined || v === null || isDeferred(v)) return;
      const n = typeof v === "string" && /^\s*[+-]?\d+\s*$/.test(v) ? Number(v) : v;
      if (typeof n !== "number" || !Number.isInteger(n)) issues.push({ loc: at(key), msg: "Input should be a valid integer" });
      else if (min !== undefined && n < min) issues.push({ loc: at(key), msg: `Input should be greater than or equal to ${min}` });
    },
  };
}

function checkSource(value: ConfigValue, loc: (string | number)[], issues: Issue[], kind: "source" | "gitlab" | "huggingface"): void {
  if (!isMapping(value)) {
    issues.push({ loc, msg: "Input should be a valid dictionary or object" });
    return;
  }
  const backend = kind === "source" ? value.type : kind;
  if (kind === "source" && backend !== "gitlab" && backend !== "huggingface") {
    issues.push({ loc: [...loc, "type"], msg: `${oneOf(["gitlab", "huggingface"])} (the source's backend)` });
    return;
  }
  const checks = fieldChecks(value, kind === "source" ? [...loc, String(backend)] : loc, issues);
  if (backend === "gitlab") {
    checks.requiredString("dataset_name");
    checks.requiredString("version");
    checks.requiredString("artifact_fpath");
  } else {
    checks.requiredString("repo_id");
    checks.optionalString("artifact_fpath");
  }
}

/** Checks one `datasets:` entry; `loc` is where it sits (e.g. `[…, "datasets", 0]`). */
export function checkDataset(entry: ConfigValue, loc: (string | number)[]): Issue[] {
  const issues: Issue[] = [];
  if (!isMapping(entry)) return [{ loc, msg: "Input should be a valid dictionary or object" }];
  const checks = fieldChecks(entry, loc, issues);
  checks.requiredString("name");
  checks.requiredString("jsonl_fpath");
  checks.optionalInt("num_repeats", 1);
  if (entry.type === "benchmark") {
    checks.requiredString("prepare_script");
    checks.optionalString("prompt_config");
    return issues;
  }
  if (!Object.hasOwn(entry, "type")) issues.push({ loc: [...loc, "type"], msg: "Field required" });
  else if (!isDeferred(entry.type) && !DATASET_TYPES.includes(entry.type as never)) {
    issues.push({ loc: [...loc, "type"], msg: oneOf([...DATASET_TYPES, "benchmark"]) });
  }
  const license = entry.license;
  if (license !== undefined && license !== null && !isDeferred(license) && !DATASET_LICENSES.includes(license as never)) {
    issues.push({ loc: [...loc, "license"], msg: oneOf(DATASET_LICENSES) });
  }
  if ((entry.type === "train" || entry.type === "validation") && (license === undefined || license === null)) {
    issues.push({ loc, msg: `Value error, A license is required for ${String(entry.name)}` });
  }
  const legacy = (["gitlab_identifier", "huggingface_identifier"] as const).filter((k) => entry[k] !== undefined && entry[k] !== null);
  if (entry.source !== undefined && entry.source !== null) {
    checkSource(entry.source, [...loc, "source"], issues, "source");
    if (legacy.length > 0) {
      issues.push({
        loc,
        msg: `Value error, Specify a dataset source once for '${String(entry.name)}': set only one of ['source', ${legacy.map((n) => `'${n}'`).join(", ")}]. Prefer the unified \`source:\` block.`,
      });
    }
  }
  if (entry.gitlab_identifier != null) checkSource(entry.gitlab_identifier, [...loc, "gitlab_identifier"], issues, "gitlab");
  if (entry.huggingface_identifier != null) checkSource(entry.huggingface_identifier, [...loc, "huggingface_identifier"], issues, "huggingface");
  return issues;
}

/**
 * A dataset entry with `source` and the legacy identifiers mirrored the way NeMo Gym's model does it:
 * a lone legacy identifier is copied into `source`, and `source` is copied back into the matching legacy field.
 * `num_repeats` defaults to 1. Unknown fields are kept.
 */
export function normalizeDataset(entry: ConfigMap): ConfigMap {
  const out = cloneValue(entry);
  out.num_repeats ??= 1;
  if (out.type === "benchmark") return out;
  const source = out.source;
  if (isMapping(source)) {
    const { type, ...fields } = source;
    if (type === "gitlab") out.gitlab_identifier = fields;
    else if (type === "huggingface") out.huggingface_identifier = { artifact_fpath: null, ...fields };
  } else if (isMapping(out.gitlab_identifier) && out.huggingface_identifier == null) {
    out.source = { type: "gitlab", ...out.gitlab_identifier };
  } else if (isMapping(out.huggingface_identifier) && out.gitlab_identifier == null) {
    out.source = { type: "huggingface", artifact_fpath: null, ...out.huggingface_identifier };
  }
  return out;
}
