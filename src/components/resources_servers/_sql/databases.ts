/**
 * Where a SQL server's databases live: the configured folder (absolute; relative to the working directory when it
 * exists there, as in a NeMo Gym checkout; else under the download cache), checked at start-up.
 */
import { existsSync, readdirSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { cacheDir } from "../../../download/index.ts";
import { GymError } from "../../../errors.ts";

/** The folder a `*_dir` config value names. */
export function databaseRoot(configured: string, env: Record<string, string | undefined> = process.env): string {
  if (isAbsolute(configured)) return configured;
  const local = resolve(configured);
  return existsSync(local) ? local : join(cacheDir(env), configured);
}

/** True when `folder` holds at least one `.sqlite` file (at `depth` 0: directly; 1: in its sub-folders). */
export function hasSqliteFiles(folder: string, depth: 0 | 1): boolean {
  if (!existsSync(folder)) return false;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (depth === 0 && entry.isFile() && entry.name.endsWith(".sqlite") && !entry.name.startsWith(".")) return true;
    if (depth === 1 && entry.isDirectory() && hasSqliteFiles(join(folder, entry.name), 0)) return true;
  }
  return false;
}

/** The refusal when a server's databases are not on disk. */
export function missingDatabases(server: string, folder: string, source: string, configKey: string): GymError {
  return new GymError("E_IO", `${server}: no SQLite databases under ${folder}.`, {
    hint: `Download them from ${source} and unpack them there, or point \`${configKey}\` at a folder that has them.`,
  });
}

/** A task's `db_id` names one database file; a path in it would reach outside the folder. */
export function safeDbId(dbId: string): boolean {
  return dbId !== "" && !/[/\\\u0000]/.test(dbId) && dbId !== "." && dbId !== "..";
}
