/** The whole config parse (§1.7): overrides, env.yaml, config_paths, merge, directives, checks, defaults. */
import { GymError } from "../errors.ts";
import { cloneValue, parseDottedPath, setAt, type ConfigMap, type ConfigValue, type ServerType } from "./_tree.ts";
import { Origins } from "./_origins.ts";
import { shadowedConfigNotices } from "./shadowed.ts";
import { checkMandatory, foldDummyModels } from "./_steps.ts";
import { fillDefaults, type DefaultsOptions } from "./defaults.ts";
import { ALLOW_UNSUPPORTED_PAIRING_ENV, checkRouting, composeHarness, envSwitch, type HarnessSwap } from "./harness.ts";
import { applyDirectives } from "./directives.ts";
import { Interpolator, resolveTree, type Unresolved } from "./interpolation.ts";
import { checkConfigPathsValue, duplicatesNotice, loadConfigPaths, loadEnvYaml } from "./load.ts";
import { mergeAll, mergeValues } from "./merge.ts";
import { applyDeletions, buildCliLayer, checkReplacements, parseOverride, type Override } from "./overrides.ts";
import { componentRoots, type Root } from "./roots.ts";
import { maskSecrets } from "./secrets.ts";
import { checkReferences, findAlmostServers, findServerInstances, formatAlmostServer, looksLikeServer, type AlmostServer } from "./servers.ts";

/** What a value left undefined is set to when `placeholders` is on (`gym env validate`). */
export const PLACEHOLDER = "__unset_for_validate__";

export interface ResolveConfigOptions {
  /** Config files in the order given (`--config`, selectors); they become `config_paths`. */
  configPaths?: string[];
  /** Raw Hydra tokens: `+k=v`, `++k=v`, `k=v`, `~k`. */
  overrides?: string[];
  /** Values set by flags (`policy_model_name` from --model …), applied in front of `overrides` like `+key=value`. */
  flagValues?: Record<string, ConfigValue>;
  /** `--search-dir` values (in front of NEMO_GYM_EXTRA_ROOTS). */
  searchDirs?: string[];
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** A command's seed, below the CLI layer (e.g. `noModelSeed()`). */
  seed?: ConfigMap;
  /** `offline` (resolve, validate): missing ports become -1 and nothing is probed. Default `offline`. */
  mode?: "run" | "offline";
  /** Fill undefined interpolation targets and unset environment variables with PLACEHOLDER instead of failing. */
  placeholders?: boolean;
  /** Do not read env.yaml. */
  skipEnvYaml?: boolean;
  findPort?: DefaultsOptions["findPort"];
  /** `--allow-unsupported-pairing`: a harness swap the environment does not declare compatible only warns. */
  allowUnsupportedPairing?: boolean;
  /** The files the selectors (`--benchmark`, `--resources-server`, …) resolved to, as they appear in `configPaths`. */
  selectorPaths?: string[];
  /** Warnings gathered before the parse (e.g. a selector shadowing another root's file), passed through. */
  warnings?: string[];
  /**
   * Skip the server-reference check: `eval run --no-serve` collects against servers that already run (their
   * references were checked where they started), so its config may name a model it does not define.
   */
  skipReferenceCheck?: boolean;
}

/** A server instance of the resolved config. */
export interface ResolvedServerInstance {
  name: string;
  serverType: ServerType;
  implementation: string;
  /** The inner block as it sits in `tree` (interpolations unresolved, host/port filled). */
  block: ConfigMap;
  /** The same block with every interpolation resolved. */
  config: ConfigMap;
}

export interface ResolvedConfig {
  /** The merged tree, interpolations unresolved (what child processes receive). */
  tree: ConfigMap;
  /** `config_paths` after loading: every entry, in load order. */
  configPaths: string[];
  /** Files merged, in merge order (env.yaml last), as read: absolute paths or `<built-in>/…`. */
  files: string[];
  serverInstances: ResolvedServerInstance[];
  /** Blocks skipped because `error_on_almost_servers=false`. */
  almostServers: AlmostServer[];
  /** Things to tell the user on stderr. */
  warnings: string[];
  /** The harness swap (`--agent-type`, §3.5), when a harness config was composed onto environment agent instances. */
  harnessSwap?: HarnessSwap;
  /** Agent instances the swap renamed, old name → new name (empty without a swap): rows naming an old one are re-routed. */
  renamedAgents: Record<string, string>;
  /** Undefined values filled with PLACEHOLDER (only with `placeholders`). */
  placeholders: Unresolved[];
  roots: Root[];
  /** The file a key path came from. */
  originOf: (path: (string | number)[]) => string | undefined;
  /** The whole tree resolved; `masked` masks secrets first (what `gym env resolve` prints). */
  resolve(options?: { masked?: boolean }): ConfigMap;
}

