/**
 * The config system: NeMo Gym's Hydra/OmegaConf-style composition of YAML files, env.yaml and overrides.
 *
 * ```ts
 * import { resolveConfig, toYaml, maskSecrets, selectorPath, componentRoots } from "./index.ts";
 *
 * const config = await resolveConfig({
 *   configPaths: ["resources_servers/mcqa/configs/mcqa.yaml"],   // --config / selectors, in order
 *   overrides: ["++policy_base_url=http://127.0.0.1:8000/v1"],   // raw Hydra tokens
 *   flagValues: { policy_model_name: "m" },                        // from --model etc. (like +key=value)
 *   searchDirs: [], cwd: process.cwd(), mode: "run",               // "offline": ports -1, nothing probed
 * });
 * config.tree;              // merged tree, interpolations unresolved (hand it to child processes)
 * config.serverInstances;   // [{ name, serverType, implementation, block, config }] (config = resolved block)
 * config.warnings;          // print on stderr
 * toYaml(config.resolve({ masked: true }));   // what `gym env resolve` prints
 * await selectorPath("resources-server", "mcqa", componentRoots());  // → path for --resources-server mcqa
 * ```
 * CLI commands build these options from flags with `configOptions()` in src/cli/_args.ts.
 *
 * Decisions where NeMo Gym 0.5.x and the spec leave a choice (spec §7 open questions):
 * - `+k=v` adds (error only if an earlier CLI token set k), `++k=v` adds or replaces, plain `k=v` replaces a key
 *   that files/env.yaml define (error with did-you-mean otherwise), `~k` deletes from the merged tree.
 * - Secrets: the last word of a key decides (api_key, token, password, authorization, secret…), so
 *   `max_output_tokens` / `max_tokens` / `key_metrics` print in clear (0.5.x's substring rule hides them).
 * - `resolve` and `validate` run offline: a port not given is -1, nothing is probed, output is deterministic.
 * - Chained `_inherit_from` expands in dependency order and cycles are errors (0.5.x leaves the inner directive).
 * - Only the first env.yaml found is read, as in 0.5.x.
 * - Harness swap (§3.5, harness.ts): triggered by config content (an agent block leaving resources_server.name
 *   as `???`), so `--agent-type X` and `--config responses_api_agents/X/configs/X.yaml` are the same. Swapping
 *   in the type an instance already runs leaves that instance untouched. `compatible_agents` may sit on the
 *   resources server block or the agent instance. `num_repeats` keys naming a replaced instance are refused
 *   with the routing names, since they would otherwise fail later.
 */
export { MISSING, SERVER_TYPES, formatPath, getAt, isMapping, parseDottedPath } from "./_tree.ts";
export type { ConfigMap, ConfigPath, ConfigValue, ServerType } from "./_tree.ts";
export { noModelSeed } from "./_steps.ts";
export { checkDataset, normalizeDataset, DATASET_LICENSES, DATASET_TYPES, type Issue } from "./datasets.ts";
export { applyDirectives } from "./directives.ts";
export { ALLOW_UNSUPPORTED_PAIRING_ENV, checkRouting, composeHarness, swappedName, type HarnessSwap, type ReplacedInstance } from "./harness.ts";
export { Interpolator, resolveTree, hasInterpolation, type Unresolved } from "./interpolation.ts";
export { mergeValues, mergeAll } from "./merge.ts";
export { parseOverride, type Override } from "./overrides.ts";
export { parseOverrideValue } from "./override-value.ts";
export { BUILTIN_PREFIX, componentRoots, extraRootsValue, readFromRoots, resolveReadPath, type Root } from "./roots.ts";
export { MASK, isSecretKey, maskSecrets } from "./secrets.ts";
export { SELECTOR_KINDS, selectorPath, selectorPaths, type SelectorKind } from "./selectors.ts";
export { definedInstances, overlayBase, overriddenInstances } from "./overlays.ts";
export { DOMAINS, RESERVED_TOP_LEVEL_KEYS, asServerRef, findServerInstances, type ServerInstance } from "./servers.ts";
export { PLACEHOLDER, resolveConfig, type ResolveConfigOptions, type ResolvedConfig, type ResolvedServerInstance } from "./resolve.ts";
export { validateConfig, type ValidationReport } from "./validate.ts";
export { parseYaml, parseYamlMapping, toYaml } from "./yaml.ts";
