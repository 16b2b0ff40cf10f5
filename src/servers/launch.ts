/** Serving a whole environment on ports (`gym env start`): every built-in instance, plus the head server. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { GymError } from "../errors.ts";
import { serve, type ServedApp } from "../runtime/serve.ts";
import { createHeadApp, type ServerInstanceInfo } from "./head.ts";
import type { ServerInstance } from "./instances.ts";
import { ServerRegistry, type RegistryOptions } from "./registry.ts";

export interface LaunchOptions {
  /** Instances with resolved blocks (host/port filled by the config layer in run mode). */
  instances: ServerInstance[];
  /** The merged config as YAML, served by the head server. */
  configYaml: string;
  /** `head_server` from the config (default 127.0.0.1:11000). */
  headServer?: { host?: string; port?: number };
  /** Bind every server to this host instead of each block's host (`--host 0.0.0.0`). */
  bindHost?: string;
  registry?: RegistryOptions;
}

export interface LaunchedEnvironment {
  instances: ServerInstanceInfo[];
  headUrl: string;
  registry: ServerRegistry;
  /** Stops every server and the head server; resolves when all sockets are closed. */
  stop(): Promise<void>;
}

/** Starts every instance on its configured port and the head server; on any failure, stops what was started. */
export async function launchEnvironment(options: LaunchOptions): Promise<LaunchedEnvironment> {
  if (options.instances.length === 0) {
    throw new GymError("E_CONFIG", "No server instances are configured, so there is nothing to start.", {
      hint: "Pass a config: e.g. `gym env start --resources-server example_single_tool_call --model-type mock_model`.",
    });
  }
  const registry = await ServerRegistry.create(options.instances, options.registry);
  const started: ServedApp[] = [];
  const infos: ServerInstanceInfo[] = [];
  const startTime = Date.now() / 1000;
  try {
    for (const instance of options.instances) {
      const app = registry.app(instance.name);
      const block = instance.block;
      if (!app) {
        if (typeof block.url === "string") continue; // Remote: someone else serves it.
        throw new GymError("E_CONFIG", `'${instance.implementation}' (instance '${instance.name}') is not a built-in ${instance.serverType} implementation, so gym cannot start it.`, {
          hint: `Start it with NeMo Gym (Python) and set ${instance.name}.${instance.serverType}.${instance.implementation}.url to its address.`,
        });
      }
      const host = options.bindHost ?? (typeof block.host === "string" && block.host ? block.host : "127.0.0.1");
      const port = Number(block.port) > 0 ? Number(block.port) : 0;
      const served = await serve(app.fetch, { host, port }).catch((error) => {
        throw new GymError("E_SERVER", `Cannot serve '${instance.name}' on ${host}:${port}: ${(error as Error).message}`, {
          hint: "Another process may hold the port: stop it, or set a different port for this instance.",
          cause: error,
        });
      });
      started.push(served);
      infos.push({
        config_path: instance.name,
        dir_path: componentDir(instance),
        entrypoint: typeof block.entrypoint === "string" ? block.entrypoint : null,
        host,
        name: instance.implementation,
        pid: process.pid,
        port: served.port,
        process_name: instance.name,
        server_type: instance.serverType,
        start_time: startTime,
        status: null,
        uptime_seconds: null,
        url: `http://${host}:${served.port}`,
      });
    }
    const headHost = options.bindHost ?? options.headServer?.host ?? "127.0.0.1";
    const head = await serve(createHeadApp({ configYaml: options.configYaml, instances: () => infos }).fetch, {
      host: headHost,
      port: options.headServer?.port ?? 11000,
    }).catch((error) => {
      throw new GymError("E_SERVER", `Cannot start the head server on ${headHost}:${options.headServer?.port ?? 11000}: ${(error as Error).message}`, {
        hint: "Is another `gym env start` (or NeMo Gym) running? Stop it, or set +head_server.port=<free port>.",
        cause: error,
      });
    });
    started.push(head);
    return {
      instances: infos,
      headUrl: head.url,
      registry,
      async stop() {
        await Promise.all(started.map((s) => s.stop()));
        await registry.close();
      },
    };
  } catch (error) {
    await Promise.all(started.map((s) => s.stop()));
    throw error;
  }
}

function componentDir(instance: ServerInstance): string {
  const source = join(import.meta.dirname ?? "", "..", "components", instance.serverType, instance.implementation);
  return existsSync(source) ? source : `<built-in>/${instance.serverType}/${instance.implementation}`;
}
