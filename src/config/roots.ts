/** Component roots (NEMO_GYM_EXTRA_ROOTS, --search-dir, cwd, the built-ins) and how relative read paths resolve against them. */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { decodeUtf8 } from "../text/utf8.ts";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import { listBuiltinFiles, readBuiltinFile } from "./builtin-files.ts";

/** How the built-in root is shown in messages and in `config_paths`. */
export const BUILTIN_PREFIX = "<built-in>/";

/** A directory root, or the built-in catalog (on disk in a source run, embedded in the binary). */
export type Root = { kind: "dir"; path: string } | { kind: "builtin" };

export interface RootOptions {
  /** `--search-dir` values, put in front of NEMO_GYM_EXTRA_ROOTS for this command. */
  searchDirs?: string[];
  cwd?: string;
  env?: Record<string, string | undefined>;
}

/** The roots in priority order: --search-dir, NEMO_GYM_EXTRA_ROOTS, cwd, built-ins; duplicates removed. */
export function componentRoots(options: RootOptions = {}): Root[] {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const extra = (env.NEMO_GYM_EXTRA_ROOTS ?? "").split(delimiter).filter(Boolean);
  const roots: Root[] = [];
  const seen = new Set<string>();
  for (const dir of [...(options.searchDirs ?? []), ...extra, cwd]) {
    const full = resolve(cwd, dir);
    if (seen.has(full)) continue;
    seen.add(full);
    roots.push({ kind: "dir", path: full });
  }
  roots.push({ kind: "builtin" });
  return roots;
}

/** The NEMO_GYM_EXTRA_ROOTS value child processes should get: `--search-dir` values in front of the current one. */
export function extraRootsValue(searchDirs: string[], env: Record<string, string | undefined> = process.env, cwd = process.cwd()): string | undefined {
  const current = env.NEMO_GYM_EXTRA_ROOTS;
  const parts = [...searchDirs.map((d) => resolve(cwd, d)), ...(current ? [current] : [])];
  return parts.length > 0 ? parts.join(delimiter) : undefined;
}

/** How a root's copy of `rel` is shown to the user. */
export function displayUnder(root: Root, rel: string): string {
  return root.kind === "builtin" ? `${BUILTIN_PREFIX}${rel}` : join(root.path, rel);
}

/** A file found under the roots: what to show, and its text. */
export interface FoundFile {
  display: string;
  /** The real path on disk; undefined for a built-in read from the embedded copy. */
  path?: string;
  text: string;
}

/** Reads `rel` from one root, or undefined when that root does not have it. */
export async function readUnder(root: Root, rel: string): Promise<FoundFile | undefined> {
  if (root.kind === "builtin") {
    const text = await readBuiltinFile(rel);
    return text === undefined ? undefined : { display: `${BUILTIN_PREFIX}${rel}`, text };
  }
  const full = join(root.path, rel);
  if (!isFile(full)) return undefined;
  return { display: full, path: full, text: decodeUtf8(readFileSync(full), full) };
}

/**
 * Reads a path the way NeMo Gym resolves read paths: absolute paths as given, `<built-in>/…` from the
 * built-ins, relative paths from the first root that has them. `searched` lists every place tried.
 */
export async function readFromRoots(entry: string, roots: Root[], cwd = process.cwd()): Promise<{ found?: FoundFile; searched: string[] }> {
  if (entry.startsWith(BUILTIN_PREFIX)) {
    const found = await readUnder({ kind: "builtin" }, entry.slice(BUILTIN_PREFIX.length));
    return { found, searched: [entry] };
  }
  if (isAbsolute(entry)) {
    return { found: isFile(entry) ? { display: entry, path: entry, text: decodeUtf8(readFileSync(entry), entry) } : undefined, searched: [entry] };
  }
  const rel = entry.replace(/^\.\//, "");
  const searched: string[] = [];
  for (const root of roots) {
    searched.push(root.kind === "dir" ? resolve(cwd, root.path, rel) : displayUnder(root, rel));
    const found = await readUnder(root, rel);
    if (found) return { found, searched };
  }
  return { searched };
}

/** Where a relative read path lives: the first root that has it, else under the first root (so errors point at the user's place). */
export async function resolveReadPath(rel: string, roots: Root[]): Promise<string> {
  if (isAbsolute(rel) || rel.startsWith(BUILTIN_PREFIX)) return rel;
  for (const root of roots) {
    if (root.kind === "dir" ? existsSync(join(root.path, rel)) : (await readBuiltinFile(rel)) !== undefined) return displayUnder(root, rel);
  }
  return displayUnder(roots[0]!, rel);
}

/** The names of sub-directories of `folder` in one root (for did-you-mean lists). */
export async function listDirsUnder(root: Root, folder: string): Promise<string[]> {
  if (root.kind === "dir") {
    const full = join(root.path, folder);
    if (!isDir(full)) return [];
    return readdirSync(full).filter((name) => isDir(join(full, name))).sort();
  }
  const prefix = folder === "" ? "" : `${folder.replace(/\/$/, "")}/`;
  const names = new Set<string>();
  for (const file of await listBuiltinFiles(folder)) {
    const rest = file.slice(prefix.length).split("/");
    if (rest.length > 1) names.add(rest[0]!);
  }
  return [...names].sort();
}

/** Files (recursive, relative to `folder`) in one root whose names end with `suffix`. */
export async function listFilesUnder(root: Root, folder: string, suffix = ".yaml"): Promise<string[]> {
  if (root.kind === "builtin") {
    const prefix = `${folder.replace(/\/$/, "")}/`;
    return (await listBuiltinFiles(folder)).filter((f) => f.endsWith(suffix)).map((f) => f.slice(prefix.length));
  }
  const base = join(root.path, folder);
  const out: string[] = [];
  const walk = (rel: string) => {
    const full = rel ? join(base, rel) : base;
    if (!isDir(full)) return;
    for (const name of readdirSync(full).sort()) {
      const child = rel ? `${rel}/${name}` : name;
      if (isDir(join(base, child))) walk(child);
      else if (name.endsWith(suffix)) out.push(child);
    }
  };
  walk("");
  return out;
}

/** Whether a root has a directory `folder` (built-ins: any file below it). */
export async function hasDirUnder(root: Root, folder: string): Promise<boolean> {
  return root.kind === "dir" ? isDir(join(root.path, folder)) : (await listBuiltinFiles(folder)).length > 0;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
