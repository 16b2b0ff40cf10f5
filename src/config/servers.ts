/** Server instances found by shape (§1.2), almost-servers (§1.15) and server references (§1.3). */
import { GymError } from "../errors.ts";
import { closeMatches } from "../text/difflib.ts";
import { isMapping, SERVER_TYPES, type ConfigMap, type ConfigValue, type ServerType } from "./_tree.ts";
import { checkDataset, fieldChecks, oneOf, type Issue } from "./datasets.ts";

/** Top-level keys that are never server instances. */
export const RESERVED_TOP_LEVEL_KEYS = new Set([
  "config_paths", "entrypoint", "default_host", "head_server", "disallowed_ports", "head_server_deps", "python_version",
  "pip_install_verbose", "use_absolute_ip", "uv_pip_set_python", "skip_venv_if_present", "hf_token",
  "ray_head_node_address", "port_range_low", "port_range_high", "dry_run", "model_endpoint_readiness_timeout_seconds",
  "allow_openai_version_skew", "uv_cache_dir", "uv_venv_dir", "results_dir", "cache_dir", "_inherit_from", "_copy",
  "nemo_gym_log_dir", "verbose", "json", "query", "observability_enabled", "model_call_capture_dir", "token_id_capture",
  "component_name", "skip_verification", "skip_verification_reward",
]);

export const DOMAINS = [
  "math", "coding", "agent", "knowledge", "instruction_following", "long_context",
  "safety", "games", "translation", "e2e", "rlhf", "other",
] as const;

/** A server instance of the merged config. `block` is the live inner block (`tree[name][serverType][implementation]`). */
export interface ServerInstance {
  name: string;
  serverType: ServerType;
  implementation: string;
  block: ConfigMap;
}

function checkBlock(type: ServerType, instance: ConfigMap, issues: Issue[]): ServerInstance | undefined {
  const inner = instance[type];
  const before = issues.length;
  if (!isMapping(inner)) {
    issues.push({ loc: [type], msg: "Input should be a valid dictionary" });
    return undefined;
  }
  const names = Object.keys(inner);
  if (names.length !== 1) {
    issues.push({ loc: [type], msg: names.length === 0 ? "Dictionary should have at least 1 item after validation, not 0" : `Dictionary should have at most 1 item after validation, not ${names.length}` });
    return undefined;
  }
  const implementation = names[0]!;
  const block = inner[implementation];
  const loc = [type, implementation];
  if (!isMapping(block)) {
    issues.push({ loc, msg: "Input should be a valid dictionary or object" });
    return undefined;
  }
  const checks = fieldChecks(block, loc, issues);
  checks.requiredString("entrypoint");
  checks.optionalString("host");
  checks.optionalInt("port");
  checks.optionalInt("num_workers");
  const domain = block.domain;
  if (domain !== undefined && domain !== null && !(typeof domain === "string" && (domain.includes("${") || DOMAINS.includes(domain as never)))) {
    issues.push({ loc: [...loc, "domain"], msg: oneOf(DOMAINS) });
  } else if (type === "resources_servers" && (domain === undefined || domain === null)) {
    issues.push({ loc: [], msg: "Value error, A domain is required for resources servers." });
  }
  const datasets = block.datasets;
  if (datasets !== undefined && datasets !== null) {
    if (!Array.isArray(datasets)) issues.push({ loc: [...loc, "datasets"], msg: "Input should be a valid list" });
    else datasets.forEach((entry, i) => issues.push(...checkDataset(entry, [...loc, "datasets", i])));
  }
  return issues.length === before ? { name: "", serverType: type, implementation, block } : undefined;
}

/**
 * Checks one top-level entry against the server instance shape. Returns the instance when it is one, or
 * the issues of every server type it tried (empty when it has no server-type key at all).
 */
