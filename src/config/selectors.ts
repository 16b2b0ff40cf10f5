/** Asset selectors (`--benchmark`, `--environment`, `--resources-server`, `--model-type`, `--agent-type`) → config files. */
import { GymError } from "../errors.ts";
import { closeMatches } from "../text/difflib.ts";
import { overlayBase } from "./overlays.ts";
import { displayUnder, hasDirUnder, listDirsUnder, listFilesUnder, readUnder, type Root } from "./roots.ts";
import type { ConfigValue } from "./_tree.ts";
import { parseYaml } from "./yaml.ts";

export type SelectorKind = "benchmark" | "environment" | "resources-server" | "model-type" | "agent-type";

const ASSETS: Record<SelectorKind, { parent: string; subdir: string; defaultFlavor?: string }> = {
  benchmark: { parent: "benchmarks", subdir: "", defaultFlavor: "config" },
  environment: { parent: "environments", subdir: "", defaultFlavor: "config" },
  "resources-server": { parent: "resources_servers", subdir: "configs" },
  "model-type": { parent: "responses_api_models", subdir: "configs" },
  "agent-type": { parent: "responses_api_agents", subdir: "configs" },
};

export const SELECTOR_KINDS = Object.keys(ASSETS) as SelectorKind[];

async function firstMatch(roots: Root[], rel: string, flag: string, value: string, warnings: string[]): Promise<string | undefined> {
  const matches: string[] = [];
  for (const root of roots) {
    if (await readUnder(root, rel)) {
      const shown = displayUnder(root, rel);
      if (!matches.includes(shown)) matches.push(shown);
    }
  }
  if (matches.length > 1) {
    warnings.push(`\`--${flag} ${value}\` matches multiple configs; using \`${matches[0]}\` from the highest-priority root and ignoring ${matches.slice(1).map((m) => `\`${m}\``).join(", ")}. Pass \`--config <path>\` to select a different one.`);
  }
  return matches[0];
}

/** The benchmark names a user can pass: the path under benchmarks/ without `.yaml` and without a last `/config`. */
async function benchmarkNames(roots: Root[]): Promise<string[]> {
  const names = new Set<string>();
  for (const root of roots) {
    for (const file of await listFilesUnder(root, "benchmarks")) {
      // `x/config.yaml` is `x`, and a nested `x/y/config.yaml` is `x/y` (the nested selector form finds it).
      names.add(file.replace(/\.yaml$/, "").replace(/\/config$/, ""));
    }
  }
  return [...names].sort();
}

/**
 * Maps `NAME` or `NAME/FLAVOR` to its config file. The highest-priority root wins (a warning in `warnings`
 * lists shadowed copies). Returns an absolute path, or `<built-in>/…` for a built-in. When nothing matches,
 * throws a usage error (exit 2) with a did-you-mean and the directories searched.
 */
