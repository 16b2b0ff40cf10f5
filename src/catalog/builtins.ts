/** The built-in servers by type and implementation name: the one place that maps NeMo Gym's names to our components. */
import type { ServerCatalogs } from "../servers/registry.ts";

/** Loads the built-in catalogs (lazily, so `gym --help` never imports a server). */
export async function builtinCatalogs(): Promise<ServerCatalogs> {
  const [models, agents, resources] = await Promise.all([
    import("../components/responses_api_models/index.ts").then((m) => m.catalog),
    import("../components/responses_api_agents/index.ts").then((m) => m.catalog),
    import("../components/resources_servers/index.ts").then((m) => m.catalog),
  ]);
  return { responses_api_models: models, responses_api_agents: agents, resources_servers: resources };
}