export function checkServerInstance(name: string, value: ConfigValue): { instance?: ServerInstance; issues: Issue[] } {
  if (RESERVED_TOP_LEVEL_KEYS.has(name) || !isMapping(value)) return { issues: [] };
  const issues: Issue[] = [];
  // NeMo Gym's union takes the first server type that validates, in the order models, resources, agents.
  for (const type of SERVER_TYPES) {
    if (!Object.hasOwn(value, type)) continue;
    const instance = checkBlock(type, value, issues);
    if (instance) return { instance: { ...instance, name }, issues: [] };
  }
  return { issues };
}

/** A block that looks like a server (a server-type key whose entry has an `entrypoint`). */
export function looksLikeServer(value: ConfigValue): boolean {
  if (!isMapping(value)) return false;
  return SERVER_TYPES.some((type) => isMapping(value[type]) && Object.values(value[type] as ConfigMap).some((b) => isMapping(b) && Object.hasOwn(b, "entrypoint")));
}

/** Every server instance of a tree, in key order. */
export function findServerInstances(tree: ConfigMap): ServerInstance[] {
  const out: ServerInstance[] = [];
  for (const [name, value] of Object.entries(tree)) {
    const { instance } = checkServerInstance(name, value);
    if (instance) out.push(instance);
  }
  return out;
}

/** A block that looks like a server but fails validation, with its problems. */
export interface AlmostServer {
  name: string;
  issues: Issue[];
}

export function findAlmostServers(tree: ConfigMap): AlmostServer[] {
  const out: AlmostServer[] = [];
  for (const [name, value] of Object.entries(tree)) {
    const { instance, issues } = checkServerInstance(name, value);
    if (!instance && issues.length > 0 && looksLikeServer(value)) out.push({ name, issues });
  }
  return out;
}

/** `location -> path: message` lines, one per problem. */
export function formatAlmostServer(almost: AlmostServer): string {
  const lines = almost.issues.map((issue) => `  - ${[almost.name, ...issue.loc].join(" -> ")}: ${issue.msg}`);
  return `Almost-server '${almost.name}' looks like a server but failed validation, so it will not be started:\n${lines.join("\n")}`;
}

/** A server reference: a mapping with a server `type` and a string `name` (extra keys allowed). */
export function asServerRef(value: ConfigValue | undefined): { type: ServerType; name: string } | undefined {
  if (!isMapping(value) || typeof value.name !== "string" || !SERVER_TYPES.includes(value.type as ServerType)) return undefined;
  return { type: value.type as ServerType, name: value.name };
}

/**
 * Checks that every reference among a block's immediate fields names an instance of that type.
 * `fields(instance)` gives the block's top-level fields resolved (references may be interpolated).
 */
export function checkReferences(instances: ServerInstance[], fields: (instance: ServerInstance) => ConfigMap, originOf?: (name: string) => string | undefined): void {
  const known = new Set(instances.map((i) => `${i.serverType}/${i.name}`));
  for (const instance of instances) {
    for (const [field, value] of Object.entries(fields(instance))) {
      const ref = asServerRef(value);
      if (!ref || known.has(`${ref.type}/${ref.name}`)) continue;
      const sameType = instances.filter((i) => i.serverType === ref.type).map((i) => i.name);
      const suggestions = closeMatches(ref.name, sameType, 3, 0.6);
      const help = suggestions.length > 0
        ? `Did you mean: ${suggestions.map((s) => `'${s}'`).join(", ")}?`
        : `Available ${ref.type}: ${sameType.sort().map((s) => `'${s}'`).join(", ") || "(none)"}`;
      const origin = originOf?.(instance.name);
      throw new GymError(
        "E_CONFIG",
        `In server instance '${instance.name}'${origin ? ` (from ${origin})` : ""}, field '${field}' references ${ref.type}/'${ref.name}', which is not defined in the merged config.\n${help}`,
        {
          hint:
            `Fix ${instance.name}.${instance.serverType}.${instance.implementation}.${field}.name, or add the config that defines '${ref.name}' with --config` +
            (field.startsWith("judge_")
              ? ` (e.g. judge.yaml: "${ref.name}: {responses_api_models: {openai_model: {entrypoint: app.py, openai_base_url: <url>/v1, openai_api_key: <key>, openai_model: <model>}}}").`
              : "."),
        },
      );
    }
  }
}
