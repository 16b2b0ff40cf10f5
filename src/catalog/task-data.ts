/** A resources server's task-data schema: its `task_data.ts` (a valibot `taskData`), or else the row fields its routes declare. */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { componentRoots } from "../config/roots.ts";
import { taskDataSchema } from "../servers/resources/index.ts";
import { importUserModule, withUserCatalogs } from "../servers/user-catalog.ts";
import { builtinCatalogs } from "./builtins.ts";
import { toJsonSchema } from "./json-schema.ts";

/** The JSON Schema of NAME's task rows and where it came from, or undefined when the server declares no task data. */
export async function findTaskDataSchema(name: string, searchDirs: string[] = [], cwd = process.cwd()): Promise<{ source: string; schema: Record<string, unknown> } | undefined> {
  const dirs = componentRoots({ searchDirs, cwd }).flatMap((r) => (r.kind === "dir" ? [resolve(cwd, r.path)] : []));
  for (const dir of dirs) {
    const file = join(dir, "resources_servers", name, "task_data.ts");
    if (!existsSync(file)) continue;
    const module = await importUserModule<Record<string, unknown>>(file);
    const schema = module.taskData ?? module.TaskData ?? module.default;
    if (schema && typeof schema === "object" && "type" in schema) return { source: file, schema: toJsonSchema(schema as never) };
  }
  const load = withUserCatalogs(await builtinCatalogs(), dirs).resources_servers?.[name];
  if (!load) return undefined;
  const factory = (await load()).default as { definition?: Parameters<typeof taskDataSchema>[0] };
  const schema = factory.definition && taskDataSchema(factory.definition);
  return schema ? { source: `resources_servers/${name} (declared /seed_session and /verify fields)`, schema: { $schema: "https://json-schema.org/draft/2020-12/schema", ...schema } } : undefined;
}