/** Runs the config parse and returns the tree, its server instances and warnings. Errors are GymErrors. */
export async function resolveConfig(options: ResolveConfigOptions = {}): Promise<ResolvedConfig> {
  const cwd = options.cwd ?? process.cwd();
  let env: Record<string, string | undefined> = options.env ?? process.env;
  const roots = componentRoots({ searchDirs: options.searchDirs, cwd, env });
  const warnings: string[] = [...(options.warnings ?? [])];
  const origins = new Origins();

  // 1. The CLI layer, on top of the command's seed.
  const tokens: Override[] = [];
  if (options.configPaths?.length) tokens.push({ kind: "add", token: `+config_paths=[${options.configPaths.join(",")}]`, key: "config_paths", path: ["config_paths"], value: [...options.configPaths] });
  for (const [key, value] of Object.entries(options.flagValues ?? {})) tokens.push({ kind: "add", token: `+${key}=${String(value)}`, key, path: parseDottedPath(key), value });
  for (const token of options.overrides ?? []) tokens.push(parseOverride(token));
  const cli = buildCliLayer(tokens);
  const seed = options.seed ?? {};
  const seedAndCli = mergeValues(seed, cli.tree) as ConfigMap;

  // 2–4. env.yaml, then config_paths from env.yaml + CLI, then the files.
  const envYaml = options.skipEnvYaml ? undefined : await loadEnvYaml(roots);
  const envTree = envYaml?.tree ?? {};
  const early = mergeValues(envTree, seedAndCli) as ConfigMap;
  const rawPaths = early.config_paths === undefined ? undefined : new Interpolator(early, { env }).resolveNode(early.config_paths, ["config_paths"]);
  const entries = checkConfigPathsValue(rawPaths, envYaml && !Object.hasOwn(seedAndCli, "config_paths") ? `'${envYaml.display}'` : "the command line");
  const loaded = await loadConfigPaths(entries, roots, cwd);
  if (loaded.duplicates.length > 0) warnings.push(duplicatesNotice(loaded.duplicates));
  if (options.selectorPaths?.length) {
    const configFlags = (options.configPaths ?? []).slice(0, options.configPaths!.indexOf(options.selectorPaths[0]!));
    warnings.push(...shadowedConfigNotices(loaded.files, configFlags, options.selectorPaths));
  }

  // 5. Merge: files in merge order, env.yaml, then seed + CLI.
  for (const file of loaded.files) origins.record(file.tree, file.display);
  if (envYaml) origins.record(envTree, envYaml.display);
  origins.record(seed, "the command's defaults");
  origins.record(cli.tree, "the command line");
  const below = mergeAll([...loaded.files.map((f) => f.tree), envTree, seed]);
  checkReplacements(cli.replacements, below);
  let tree = mergeValues(below, cli.tree) as ConfigMap;
  refuseNulledServers(tree, loaded.files);
  applyDeletions(cli.deletions, tree);
  if (loaded.configPaths.length > 0) tree.config_paths = [...loaded.configPaths];

  // 7–9. Directives, the harness swap (before `???` is checked: the harness's own instance is dropped), the `???` check, dummy-model folding.
  tree = applyDirectives(tree, origins.of);
  const allowUnsupportedPairing = options.allowUnsupportedPairing || envSwitch(env[ALLOW_UNSUPPORTED_PAIRING_ENV]);
  const composed = composeHarness(tree, { allowUnsupportedPairing, onMove: (from, to) => origins.copy(from, to), originOf: origins.of });
  tree = composed.tree;
  warnings.push(...composed.warnings);
  const renamedAgents = composed.swap?.renamed ?? {};
  checkRouting(tree, renamedAgents);
  checkMandatory(tree, origins.of);
  foldDummyModels(tree);

  // 10. Almost-servers abort unless error_on_almost_servers=false.
  const almostServers = findAlmostServers(tree);
  if (almostServers.length > 0) {
    const report = almostServers.map(formatAlmostServer).join("\n");
    const errorOnAlmost = new Interpolator(tree, { env }).resolveNode(tree.error_on_almost_servers ?? true, ["error_on_almost_servers"]);
    if (errorOnAlmost !== false) {
      throw new GymError("E_CONFIG", `Found ${almostServers.length} almost-server(s) with validation errors.\n${report}`, {
        hint: "Fix the fields above, or set +error_on_almost_servers=false to skip those blocks with a warning.",
      });
    }
    warnings.push(report);
  }
  const instances = findServerInstances(tree);

  // Undefined interpolations: filled with placeholders (validate), or one error listing them all.
  const placeholders: Unresolved[] = [];
  const scan = (): Unresolved[] => {
    const found: Unresolved[] = [];
    const interpolator = new Interpolator(tree, { env, collect: found, originOf: origins.of });
    if (options.placeholders) interpolator.resolveNode(tree, []);
    else for (const i of instances) interpolator.resolveNode(i.block, [i.name, i.serverType, i.implementation]);
    return found;
  };
  const unresolved = scan();
  if (unresolved.length > 0 && !options.placeholders) {
    if (unresolved.length === 1) for (const i of instances) new Interpolator(tree, { env, originOf: origins.of }).resolveNode(i.block, [i.name, i.serverType, i.implementation]);
    throw undefinedError(unresolved, origins.of);
  }
  if (unresolved.length > 0) {
    env = { ...env };
    for (const item of unresolved) {
      if (placeholders.some((p) => p.kind === item.kind && p.name === item.name)) continue;
      placeholders.push(item);
      if (item.kind === "env") env[item.name] = PLACEHOLDER;
      else setAt(tree, parseDottedPath(item.name), PLACEHOLDER);
    }
  }

  // 11. References (on resolved top-level fields), then host/port and the reserved defaults.
  const interpolator = new Interpolator(tree, { env, originOf: origins.of });
  const resolveBlock = (i: { name: string; serverType: string; implementation: string; block: ConfigMap }) =>
    interpolator.resolveNode(i.block, [i.name, i.serverType, i.implementation]) as ConfigMap;
  if (!options.skipReferenceCheck) checkReferences(instances, resolveBlock, (name) => origins.of([name]));
  const read = (key: string) => (Object.hasOwn(tree, key) ? interpolator.resolveNode(tree[key]!, [key]) : undefined);
  await fillDefaults(tree, instances, { mode: options.mode ?? "offline", cwd, read, findPort: options.findPort });

  const final = new Interpolator(tree, { env, originOf: origins.of });
  return {
    tree,
    configPaths: loaded.configPaths,
    files: [...loaded.files.map((f) => f.display), ...(envYaml ? [envYaml.display] : [])],
    serverInstances: instances.map((i) => ({ ...i, config: final.resolveNode(i.block, [i.name, i.serverType, i.implementation]) as ConfigMap })),
    almostServers,
    warnings,
    harnessSwap: composed.swap,
    renamedAgents,
    placeholders,
    roots,
    originOf: origins.of,
    resolve: ({ masked = false } = {}) => resolveTree(masked ? maskSecrets(cloneValue(tree)) : tree, { env, originOf: origins.of }),
  };
}

