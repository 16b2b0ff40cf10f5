/** The `--agent-type` harness swap (spec §3.5): a harness config composed onto every environment agent instance. */
import { GymError } from "../errors.ts";
import { cloneValue, formatPath, isMapping, MISSING, type ConfigMap, type ConfigPath, type ConfigValue } from "./_tree.ts";
import { RESERVED_TOP_LEVEL_KEYS } from "./servers.ts";

const AGENTS = "responses_api_agents";
/** The environment variable that bypasses the compatibility check, like `--allow-unsupported-pairing`. */
export const ALLOW_UNSUPPORTED_PAIRING_ENV = "NEMO_GYM_ALLOW_UNSUPPORTED_PAIRING";

/** One environment agent instance the harness replaced. */
export interface ReplacedInstance {
  /** Old and new top-level instance names (equal when the old name already fits the new type). */
  from: string;
  to: string;
  fromType: string;
  /** The resources server instance it uses. */
  resourcesServer: string;
}

/** What the swap did; absent when the merged config has no harness to compose. */
export interface HarnessSwap {
  /** The new agent type (the harness block's implementation key). */
  agentType: string;
  /** The harness's own stand-alone instance, dropped from the tree. */
  harnessInstance: string;
  replaced: ReplacedInstance[];
  /** Old name → new name, only for instances whose name changed (what routing and rows are checked against). */
  renamed: Record<string, string>;
}

interface AgentEntry {
  name: string;
  type: string;
  block: ConfigMap;
}

export interface ComposeOptions {
  /** `--allow-unsupported-pairing` or NEMO_GYM_ALLOW_UNSUPPORTED_PAIRING=1: refusals become a warning. */
  allowUnsupportedPairing?: boolean;
  /** Called for each subtree moved to a new key path, so errors keep naming the file a key came from. */
  onMove?: (from: ConfigPath, to: ConfigPath) => void;
  originOf?: (path: ConfigPath) => string | undefined;
}

/** True for `1`, `true`, `yes`, `on` (any case), as environment switches are usually read. */
export function envSwitch(value: string | undefined): boolean {
  return value !== undefined && ["1", "true", "yes", "on"].includes(value.trim().toLowerCase());
}

function agentEntries(tree: ConfigMap): AgentEntry[] {
  const out: AgentEntry[] = [];
  for (const [name, value] of Object.entries(tree)) {
    if (RESERVED_TOP_LEVEL_KEYS.has(name) || !isMapping(value) || !isMapping(value[AGENTS])) continue;
    const types = Object.keys(value[AGENTS]);
    const block = value[AGENTS][types[0]!];
    if (types.length === 1 && isMapping(block)) out.push({ name, type: types[0]!, block });
  }
  return out;
}

const resourcesServerOf = (block: ConfigMap): ConfigValue | undefined => (isMapping(block.resources_server) ? block.resources_server.name : undefined);
/** A harness leaves `resources_server.name` as `???` (every bare agent config does). */
const isHarness = (e: AgentEntry) => resourcesServerOf(e.block) === MISSING;
/** An environment agent instance references a resources server and has datasets. */
const isEnvironmentInstance = (e: AgentEntry) => {
  const server = resourcesServerOf(e.block);
  return typeof server === "string" && server !== MISSING && Array.isArray(e.block.datasets) && e.block.datasets.length > 0;
};

/** `tb_opencode_sandboxed_agent` + (opencode_sandboxed_agent → terminus_2_sandboxed_agent) → `tb_terminus_2_sandboxed_agent`; else `<old>_<new type>`. */
export function swappedName(name: string, oldType: string, newType: string): string {
  const at = name.lastIndexOf(oldType);
  return at < 0 ? `${name}_${newType}` : `${name.slice(0, at)}${newType}${name.slice(at + oldType.length)}`;
}

const stringList = (value: ConfigValue | undefined): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

