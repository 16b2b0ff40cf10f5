/** Small pipeline steps of the config parse: the `???` check and dummy-model folding. */
import { GymError } from "../errors.ts";
import { formatPath, isMapping, MISSING, type ConfigMap, type ConfigPath, type ConfigValue } from "./_tree.ts";
import { mergeValues } from "./merge.ts";

/** Every `???` left in the tree, list items included (`a.b[2]`). */
export function missingValuePaths(node: ConfigValue, path: ConfigPath = []): ConfigPath[] {
  if (node === MISSING) return [path];
  if (isMapping(node)) return Object.entries(node).flatMap(([k, v]) => missingValuePaths(v, [...path, k]));
  if (Array.isArray(node)) return node.flatMap((v, i) => missingValuePaths(v, [...path, i]));
  return [];
}

/** Raises one error listing every unset `???` value, with where each came from and how to set it. */
export function checkMandatory(tree: ConfigMap, originOf: (path: ConfigPath) => string | undefined): void {
  const missing = missingValuePaths(tree);
  if (missing.length === 0) return;
  const lines = missing.map((p) => `  - ${formatPath(p)}${originOf(p) ? ` (from ${originOf(p)})` : ""}`);
  throw new GymError("E_CONFIG_MANDATORY", `${missing.length} required config value(s) are unset (still '???') after merging:\n${lines.join("\n")}`, {
    hint: `Provide each value via a CLI override, in env.yaml, or in a config you pass via --config. For example, on the command line:\n${missing
      .slice(0, 3)
      .map((p) => `  ++${formatPath(p).replace(/\[(\d+)\]/g, ".$1")}=<value>`)
      .join("\n")}`,
  });
}

/**
 * The seed of commands that run without a model (NeMo Gym's NO_MODEL_GLOBAL_CONFIG_DICT): empty policy_*
 * values and a placeholder `policy_model` that agents' `model_server` references can point at.
 */
export function noModelSeed(withPolicyValues = true): ConfigMap {
  return {
    ...(withPolicyValues ? { policy_base_url: "", policy_api_key: "", policy_model_name: "" } : {}),
    policy_model: { responses_api_models: { dummy_model: { entrypoint: "app.py" } } },
  };
}

/**
 * Dummy-model folding: when an instance has the seed's `dummy_model` next to a real model implementation (or
 * other instance-level keys), drop `dummy_model` and merge its fields under the real one, real values winning.
 */
export function foldDummyModels(tree: ConfigMap): void {
  for (const value of Object.values(tree)) {
    if (!isMapping(value) || !isMapping(value.responses_api_models)) continue;
    const models = value.responses_api_models;
    if (!Object.hasOwn(models, "dummy_model")) continue;
    const others = Object.keys(models).filter((k) => k !== "dummy_model");
    if (others.length === 0) continue;
    const dummy = models.dummy_model!;
    delete models.dummy_model;
    models[others[0]!] = mergeValues(dummy, models[others[0]!]!);
  }
}
