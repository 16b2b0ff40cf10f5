/**
 * Overlay configs: a config file whose server blocks carry no `entrypoint` does not define a server (NeMo Gym's
 * `is_almost_server` needs one); it overrides the instances another file defines, and NeMo Gym runs it composed
 * after that file (`config_paths=[base, overlay]`, later wins). `math_with_judge/configs/math_with_local_judge.yaml`
 * is one: it re-points `math_with_judge`'s judge at a local vLLM server.
 */
import type { ConfigValue } from "./_tree.ts";

const GROUPS = ["resources_servers", "responses_api_models", "responses_api_agents"] as const;
type Tree = Record<string, unknown>;
const isMap = (v: unknown): v is Tree => v !== null && typeof v === "object" && !Array.isArray(v);

/** Instance names whose server block sets an `entrypoint` (the servers a file defines). */
export function definedInstances(tree: ConfigValue | null | undefined): string[] {
  return instances(tree, true);
}

/** Instance names that have a server block without an `entrypoint` (what an overlay overrides). */
export function overriddenInstances(tree: ConfigValue | null | undefined): string[] {
  return instances(tree, false);
}

function instances(tree: unknown, withEntrypoint: boolean): string[] {
  if (!isMap(tree)) return [];
  const out: string[] = [];
  for (const [instance, value] of Object.entries(tree)) {
    if (!isMap(value)) continue;
    const blocks = GROUPS.flatMap((g) => (isMap(value[g]) ? Object.values(value[g] as Tree).filter(isMap) : []));
    if (blocks.length === 0) continue;
    const has = blocks.some((b) => Object.hasOwn(b, "entrypoint"));
    if (has === withEntrypoint) out.push(instance);
  }
  return out;
}

/**
 * When `tree` is an overlay (it overrides instances and defines none of them itself), the file among `siblings`
 * (name → parsed tree) that defines all of them, preferring `preferred` (the folder's own `NAME.yaml`); else undefined.
 */
export function overlayBase(tree: ConfigValue | null | undefined, siblings: [name: string, tree: ConfigValue | null | undefined][], preferred?: string): string | undefined {
  const overridden = overriddenInstances(tree);
  if (overridden.length === 0 || overridden.some((i) => definedInstances(tree).includes(i))) return undefined;
  const ordered = [...siblings].sort(([a], [b]) => Number(b === preferred) - Number(a === preferred) || a.localeCompare(b));
  for (const [name, sibling] of ordered) {
    const defined = definedInstances(sibling);
    if (overridden.every((i) => defined.includes(i))) return name;
  }
  return undefined;
}
