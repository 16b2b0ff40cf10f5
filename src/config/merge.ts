/** OmegaConf's merge rules: mappings merge key by key, lists and scalars replace, a later `???` never wipes a value. */
import { cloneValue, isMapping, MISSING, type ConfigMap, type ConfigValue } from "./_tree.ts";

/**
 * Merges `later` onto `earlier` and returns a new value (inputs are not changed).
 * - mappings merge recursively; existing keys keep their place, new keys are appended;
 * - lists are replaced whole (a benchmark's `datasets:` replaces the inherited ones);
 * - a later `null` sets null; a later `???` keeps whatever was there (OmegaConf's `_map_merge`).
 */
export function mergeValues(earlier: ConfigValue | undefined, later: ConfigValue): ConfigValue {
  if (later === MISSING && earlier !== undefined) return cloneValue(earlier);
  if (isMapping(earlier) && isMapping(later)) {
    const out = cloneValue(earlier) as ConfigMap;
    for (const [key, value] of Object.entries(later)) {
      out[key] = mergeValues(Object.hasOwn(out, key) ? out[key] : undefined, value);
    }
    return out;
  }
  return cloneValue(later);
}

/** Merges layers left to right (later layers win) into one mapping. */
export function mergeAll(layers: ConfigMap[]): ConfigMap {
  let out: ConfigMap = {};
  for (const layer of layers) out = mergeValues(out, layer) as ConfigMap;
  return out;
}