function undefinedError(unresolved: Unresolved[], originOf: (path: (string | number)[]) => string | undefined): GymError {
  const lines = unresolved.map((u) => {
    const origin = originOf(parseDottedPath(u.at));
    const what = u.kind === "env" ? `environment variable '${u.name}'` : `'${u.name}'`;
    return `  - ${u.at}${origin ? ` (from ${origin})` : ""} references ${what}`;
  });
  const keys = [...new Set(unresolved.filter((u) => u.kind === "key").map((u) => u.name))];
  return new GymError("E_CONFIG_INTERPOLATION", `${unresolved.length} config value(s) reference something that is not set after merging:\n${lines.join("\n")}`, {
    hint: `Provide each via a CLI override, in env.yaml, or in a config you pass via --config${keys.length ? `, e.g. ${keys.slice(0, 3).map((k) => `++${k}=<value>`).join(" ")}` : ""}.`,
  });
}

/**
 * A later `~` (null) over a server block removes that server without a word (OmegaConf's merge sets null):
 * refused, naming the file that defines the block and the one that nulls it (a null on the command line is meant).
 */
function refuseNulledServers(tree: ConfigMap, layers: readonly { tree: ConfigMap; display: string }[]): void {
  for (const [key, value] of Object.entries(tree)) {
    if (value !== null) continue;
    const definer = layers.findIndex((l) => looksLikeServer(l.tree[key] ?? null));
    if (definer < 0) continue;
    const nuller = layers.findLastIndex((l) => Object.hasOwn(l.tree, key) && l.tree[key] === null);
    if (nuller < definer) continue;
    throw new GymError("E_CONFIG", `Server block '${key}' (defined in '${layers[definer]!.display}') is set to null (~) by '${layers[nuller]!.display}', which removes the server.`, {
      hint: `Delete '${key}: ~' to keep the server, or leave out the config that defines it.`,
    });
  }
}
