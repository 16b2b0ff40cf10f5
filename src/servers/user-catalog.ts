/** Servers a user wrote in TypeScript (e.g. by `gym env init`), found under the component roots in NeMo Gym's layout. */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { importFile, provideModule } from "../runtime/user-modules.ts";
import { SERVER_TYPES, type ServerType } from "./instances.ts";
import type { ServerCatalog, ServerFactory } from "./registry.ts";
import { checkServerExport, userModuleError } from "./user-module-errors.ts";

/** The bare specifier scaffolded servers import when written outside a gym checkout. */
export const SDK_SPECIFIER = "gym/server-sdk";

/**
 * `<root>/<server type>/<name>/index.ts` for every folder root, in priority order (an earlier root wins).
 * A module's default export is either a ServerFactory or a `defineResourcesServer(...)` result (also a factory).
 */
export function userCatalogs(rootDirs: string[]): Partial<Record<ServerType, ServerCatalog>> {
  const catalogs: Partial<Record<ServerType, ServerCatalog>> = {};
  for (const type of SERVER_TYPES) {
    const catalog: ServerCatalog = {};
    for (const root of rootDirs) {
      const dir = join(root, type);
      if (!existsSync(dir)) continue;
      for (const name of readdirSync(dir)) {
        const entry = join(dir, name, "index.ts");
        if (catalog[name] || !existsSync(entry)) continue;
        catalog[name] = async () => {
          const module = await importUserModule<{ default: ServerFactory }>(entry);
          checkServerExport(entry, module as unknown as Record<string, unknown>);
          return module;
        };
      }
    }
    if (Object.keys(catalog).length > 0) catalogs[type] = catalog;
  }
  return catalogs;
}

/** Imports a user's TypeScript module (a server, its task_data.ts) with `gym/server-sdk` available to it. */
export async function importUserModule<T>(path: string): Promise<T> {
  provideModule(SDK_SPECIFIER, { ...(await import("./sdk.ts")) });
  try {
    return await importFile<T>(path);
  } catch (error) {
    throw userModuleError(path, error);
  }
}

/** Built-in catalogs with the user's servers laid over them (a user's folder of the same name wins, as roots do). */
export function withUserCatalogs(builtin: Partial<Record<ServerType, ServerCatalog>>, rootDirs: string[]): Partial<Record<ServerType, ServerCatalog>> {
  const user = userCatalogs(rootDirs);
  const merged: Partial<Record<ServerType, ServerCatalog>> = {};
  for (const type of SERVER_TYPES) merged[type] = { ...builtin[type], ...user[type] };
  return merged;
}
