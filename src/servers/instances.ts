/** Server instances in a resolved global config (protocol.md §1.2): `instance → serverType → implementation → block`. */
import { RESERVED_TOP_LEVEL_KEYS } from "../config/servers.ts";

export const SERVER_TYPES = ["responses_api_models", "resources_servers", "responses_api_agents"] as const;
export type ServerType = (typeof SERVER_TYPES)[number];

/** One configured server, as the config layer hands it over. `block` is the implementation's config mapping. */
export interface ServerInstance {
  name: string;
  serverType: ServerType;
  implementation: string;
  block: Record<string, unknown>;
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * The server instances of a resolved config, in config order. A value counts when it is a mapping holding a
 * server-type key with exactly one implementation whose block has an `entrypoint` (types tried in the order
 * models, resources, agents, as Python's union does).
 */
export function serverInstancesOf(config: Record<string, unknown>): ServerInstance[] {
  const out: ServerInstance[] = [];
  for (const [name, value] of Object.entries(config)) {
    if (RESERVED_TOP_LEVEL_KEYS.has(name) || !isMapping(value)) continue;
    for (const serverType of SERVER_TYPES) {
      const impls = value[serverType];
      if (!isMapping(impls) || Object.keys(impls).length !== 1) continue;
      const [implementation, block] = Object.entries(impls)[0]!;
      if (!isMapping(block) || typeof block.entrypoint !== "string") continue;
      out.push({ name, serverType, implementation, block });
      break;
    }
  }
  return out;
}

/** `http://host:port` of an instance, from `url` or `host` + `port` in its block (undefined if neither is set). */
export function instanceUrl(block: Record<string, unknown>): string | undefined {
  if (typeof block.url === "string" && block.url) return block.url.replace(/\/+$/, "");
  const port = Number(block.port);
  if (typeof block.host === "string" && block.host && Number.isInteger(port) && port > 0) {
    const host = block.host === "0.0.0.0" ? "127.0.0.1" : block.host;
    return `http://${host}:${port}`;
  }
  return undefined;
}

/**
 * The instances `selected` keeps, plus every instance their blocks reference (a judged resources server's
 * `judge_model_server`, say), transitively, in config order. Reverify starts only these: no agent, and a
 * model server only when a verifier calls it.
 */
export function withReferencedPeers<T extends ServerInstance>(instances: readonly T[], selected: (instance: T) => boolean): T[] {
  const byName = new Map(instances.map((i) => [i.name, i]));
  const keep = new Set<string>();
  const visit = (instance: T) => {
    if (keep.has(instance.name)) return;
    keep.add(instance.name);
    for (const value of Object.values(instance.block)) {
      if (!isMapping(value) || typeof value.name !== "string" || !SERVER_TYPES.includes(value.type as ServerType)) continue;
      const peer = byName.get(value.name);
      if (peer && peer.serverType === value.type) visit(peer);
    }
  };
  for (const instance of instances) if (selected(instance)) visit(instance);
  return instances.filter((i) => keep.has(i.name));
}
