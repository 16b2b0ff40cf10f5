/** Reading a component's metadata from its config: server blocks, domain/description, datasets, with a tolerant resolve as fallback. */
import { isMapping, type ConfigMap, type ConfigValue } from "../config/_tree.ts";
import type { RootView } from "./_source.ts";

const GROUPS = ["resources_servers", "responses_api_agents", "responses_api_models"] as const;
export type ServerGroup = (typeof GROUPS)[number];

/** One server block of a config: `<instance>: { <group>: { <implementation>: block } }`. */
export interface ServerBlock {
  instance: string;
  group: ServerGroup;
  implementation: string;
  block: ConfigMap;
}

/** Every server block of a config mapping, in file order; malformed shapes are passed over. */
export function serverBlocks(tree: ConfigValue | null | undefined): ServerBlock[] {
  const out: ServerBlock[] = [];
  if (!isMapping(tree)) return out;
  for (const [instance, value] of Object.entries(tree)) {
    if (!isMapping(value)) continue;
    for (const group of GROUPS) {
      const servers = value[group];
      if (!isMapping(servers)) continue;
      for (const [implementation, block] of Object.entries(servers)) if (isMapping(block)) out.push({ instance, group, implementation, block });
    }
  }
  return out;
}

/** The first `domain` and the first `description` found in any server block. */
export function scanMetadata(tree: ConfigValue | null | undefined): { domain?: string; description?: string } {
  let domain: string | undefined;
  let description: string | undefined;
  for (const { block } of serverBlocks(tree)) {
    if (domain === undefined && block.domain) domain = String(block.domain);
    if (description === undefined && block.description) description = String(block.description);
  }
  return { domain, description };
}

/** Datasets of the agent blocks of a config, with the instance that lists them. */
export function agentDatasets(tree: ConfigValue | null | undefined): { instance: string; dataset: ConfigMap }[] {
  const out: { instance: string; dataset: ConfigMap }[] = [];
  for (const { instance, group, block } of serverBlocks(tree)) {
    if (group !== "responses_api_agents" || !Array.isArray(block.datasets)) continue;
    for (const dataset of block.datasets) if (isMapping(dataset)) out.push({ instance, dataset });
  }
  return out;
}

/** Whether a `type: benchmark` mapping appears anywhere in the raw file. */
export function mentionsBenchmark(value: ConfigValue | null | undefined): boolean {
  if (Array.isArray(value)) return value.some(mentionsBenchmark);
  if (!isMapping(value)) return false;
  if (value.type === "benchmark") return true;
  return Object.values(value).some(mentionsBenchmark);
}

/**
 * Resolves a config file tolerantly, as listing does: no model needed, unset values and undefined
 * interpolations filled with placeholders, env.yaml ignored (a broken env.yaml must not break `gym list`).
 * Returns the resolved tree, or the error message.
 */
export async function resolveTolerant(view: RootView, rel: string): Promise<{ tree?: ConfigMap; error?: string }> {
  const [{ resolveConfig }, { noModelSeed }] = await Promise.all([import("../config/resolve.ts"), import("../config/_steps.ts")]);
  try {
    const { searchDirs, cwd, env } = view.rootOptions;
    const resolved = await resolveConfig({ configPaths: [view.configPath(rel)], searchDirs, cwd, env, seed: noModelSeed(), placeholders: true, skipEnvYaml: true, mode: "offline" });
    return { tree: resolved.resolve() };
  } catch (error) {
    return { error: (error as Error).message.split("\n")[0] };
  }
}

/** Domain and description: the raw file first, then the resolved config for whatever is still missing. */
export async function readMetadata(view: RootView, rel: string, resolved?: ConfigMap): Promise<{ domain?: string; description?: string }> {
  const raw = scanMetadata(await view.yaml(rel));
  if (raw.domain !== undefined && raw.description !== undefined) return raw;
  const tree = resolved ?? (await resolveTolerant(view, rel)).tree;
  const more = scanMetadata(tree);
  return { domain: raw.domain ?? more.domain, description: raw.description ?? more.description };
}
