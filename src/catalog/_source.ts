/** What discovery reads from one root: file lists, file text, and the path shown for a file (absolute, or `<built-in>/…`). */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { decodeUtf8 } from "../text/utf8.ts";
import { join } from "node:path";
import { builtinDir, readBuiltinFile } from "../config/builtin-files.ts";
import { BUILTIN_PREFIX, listDirsUnder, listFilesUnder, type Root, type RootOptions } from "../config/roots.ts";
import { parseYamlMapping } from "../config/yaml.ts";
import type { ConfigMap } from "../config/_tree.ts";

/** One root as discovery sees it. */
export class RootView {
  private readonly yamlCache = new Map<string, ConfigMap | null>();
  /** `rootOptions`: the roots of the whole command, so resolving a config here searches all of them. */
  constructor(
    readonly root: Root,
    readonly rootOptions: RootOptions = {},
  ) {}

  /** Sub-directory names of `folder`. */
  dirs(folder: string): Promise<string[]> {
    return listDirsUnder(this.root, folder);
  }

  /** Files under `folder` (recursive, relative to it) ending with `suffix`. */
  files(folder: string, suffix = ".yaml"): Promise<string[]> {
    return listFilesUnder(this.root, folder, suffix);
  }

  async exists(rel: string): Promise<boolean> {
    if (this.root.kind === "dir") return existsSync(join(this.root.path, rel));
    if (builtinDir) return existsSync(join(builtinDir, rel));
    return (await readBuiltinFile(rel)) !== undefined;
  }

  async read(rel: string): Promise<string | undefined> {
    if (this.root.kind === "builtin") return readBuiltinFile(rel);
    const full = join(this.root.path, rel);
    return existsSync(full) ? decodeUtf8(readFileSync(full), full) : undefined;
  }

  /** The parsed YAML mapping of a file, or null when it is missing or malformed (discovery never fails on one file). */
  async yaml(rel: string): Promise<ConfigMap | null> {
    if (this.yamlCache.has(rel)) return this.yamlCache.get(rel)!;
    let parsed: ConfigMap | null = null;
    try {
      const text = await this.read(rel);
      if (text !== undefined) parsed = parseYamlMapping(text, this.shown(rel));
    } catch {
      parsed = null;
    }
    this.yamlCache.set(rel, parsed);
    return parsed;
  }

  /**
   * The path of `rel` as shown in listings and JSON: absolute with symlinks resolved; a built-in inside the
   * compiled binary has no file on disk and is shown as `<built-in>/<layout path>`.
   */
  shown(rel: string): string {
    const base = this.root.kind === "dir" ? this.root.path : builtinDir;
    if (base === undefined) return `${BUILTIN_PREFIX}${rel}`;
    const full = rel === "" ? base : join(base, rel);
    try {
      return realpathSync(full);
    } catch {
      return full;
    }
  }

  /** What to pass as a config path so the config system reads this exact file. */
  configPath(rel: string): string {
    return this.root.kind === "builtin" ? `${BUILTIN_PREFIX}${rel}` : join(this.root.path, rel);
  }
}
