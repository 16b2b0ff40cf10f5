/** Servers for a resolved config: the registry of every instance, minus the placeholder model of model-free commands. */
import type { ResolvedConfig } from "../config/index.ts";
import { ServerRegistry, type RegistryOptions } from "./registry.ts";

/**
 * Builds the registry of a resolved config's servers (built-ins in-process, the rest by URL). The `dummy_model`
 * that model-free commands (aggregate, reverify) put in place of `policy_model` is left out: nothing calls it.
 */
export async function registryFromConfig(config: ResolvedConfig, options: RegistryOptions): Promise<ServerRegistry> {
  const userRoots = config.roots.flatMap((r) => (r.kind === "dir" ? [r.path] : []));
  const instances = config.serverInstances
    .filter((i) => !(i.serverType === "responses_api_models" && i.implementation === "dummy_model"))
    .map((i) => ({ name: i.name, serverType: i.serverType, implementation: i.implementation, block: i.config }));
  return ServerRegistry.create(instances, { globalConfig: config.resolve() as Record<string, unknown>, userRoots, ...options });
}
