/** Discovery of agents, models and resources servers across the roots (earlier roots shadow later ones). */
import { componentRoots, type RootOptions } from "../config/roots.ts";
import { RootView } from "./_source.ts";
import { builtinCatalogs } from "./builtins.ts";
import { overlayBase, overriddenInstances } from "../config/overlays.ts";
import { readMetadata, serverBlocks } from "./metadata.ts";

export interface AgentEntry {
  name: string;
  /** Composable (Pattern A) agents reference a separate resources server; self-contained ones bring their own. */
  selfContained: boolean;
  variants: string[];
  description?: string;
  path: string;
}

export interface ModelEntry {
  name: string;
  modelGroup: string;
  configPath: string;
}

export interface ResourcesServerEntry {
  name: string;
  domain?: string;
  description?: string;
  value?: string;
  configPath: string;
  /** An overlay config (server blocks without `entrypoint`): the base file it is composed after, as NeMo Gym composes them. */
  overlayOf?: string;
}

/** The roots of one command, as views. */
export function rootViews(options: RootOptions = {}): RootView[] {
  return componentRoots(options).map((root) => new RootView(root, options));
}

/** Merges per-root results by name; the first root to claim a name keeps it. */
async function mergeByName<T extends { name: string }>(views: RootView[], scan: (view: RootView) => Promise<T[]>): Promise<T[]> {
  const merged = new Map<string, T>();
  for (const view of views) for (const entry of await scan(view)) if (!merged.has(entry.name)) merged.set(entry.name, entry);
  return [...merged.values()];
}

/** `dir` when the config's stem is the directory name, else `dir/stem` (NeMo Gym's token for models and servers). */
function token(dir: string, stem: string): string {
  return stem === dir ? dir : `${dir}/${stem}`;
}

/**
 * Agents under `responses_api_agents/<dir>` that have code (app.py or index.ts) or an agent config, as NeMo Gym lists
 * them (an agent with code and no config, such as scicode_agent, is composable with no variants). Inside the compiled
 * binary the built-ins' code is not a file: a built-in agent has code when the agent catalog implements it.
 */
export async function discoverAgents(views: RootView[]): Promise<AgentEntry[]> {
  const entries = await mergeByName(views, async (view) => {
    const out: AgentEntry[] = [];
    const implemented = view.root.kind === "builtin" ? Object.keys((await builtinCatalogs()).responses_api_agents ?? {}) : [];
    for (const dir of [...new Set([...(await view.dirs("responses_api_agents")), ...implemented])].sort()) {
      const base = `responses_api_agents/${dir}`;
      const variants: string[] = [];
      const blocks = [];
      for (const file of await view.files(`${base}/configs`)) {
        if (file.includes("/")) continue;
        const agentBlocks = serverBlocks(await view.yaml(`${base}/configs/${file}`)).filter((b) => b.group === "responses_api_agents");
        if (agentBlocks.length === 0) continue;
        variants.push(file.replace(/\.yaml$/, ""));
        blocks.push(...agentBlocks);
      }
      const hasCode = implemented.includes(dir) || (await view.exists(`${base}/app.py`)) || (await view.exists(`${base}/index.ts`));
      if (!hasCode && variants.length === 0) continue;
      // Pattern A: some variant wires a resources server, and none brings an agent framework or its own API key.
      const composable =
        blocks.length === 0 ||
        (blocks.some((b) => b.block.resources_server !== undefined) && !blocks.some((b) => b.block.agent_framework !== undefined || b.block.anthropic_api_key !== undefined));
      const description = blocks.map((b) => b.block.description).find((d) => typeof d === "string") as string | undefined;
      out.push({ name: dir, selfContained: !composable, variants, description, path: view.shown(base) });
    }
    return out;
  });
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}

/** Every `responses_api_models/<dir>/configs/<name>.yaml` (not recursive) is a `--model-type` value. */
export async function discoverModels(views: RootView[]): Promise<ModelEntry[]> {
  const entries = await mergeByName(views, async (view) => {
    const out: ModelEntry[] = [];
    for (const dir of await view.dirs("responses_api_models")) {
      for (const file of await view.files(`responses_api_models/${dir}/configs`)) {
        if (file.includes("/")) continue;
        out.push({ name: token(dir, file.replace(/\.yaml$/, "")), modelGroup: dir, configPath: view.shown(`responses_api_models/${dir}/configs/${file}`) });
      }
    }
    return out;
  });
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}

/** `resources_servers/<dir>/configs/<name>.yaml` files that define a resources-server block (judge-only helper configs are skipped). */
export async function discoverResourcesServers(views: RootView[]): Promise<ResourcesServerEntry[]> {
  const entries = await mergeByName(views, async (view) => {
    const out: ResourcesServerEntry[] = [];
    for (const dir of await view.dirs("resources_servers")) {
      for (const file of await view.files(`resources_servers/${dir}/configs`)) {
        if (file.includes("/")) continue;
        const rel = `resources_servers/${dir}/configs/${file}`;
        const blocks = serverBlocks(await view.yaml(rel));
        const server = blocks.find((b) => b.group === "resources_servers");
        if (!server) continue;
        const tree = await view.yaml(rel);
        const siblings: [string, Awaited<ReturnType<RootView["yaml"]>>][] = [];
        if (overriddenInstances(tree).length > 0) {
          for (const other of await view.files(`resources_servers/${dir}/configs`)) if (!other.includes("/") && other !== file) siblings.push([other, await view.yaml(`resources_servers/${dir}/configs/${other}`)]);
        }
        const base = overlayBase(tree, siblings, `${dir}.yaml`);
        const { domain, description } = await readMetadata(view, base ? `resources_servers/${dir}/configs/${base}` : rel);
        const value = typeof server.block.value === "string" ? server.block.value : undefined;
        const entry: ResourcesServerEntry = { name: token(dir, file.replace(/\.yaml$/, "")), domain, description, value, configPath: view.shown(rel) };
        if (base) entry.overlayOf = view.shown(`resources_servers/${dir}/configs/${base}`);
        out.push(entry);
      }
    }
    return out;
  });
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}
