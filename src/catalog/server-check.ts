/** The check `gym eval run` applies at launch, without serving: every resources server block against its server's config. */
import type { ResolvedConfig } from "../config/index.ts";
import { ServerRegistry } from "../servers/registry.ts";
import { builtinCatalogs } from "./builtins.ts";
import { isGymError, type GymError } from "../errors.ts";

/**
 * Creates each resources server of a resolved config in-process (built-ins and a user's TypeScript servers),
 * which checks its block against the server's declared config exactly as a run does; servers reached by URL are
 * not contacted. Throws the same GymError a run would (`Invalid config for resources server …`).
 */
export async function checkServerBlocks(config: ResolvedConfig): Promise<void> {
  const instances = config.serverInstances
    .filter((i) => i.serverType === "resources_servers")
    .map((i) => ({ name: i.name, serverType: i.serverType, implementation: i.implementation, block: i.config }));
  if (instances.length === 0) return;
  const userRoots = config.roots.flatMap((r) => (r.kind === "dir" ? [r.path] : []));
  await ServerRegistry.create(instances, { builtins: await builtinCatalogs(), userRoots, globalConfig: config.resolve() as Record<string, unknown> });
}

/** The launch-time check's error, or undefined when every block fits (for commands that warn instead of failing). */
export async function serverBlockProblem(config: ResolvedConfig): Promise<GymError | undefined> {
  try {
    await checkServerBlocks(config);
  } catch (error) {
    if (isGymError(error)) return error;
    throw error;
  }
  return undefined;
}
