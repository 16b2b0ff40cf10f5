/** Which resources server re-verifies a row (collection.md §6.3), and the reverify-mode guard over those servers (§6.2). */
import { GymError } from "../../errors.ts";
import type { Row } from "../../jsonl/read.ts";
import type { ServerDirectory } from "../../servers/client.ts";
import { closeMatches } from "../../text/difflib.ts";

/** A configured server as routing sees it. */
export interface RouteInstance {
  name: string;
  serverType: string;
  block: Record<string, unknown>;
}

export type ReverifyMode = "stateless" | "unsupported" | "unknown";

function refName(block: Record<string, unknown>): string | undefined {
  const ref = block.resources_server;
  if (ref && typeof ref === "object" && !Array.isArray(ref)) {
    const name = (ref as Row).name;
    if (typeof name === "string") return name;
  }
  return undefined;
}

/** Routes rows by their stamps: task_source, then _ng_environment_server, then agent_ref.name, then the only server. */
export class Router {
  readonly resourcesServers: string[];
  private readonly agents = new Map<string, string | undefined>();
  private readonly byName = new Map<string, RouteInstance>();
  private warned = false;

  constructor(
    instances: readonly RouteInstance[],
    private readonly warn: (message: string) => void = () => {},
    /** Agent instances an `--agent-type` swap renamed, old → new (as eval run re-routes them). */
    private readonly renamed: Record<string, string> = {},
  ) {
    for (const i of instances) this.byName.set(i.name, i);
    this.resourcesServers = instances.filter((i) => i.serverType === "resources_servers").map((i) => i.name);
    for (const i of instances) if (i.serverType === "responses_api_agents") this.agents.set(i.name, refName(i.block));
  }

  /** The resources server for a row; `where` (file:line) goes into errors. Config errors are GymErrors. */
  route(row: Row, where: string): string {
    const rs = new Set(this.resourcesServers);
    if (typeof row.task_source === "string" && rs.has(row.task_source)) return row.task_source;
    const env = row._ng_environment_server;
    if (typeof env === "string" && this.byName.has(env)) {
      if (rs.has(env)) return env;
      const target = refName(this.byName.get(env)!.block);
      if (target) return this.known(target, env, where);
    }
    if (this.agents.size === 0) return this.onlyServer();
    const stamped = (row.agent_ref as Row | undefined)?.name;
    const agent = typeof stamped === "string" && !this.agents.has(stamped) && Object.hasOwn(this.renamed, stamped) ? this.renamed[stamped] : stamped;
    if (typeof agent !== "string") {
      throw new GymError("E_CONFIG", `${where}: the row has no agent_ref.name (nor task_source / _ng_environment_server naming a configured server), so its resources server is unknown.`, {
        hint: "Reverify with a resources-server-only config (one resources server receives every row), or fix the row's agent_ref.",
      });
    }
    if (!this.agents.has(agent)) {
      const known = [...this.agents.keys()];
      const close = closeMatches(agent, known, 3, 0.6);
      throw new GymError("E_CONFIG", `${where}: agent '${agent}' is not in the config (known agents: ${known.join(", ")}).`, {
        hint: close.length ? `Did you mean ${close.map((n) => `'${n}'`).join(", ")}? Reverify with the config that produced the rollouts.` : "Reverify with the config that produced the rollouts, or a resources-server-only config.",
      });
    }
    const target = this.agents.get(agent);
    if (!target) throw new GymError("E_CONFIG", `${where}: agent '${agent}' has no resources_server reference in the config.`, { hint: `Set ${agent}.responses_api_agents.<impl>.resources_server.name.` });
    return this.known(target, agent, where);
  }

  private known(target: string, from: string, where: string): string {
    if (this.resourcesServers.includes(target)) return target;
    throw new GymError("E_CONFIG", `${where}: '${from}' points at resources server '${target}', which is not configured.`, {
      hint: `Add the config that defines '${target}' (configured resources servers: ${this.resourcesServers.join(", ") || "none"}).`,
    });
  }

  private onlyServer(): string {
    if (this.resourcesServers.length === 1) {
      if (!this.warned) {
        this.warned = true;
        this.warn(`The config has no agent blocks: every row goes to the only resources server '${this.resourcesServers[0]}' (stale or misspelled agent names in the rows cannot be detected).`);
      }
      return this.resourcesServers[0]!;
    }
    if (this.resourcesServers.length === 0) {
      throw new GymError("E_CONFIG", "Reverify found no resources server in the config.", { hint: "Pass the resources server's config: --config my_resources_server.yaml, or --resources-server NAME." });
    }
    throw new GymError("E_CONFIG", `Reverify found several resources servers (${this.resourcesServers.join(", ")}) and no agent blocks to route rows by.`, {
      hint: "Use the config with agent blocks that produced the rollouts, or a config with a single resources server.",
    });
  }
}

/** Asks each server `GET /reverify_mode`. A server that cannot answer (e.g. a Gymnasium server: 404) counts as `unknown`. */
export async function reverifyModes(names: Iterable<string>, servers: ServerDirectory): Promise<Map<string, { mode: ReverifyMode; note?: string }>> {
  const out = new Map<string, { mode: ReverifyMode; note?: string }>();
  for (const name of [...new Set(names)].sort()) {
    const reply = await servers.get(name).get("/reverify_mode");
    let mode: unknown;
    try {
      mode = reply.ok ? reply.json() : undefined;
    } catch {
      mode = undefined;
    }
    if (mode === "stateless" || mode === "unsupported" || mode === "unknown") out.set(name, { mode });
    else out.set(name, { mode: "unknown", note: reply.ok ? `answered ${reply.text.slice(0, 80)}` : `GET /reverify_mode answered ${reply.status}` });
  }
  return out;
}

/** The guard: every server `stateless`, or `--force` (then the caller prefixes `unsafe_`). Returns the warning to print, if any. */
export function guardMessage(modes: Map<string, { mode: ReverifyMode; note?: string }>, force: boolean): string | undefined {
  const unsafe = [...modes].filter(([, m]) => m.mode !== "stateless");
  if (unsafe.length === 0) return undefined;
  const list = unsafe.map(([name, m]) => `'${name}' (${m.mode}${m.note ? `; ${m.note}` : ""})`).join(", ");
  if (!force) {
    throw new GymError("E_CONFIG", `Reverification is not known to be safe for resources server(s) ${list}: rewards could be silently wrong (a verifier that reads per-rollout session state no longer has it).`, {
      hint: "Only servers reporting reverify_mode 'stateless' are re-verified by default. Pass --force to run anyway; the output file name then gets the 'unsafe_' prefix.",
    });
  }
  return `Resources server(s) ${list} do not report reverify_mode 'stateless'; rewards may be incorrect. Output is prefixed with 'unsafe_'.`;
}
