/** Reads a submit YAML: overrides applied as a dotlist, interpolations resolved, keys checked strictly, rules of §9.1 applied. */
import * as fs from "node:fs";
import { isMapping, maskSecrets, parseOverride, parseYamlMapping, resolveTree, type ConfigMap, type ConfigValue } from "../config/index.ts";
import { GymError } from "../errors.ts";
import { SUBMIT_SCHEMA, type SubmitConfig } from "./config.ts";
import { check, issueError, SchemaIssue } from "./schema.ts";
import { validateSubmit } from "./validate.ts";

export interface LoadedSubmit {
  file: string;
  /** The YAML as written, overrides applied and interpolations resolved (what resolved-config.yaml records). */
  tree: ConfigMap;
  config: SubmitConfig;
  warnings: string[];
}

/**
 * Loads and validates; every refusal names the file, the key path and the fix. `${oc.env:VAR}` reads
 * `interpolationEnv` (a preview passes a stand-in, so a dry run never prints a value from the environment).
 */
export function loadSubmitConfig(file: string, overrides: string[], env: NodeJS.ProcessEnv = process.env, interpolationEnv: NodeJS.ProcessEnv = env): LoadedSubmit {
  if (!fs.existsSync(file)) {
    throw new GymError("E_CONFIG_MISSING_FILE", `Submit config not found: ${file}`, { hint: "Pass --config with the path of a submit YAML (services, compute, driver, job)." });
  }
  let tree = parseYamlMapping(fs.readFileSync(file, "utf8"), file);
  for (const token of overrides) applyOverride(tree, token);
  tree = resolveTree(tree, { env: interpolationEnv });
  let config: SubmitConfig;
  try {
    config = check(SUBMIT_SCHEMA, tree, "") as SubmitConfig;
  } catch (error) {
    if (error instanceof SchemaIssue) throw issueError(file, error);
    throw error;
  }
  const warnings = validateSubmit(config, file, env);
  return { file, tree, config, warnings };
}

/** The tree with secrets masked, except env references (`host:VAR`, `runtime:VAR`), which are written back as they are. */
export function maskForRecord(tree: ConfigMap): ConfigMap {
  const masked = maskSecrets(tree);
  const restore = (orig: ConfigValue, out: ConfigValue): ConfigValue => {
    if (typeof orig === "string" && /^(host|runtime):[A-Za-z_][A-Za-z0-9_]*$/.test(orig)) return orig;
    if (isMapping(orig) && isMapping(out)) return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, restore(orig[k] as ConfigValue, v)]));
    if (Array.isArray(orig) && Array.isArray(out)) return out.map((v, i) => restore(orig[i] as ConfigValue, v));
    return out;
  };
  return restore(tree, masked) as ConfigMap;
}

/** `+a.b=c`, `++a.b=c` and `a.b=c` all set a.b (NeMo Gym applies the extra tokens as an OmegaConf dotlist); `~a.b` removes it. */
function applyOverride(tree: ConfigMap, token: string): void {
  const override = parseOverride(token);
  let node: ConfigMap = tree;
  const path = override.path.map(String);
  for (const segment of path.slice(0, -1)) {
    if (!isMapping(node[segment])) {
      if (override.kind === "delete") return;
      node[segment] = {};
    }
    node = node[segment] as ConfigMap;
  }
  const last = path[path.length - 1]!;
  if (override.kind === "delete") delete node[last];
  else node[last] = override.value as ConfigValue;
}