/** The agent types an environment instance accepts: `compatible_agents` of its resources server and of itself, plus its current type. */
export function acceptedAgentTypes(tree: ConfigMap, instance: AgentEntry): string[] {
  const server = tree[resourcesServerOf(instance.block) as string];
  const servers = isMapping(server) && isMapping(server.resources_servers) ? Object.values(server.resources_servers) : [];
  const declared = [...servers.flatMap((b) => (isMapping(b) ? stringList(b.compatible_agents) : [])), ...stringList(instance.block.compatible_agents)];
  return [...new Set([...declared, instance.type])];
}

function incompatibleMessage(agentType: string, refused: { entry: AgentEntry; accepted: string[] }[]): string {
  const bullets = refused.map(({ entry, accepted }) => `  - ${entry.name} uses ${resourcesServerOf(entry.block)}\n    and accepts ${accepted.join(", ")}`);
  // Suggest what every refusing instance accepts; when they share nothing, everything any of them accepts.
  const common = refused[0]!.accepted.filter((t) => refused.every((r) => r.accepted.includes(t)));
  const suggest = common.length > 0 ? common : [...new Set(refused.flatMap((r) => r.accepted))];
  return [
    `'${agentType}' is not declared compatible with ${refused.length} of the agent instance(s) it would replace,`,
    "so it cannot be scored correctly:",
    ...bullets,
    `Select one of: ${suggest.join(", ")}. Or pass`,
    `--allow-unsupported-pairing (or set ${ALLOW_UNSUPPORTED_PAIRING_ENV}=1) to bypass the check.`,
  ].join("\n");
}

/**
 * Composes a harness config (an agent block whose `resources_server.name` is `???`) onto every environment
 * agent instance: each becomes the harness block plus its own resources_server, model_server and datasets,
 * renamed after the new type, and the harness's stand-alone instance is dropped. Without a harness, or with
 * nothing to compose it onto, the tree comes back unchanged (so a bare harness still reports its `???`).
 * Throws when the new type is not declared compatible (unless allowed: then a warning is returned).
 */
export function composeHarness(tree: ConfigMap, options: ComposeOptions = {}): { tree: ConfigMap; swap?: HarnessSwap; warnings: string[] } {
  const agents = agentEntries(tree);
  const harnesses = agents.filter(isHarness);
  const targets = agents.filter(isEnvironmentInstance);
  if (harnesses.length === 0 || targets.length === 0) return { tree, warnings: [] };
  if (harnesses.length > 1) {
    const listed = harnesses.map((h) => `  - ${h.name} (${h.type}${options.originOf?.([h.name]) ? `, from ${options.originOf([h.name])}` : ""})`);
    throw new GymError("E_CONFIG", `${harnesses.length} agent harnesses (agent blocks leaving resources_server.name as '???') are merged, so the agent to swap in is ambiguous:\n${listed.join("\n")}`, {
      hint: "Pass a single --agent-type (or a single harness config via --config).",
    });
  }
  const harness = harnesses[0]!;
  const agentType = harness.type;
  const warnings: string[] = [];
  const changing = targets.filter((t) => t.type !== agentType);
  const refused = changing.map((entry) => ({ entry, accepted: acceptedAgentTypes(tree, entry) })).filter((r) => !r.accepted.includes(agentType));
  if (refused.length > 0) {
    const message = incompatibleMessage(agentType, refused);
    if (!options.allowUnsupportedPairing) throw new GymError("E_CONFIG", message);
    warnings.push(`${message.split("\n").slice(0, -2).join("\n")}\nContinuing anyway: the pairing was allowed (--allow-unsupported-pairing or ${ALLOW_UNSUPPORTED_PAIRING_ENV}=1).`);
  }

  const replaced: ReplacedInstance[] = [];
  const replacement = new Map<string, [string, ConfigMap]>();
  const taken = new Set(Object.keys(tree).filter((k) => k !== harness.name));
  // Swapping in the type an instance already runs changes nothing: its own settings stay.
  for (const target of changing) {
    const to = swappedName(target.name, target.type, agentType);
    taken.delete(target.name);
    if (taken.has(to)) {
      throw new GymError("E_CONFIG", `Swapping in '${agentType}' renames agent instance '${target.name}' to '${to}', but the config already has an entry named '${to}'.`, {
        hint: `Rename or remove '${to}' (for example ~${to} on the command line), or compose the harness onto a config without it.`,
      });
    }
    taken.add(to);
    const block = cloneValue(harness.block);
    block.resources_server = cloneValue(target.block.resources_server!);
    if (target.block.model_server !== undefined) block.model_server = cloneValue(target.block.model_server);
    block.datasets = cloneValue(target.block.datasets!);
    const entry = { ...(tree[target.name] as ConfigMap), [AGENTS]: { [agentType]: block } };
    replacement.set(target.name, [to, entry]);
    replaced.push({ from: target.name, to, fromType: target.type, resourcesServer: resourcesServerOf(target.block) as string });
  }

  const out: ConfigMap = {};
  for (const [key, value] of Object.entries(tree)) {
    if (key === harness.name) continue;
    const swap = replacement.get(key);
    if (swap) out[swap[0]] = swap[1];
    else out[key] = value;
  }
  for (const r of replaced) {
    const inner = (name: string, type: string): ConfigPath => [name, AGENTS, type];
    options.onMove?.([r.from], [r.to]);
    options.onMove?.(inner(harness.name, agentType), inner(r.to, agentType));
    for (const key of ["resources_server", "model_server", "datasets"]) options.onMove?.([...inner(r.from, r.fromType), key], [...inner(r.to, agentType), key]);
  }
  const renamed = Object.fromEntries(replaced.filter((r) => r.from !== r.to).map((r) => [r.from, r.to]));
  return { tree: out, swap: { agentType, harnessInstance: harness.name, replaced, renamed }, warnings };
}