export async function selectorPath(kind: SelectorKind, value: string, roots: Root[], warnings: string[] = []): Promise<string> {
  const { parent, subdir, defaultFlavor } = ASSETS[kind];
  const slash = value.indexOf("/");
  const name = slash < 0 ? value : value.slice(0, slash);
  const flavor = (slash < 0 ? "" : value.slice(slash + 1)) || defaultFlavor || name;
  const configDir = subdir ? `${parent}/${name}/${subdir}` : `${parent}/${name}`;
  const rel = `${configDir}/${flavor}.yaml`;
  if (slash >= 0 && (kind === "benchmark" || kind === "environment")) {
    // A nested entry (`livecodebench/v5_2408_2502/config.yaml`) wins over a flat flavor file of the same name.
    const nested = await firstMatch(roots, `${parent}/${value}/config.yaml`, kind, value, warnings);
    if (nested) return nested;
  }
  const found = await firstMatch(roots, rel, kind, value, warnings);
  if (found) return found;

  let hint = "";
  let searchedDirs: string[];
  if (kind === "benchmark") {
    const names = await benchmarkNames(roots);
    const under = names.filter((n) => n.startsWith(`${value}/`)).sort((a, b) => a.length - b.length);
    const [guess] = under.length > 0 ? [under[0]] : closeMatches(value, names, 1, 0.6);
    hint = guess ? ` Did you mean \`${guess}\`?` : "";
    searchedDirs = await dirsThatExist(roots, parent);
  } else {
    let candidates: string[] = [];
    for (const root of roots) candidates.push(...(await listFilesUnder(root, configDir)).filter((f) => !f.includes("/")).map((f) => f.replace(/\.yaml$/, "")));
    let typo = flavor;
    searchedDirs = await dirsThatExist(roots, configDir);
    if (candidates.length === 0) {
      typo = name;
      for (const root of roots) candidates.push(...(await listDirsUnder(root, parent)));
      searchedDirs = await dirsThatExist(roots, parent);
    }
    const [guess] = closeMatches(typo, [...new Set(candidates)], 1, 0.6);
    hint = guess ? ` Did you mean \`${guess}\`?` : "";
  }
  // NeMo Gym's names are only needed once a selector has failed: not loaded by every command that reads a config.
  const { nemoGymOnly } = await import("./nemo-gym-shipped.ts");
  const upstream = nemoGymOnly(kind, value) ?? (slash >= 0 ? undefined : nemoGymOnly(kind, name));
  if (upstream) {
    throw new GymError("E_USAGE", `\`--${kind} ${value}\`: ${upstream}${hint}`, {
      hint: `Run it with NeMo Gym itself, or add its config under a --search-dir root; \`gym list ${kind === "resources-server" ? "resources-servers" : kind === "agent-type" ? "agents" : kind === "model-type" ? "models" : `${kind}s`}\` shows what this build ships.`,
    });
  }
  throw new GymError("E_USAGE", `\`--${kind} ${value}\` was specified which implies config \`${rel}\`, which does not exist.${hint}`, {
    hint: searchedDirs.length > 0 ? `See available ${kind} configs in ${searchedDirs.map((d) => `\`${d}\``).join(", ")}.` : `No root has a ${parent}/ folder; add one with --search-dir DIR.`,
  });
}

/**
 * The config files a selector loads, in order: its own file, preceded by its base when the file is an overlay (server
 * blocks without an `entrypoint`, see overlays.ts) — `--resources-server math_with_judge/math_with_local_judge` loads
 * `math_with_judge.yaml` then `math_with_local_judge.yaml`, as NeMo Gym composes them in `config_paths`.
 */
export async function selectorPaths(kind: SelectorKind, value: string, roots: Root[], warnings: string[] = []): Promise<string[]> {
  const path = await selectorPath(kind, value, roots, warnings);
  const { parent, subdir } = ASSETS[kind];
  if (!subdir || !value.includes("/")) return [path];
  const name = value.slice(0, value.indexOf("/"));
  const configDir = `${parent}/${name}/${subdir}`;
  for (const root of roots) {
    if (displayUnder(root, `${configDir}/${value.slice(name.length + 1)}.yaml`) !== path) continue;
    const own = await readUnder(root, `${configDir}/${value.slice(name.length + 1)}.yaml`);
    let tree;
    try {
      tree = parseYaml(own!.text, path);
    } catch {
      return [path]; // the loader reports the syntax error with its line
    }
    const siblings: [string, ConfigValue | null][] = [];
    for (const file of await listFilesUnder(root, configDir)) {
      if (file.includes("/") || file === `${value.slice(name.length + 1)}.yaml`) continue;
      const found = await readUnder(root, `${configDir}/${file}`);
      if (!found) continue;
      try {
        siblings.push([file, parseYaml(found.text, found.display)]);
      } catch {
        // a sibling that does not parse cannot be a base
      }
    }
    const base = overlayBase(tree, siblings, `${name}.yaml`);
    return base ? [displayUnder(root, `${configDir}/${base}`), path] : [path];
  }
  return [path];
}

async function dirsThatExist(roots: Root[], folder: string): Promise<string[]> {
  const out: string[] = [];
  for (const root of roots) if (await hasDirUnder(root, folder)) out.push(displayUnder(root, folder));
  return out;
}
