/** Loading config files: `config_paths` chaining (breadth-first load, post-order merge, first mention owns a file) and env.yaml. */
import { GymError } from "../errors.ts";
import { isMapping, type ConfigMap } from "./_tree.ts";
import { readFromRoots, readUnder, type Root } from "./roots.ts";
import { parseYamlMapping } from "./yaml.ts";

/** One loaded config file. */
export interface ConfigFile {
  /** The `config_paths` entry as written. */
  entry: string;
  /** Where it was read from (an absolute path, or `<built-in>/…`). */
  display: string;
  tree: ConfigMap;
}

export interface LoadedConfigPaths {
  /** Every entry in load order (breadth-first): what `config_paths` holds after parsing. */
  configPaths: string[];
  /** The files in merge order: each file after everything it pulled in; later siblings after earlier ones. */
  files: ConfigFile[];
  /** Entries mentioned again by a later file (each is loaded once, by its first mention). */
  duplicates: string[];
}

/** Checks that `config_paths` is a list of strings (a lone string is an error, as in NeMo Gym). */
export function checkConfigPathsValue(value: unknown, where: string): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value as string[];
  throw new GymError("E_CONFIG", `'config_paths' in ${where} must be a list of paths. Got: ${JSON.stringify(value)}.`, {
    hint: "Pass each config with --config (it builds the list for you), e.g. gym env resolve --config resources_servers/<env>/configs/<env>.yaml",
  });
}

/** Loads the given entries and everything they include through their own `config_paths`. */
export async function loadConfigPaths(entries: string[], roots: Root[], cwd?: string): Promise<LoadedConfigPaths> {
  const configPaths = [...entries];
  const children: number[][] = entries.map(() => []);
  const loaded: ConfigFile[] = [];
  const duplicates: string[] = [];
  // The list grows while we walk it: a breadth-first load where the first mention owns a path.
  for (let index = 0; index < configPaths.length; index++) {
    const entry = configPaths[index]!;
    const { found, searched } = await readFromRoots(entry, roots, cwd);
    if (!found) {
      throw new GymError("E_CONFIG_MISSING_FILE", `config_paths entry '${entry}' was not found. Looked in:\n${searched.map((s) => `  - ${s}`).join("\n")}`, {
        hint: "Check the spelling, and that the path is relative to your working directory, an extra root (NEMO_GYM_EXTRA_ROOTS / --search-dir), or the built-in components.",
      });
    }
    const tree = parseYamlMapping(found.text, found.display);
    // NeMo Gym merges an empty file as no keys; an empty config is almost always a write that failed or the wrong path.
    if (Object.keys(tree).length === 0) {
      throw new GymError("E_CONFIG", `Config file '${found.display}' is empty (no keys${found.text.trim() === "" ? "" : ": only comments"}), so it configures nothing.`, {
        hint: "Pass the config you meant (gym list resources-servers shows the built-in ones), or drop that --config / config_paths entry.",
      });
    }
    loaded.push({ entry, display: found.display, tree });
    for (const child of checkConfigPathsValue(tree.config_paths, `'${found.display}'`)) {
      if (configPaths.includes(child)) {
        duplicates.push(child);
        continue;
      }
      configPaths.push(child);
      children.push([]);
      children[index]!.push(configPaths.length - 1);
    }
  }
  const order: number[] = [];
  const visit = (index: number) => {
    for (const child of children[index]!) visit(child);
    order.push(index);
  };
  for (let root = 0; root < entries.length; root++) visit(root);
  return { configPaths, files: order.map((i) => loaded[i]!), duplicates };
}

/** The notice NeMo Gym prints when several files include the same config (we print it on stderr). */
export function duplicatesNotice(duplicates: string[]): string {
  return [
    "Found configs that reference the same source config path. Each is loaded once, by the first config that names it;",
    "if two servers need different settings, give each its own instance, e.g. '++my_server=${inherit_from:generic_server}'.",
    "Duplicate config paths:",
    ...duplicates.map((d) => `- ${d}`),
  ].join("\n");
}

/** Reads env.yaml from the first root that has one (only one file is ever read). */
export async function loadEnvYaml(roots: Root[]): Promise<ConfigFile | undefined> {
  for (const root of roots) {
    const found = await readUnder(root, "env.yaml");
    if (!found) continue;
    const tree = found.text.trim() === "" ? {} : parseYamlMapping(found.text, found.display);
    return { entry: "env.yaml", display: found.display, tree: isMapping(tree) ? tree : {} };
  }
  return undefined;
}
