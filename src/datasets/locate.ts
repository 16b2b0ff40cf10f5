/** Finds a dataset file for reading through the component roots (extra roots, cwd, built-ins), as NeMo Gym resolves read paths. */
import { existsSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { builtinDir, readBuiltinFile } from "../config/builtin-files.ts";
import { BUILTIN_PREFIX, type Root } from "../config/roots.ts";
import type { LineSource } from "./measure.ts";

/** A file path when the dataset is on disk, its text when it is a built-in inside the compiled binary; undefined when no root has it. */
export async function locateDataset(entry: string, roots: Root[], cwd = process.cwd()): Promise<LineSource | undefined> {
  const builtin = async (rel: string): Promise<LineSource | undefined> => {
    if (builtinDir) return isFile(join(builtinDir, rel)) ? { path: join(builtinDir, rel) } : undefined;
    const text = await readBuiltinFile(rel);
    return text === undefined ? undefined : { text, name: `${BUILTIN_PREFIX}${rel}` };
  };
  if (entry.startsWith(BUILTIN_PREFIX)) return builtin(entry.slice(BUILTIN_PREFIX.length));
  if (isAbsolute(entry)) return isFile(entry) ? { path: entry } : undefined;
  const rel = entry.replace(/^\.\//, "");
  for (const root of roots) {
    const found = root.kind === "dir" ? (isFile(resolve(cwd, root.path, rel)) ? { path: resolve(cwd, root.path, rel) } : undefined) : await builtin(rel);
    if (found) return found;
  }
  return undefined;
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}
