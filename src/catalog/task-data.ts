/** Finds a resources server's `task_data.ts` (its valibot `taskData` schema) under the roots, user roots first. */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { builtinDir } from "../config/builtin-files.ts";
import { componentRoots } from "../config/roots.ts";
import { importUserModule } from "../servers/user-catalog.ts";

/** The module's `taskData` (or `TaskData`, or default export) and its file, or undefined when no root has one. */
export async function findTaskDataModule(name: string, searchDirs: string[] = [], cwd = process.cwd()): Promise<{ file: string; schema: unknown } | undefined> {
  const dirs = componentRoots({ searchDirs, cwd }).map((r) => (r.kind === "dir" ? resolve(cwd, r.path) : builtinDir)).filter((d): d is string => Boolean(d));
  for (const dir of dirs) {
    const file = join(dir, "resources_servers", name, "task_data.ts");
    if (!existsSync(file)) continue;
    const module = await importUserModule<Record<string, unknown>>(file);
    const schema = module.taskData ?? module.TaskData ?? module.default;
    if (schema && typeof schema === "object" && "type" in schema) return { file, schema };
  }
  return undefined;
}