/** Every routing value that names a replaced instance: `agent_name`, `agent_map` values, `fan_out` entries, `num_repeats` keys. */
function staleRoutes(tree: ConfigMap, renamed: Record<string, string>): { at: string; name: string }[] {
  const stale: { at: string; name: string }[] = [];
  const isStale = (v: unknown): v is string => typeof v === "string" && Object.hasOwn(renamed, v);
  if (isStale(tree.agent_name)) stale.push({ at: "agent_name", name: tree.agent_name });
  if (isMapping(tree.agent_map)) for (const [k, v] of Object.entries(tree.agent_map)) if (isStale(v)) stale.push({ at: formatPath(["agent_map", k]), name: v });
  const walk = (node: ConfigValue, path: ConfigPath) => {
    if (isStale(node)) stale.push({ at: formatPath(path), name: node });
    else if (Array.isArray(node)) node.forEach((v, i) => walk(v, [...path, i]));
    else if (isMapping(node)) for (const [k, v] of Object.entries(node)) walk(v, [...path, k]);
  };
  if (tree.fan_out !== undefined) walk(tree.fan_out, ["fan_out"]);
  // A per-agent repeat count keyed by the old name would otherwise fail later as "no entry for agent".
  if (isMapping(tree.num_repeats)) for (const k of Object.keys(tree.num_repeats)) if (isStale(k)) stale.push({ at: formatPath(["num_repeats", k]), name: k });
  return stale;
}

/** Refuses routing keys that name an instance the swap replaced, listing old → new for each. */
export function checkRouting(tree: ConfigMap, renamed: Record<string, string>): void {
  const stale = staleRoutes(tree, renamed);
  if (stale.length === 0) return;
  const bullets = stale.map((s) => `  - ${s.at}: '${s.name}' is now\n    '${renamed[s.name]}'`);
  throw new GymError("E_CONFIG", `Routing names agent instances that no longer exist once the agent is swapped:\n${bullets.join("\n")}\nUse the name the composed config reports.`);
}
