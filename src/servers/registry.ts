/** ServerRegistry: every configured server by instance name — built-ins as in-process apps, the rest over HTTP. */
import type { Hono } from "hono";
import { GymError } from "../errors.ts";
import { closeMatches } from "../text/difflib.ts";
import type { ServerClient, ServerDirectory } from "./client.ts";
import { HttpServerClient } from "./http.ts";
import { InProcessServerClient } from "./in-process.ts";
import { instanceUrl, type ServerInstance, type ServerType } from "./instances.ts";
import { withUserCatalogs } from "./user-catalog.ts";

/** What a built-in server's factory receives besides its config block. */
export interface ServerFactoryContext {
  /** Instance name (also injected into the block as `name`, as Python does). */
  name: string;
  serverType: ServerType;
  implementation: string;
  /** Reach other servers by instance name (resolved at call time, so creation order does not matter). */
  servers: ServerDirectory;
  /** The whole resolved config, for servers that read top-level keys. */
  globalConfig: Record<string, unknown>;
}

/** A built-in server: builds a Hono app from its config block. */
export type ServerFactory = (block: Record<string, unknown>, context: ServerFactoryContext) => Hono<any> | Promise<Hono<any>>;

/** Implementation name → lazy module whose default export is the factory. One per server type. */
export type ServerCatalog = Record<string, () => Promise<{ default: ServerFactory }>>;

/** A catalog per server type. */
export type ServerCatalogs = Partial<Record<ServerType, ServerCatalog>>;

export interface RegistryOptions {
  /**
   * `in-process` (default): built-ins run in this process, and only instances with an explicit `url` or a
   * non-built-in implementation are reached over HTTP. `http`: every instance is reached at its host/port
   * (servers already running, e.g. started by `gym env start` or by Python NeMo Gym).
   */
  connect?: "in-process" | "http";
  /** The built-in catalogs (`builtinCatalogs()` of catalog/builtins.ts); user servers under `userRoots` are added to them. */
  builtins?: ServerCatalogs;
  /** Exactly these catalogs instead (tests); their routes are all called directly. */
  catalogs?: ServerCatalogs;
  globalConfig?: Record<string, unknown>;
  /** Default timeout per call, ms (0 = none, as in NeMo Gym). */
  timeoutMs?: number;
  /** The directory built-ins use to reach their peers (default: this registry). E.g. peers over HTTP only. */
  peers?: ServerDirectory;
  /**
   * In-process calls hand JSON bodies to built-in routes as objects (default true); false sends JSON text
   * through `app.fetch`, as over HTTP (the two must answer alike; tests compare them).
   */
  directCalls?: boolean;
  /** Folders searched for a user's own TypeScript servers (`<dir>/resources_servers/<name>/index.ts`), in priority order. */
  userRoots?: string[];
}

export class ServerRegistry implements ServerDirectory {
  readonly instances: readonly ServerInstance[];
  private readonly clients = new Map<string, ServerClient>();
  private readonly apps = new Map<string, Hono<any>>();

  private constructor(instances: ServerInstance[]) {
    this.instances = instances;
  }

  /** Builds clients for every instance; built-in apps are created now (their peers are looked up per call). */
  static async create(instances: ServerInstance[], options: RegistryOptions = {}): Promise<ServerRegistry> {
    const registry = new ServerRegistry(instances);
    const builtins = options.catalogs ? undefined : options.builtins;
    if (!options.catalogs && !builtins && options.connect !== "http") throw new Error("ServerRegistry.create needs `builtins` (catalog/builtins.ts) or `catalogs`");
    const catalogs = options.catalogs ?? withUserCatalogs(builtins ?? {}, options.userRoots ?? []);
    const globalConfig = options.globalConfig ?? {};
    for (const instance of instances) {
      const url = instanceUrl(instance.block);
      const load = catalogs[instance.serverType]?.[instance.implementation];
      const explicitUrl = typeof instance.block.url === "string";
      if (options.connect === "http" || explicitUrl || !load) {
        if (!url) throw noAddress(instance, !!load);
        registry.clients.set(instance.name, new HttpServerClient(instance.name, url, { timeoutMs: options.timeoutMs }));
        continue;
      }
      const factory = (await load()).default;
      const block = { ...instance.block, name: instance.name };
      const context = { name: instance.name, serverType: instance.serverType, implementation: instance.implementation, servers: options.peers ?? registry, globalConfig };
      const app = await factory(block, context);
      registry.apps.set(instance.name, app);
      // Built-in routes never change the objects they are handed; a user's server gets JSON text, as over HTTP.
      const direct = options.directCalls !== false && (!builtins || builtins[instance.serverType]?.[instance.implementation] === load);
      registry.clients.set(instance.name, new InProcessServerClient(instance.name, app, { timeoutMs: options.timeoutMs, direct }));
    }
    return registry;
  }

  /** The client for an instance; an unknown name is a GymError that suggests close names. */
  get(name: string): ServerClient {
    const client = this.clients.get(name);
    if (client) return client;
    const names = [...this.clients.keys()];
    const close = closeMatches(name, names, 3, 0.6);
    throw new GymError("E_SERVER", `No server instance named '${name}' is configured.`, {
      hint: close.length ? `Did you mean ${close.map((n) => `'${n}'`).join(", ")}?` : `Configured instances: ${names.join(", ") || "(none)"}.`,
    });
  }

  has(name: string): boolean {
    return this.clients.has(name);
  }

  /** The in-process Hono app of a built-in instance (to serve it on a port), if it runs here. */
  app(name: string): Hono<any> | undefined {
    return this.apps.get(name);
  }

  instance(name: string): ServerInstance | undefined {
    return this.instances.find((i) => i.name === name);
  }

  async close(): Promise<void> {
    await Promise.all([...this.clients.values()].map((c) => c.close()));
  }
}

function noAddress(instance: ServerInstance, builtin: boolean): GymError {
  const where = `${instance.name}.${instance.serverType}.${instance.implementation}`;
  return new GymError(
    "E_CONFIG",
    builtin
      ? `Server instance '${instance.name}' has no host/port to connect to (${where}).`
      : `'${instance.implementation}' is not a built-in ${instance.serverType} implementation, and '${instance.name}' has no url or host/port to reach it.`,
    { hint: `Set ${where}.url (e.g. http://127.0.0.1:8000), or host and port, to use a server that is already running.` },
  );
}
