/** Shared flag fragments for config-driven commands, and the one function that turns them into resolveConfig options. */
import type { ArgsDef } from "citty";
import type { ResolveConfigOptions, SelectorKind } from "../config/index.ts";
import { GymError } from "../errors.ts";
import { allValues } from "./_command.ts";

/** `--config` (repeatable), the asset selectors, `--search-dir` (repeatable). */
export const configArgs = {
  config: { type: "string", description: "Config file to merge (repeatable; later files win)", valueHint: "PATH" },
  benchmark: { type: "string", description: "Load benchmarks/NAME/config.yaml (NAME/FLAVOR for another file)", valueHint: "NAME" },
  environment: { type: "string", description: "Load environments/NAME/config.yaml (NAME/FLAVOR for another file)", valueHint: "NAME" },
  "resources-server": { type: "string", description: "Load resources_servers/NAME/configs/NAME.yaml (NAME/FLAVOR)", valueHint: "NAME" },
  "model-type": { type: "string", description: "Load responses_api_models/NAME/configs/NAME.yaml (NAME/FLAVOR)", valueHint: "NAME" },
  "agent-type": { type: "string", description: "Load responses_api_agents/NAME/configs/NAME.yaml (NAME/FLAVOR)", valueHint: "NAME" },
  "allow-unsupported-pairing": { type: "boolean", description: "Compose --agent-type onto environments that do not declare it compatible (or NEMO_GYM_ALLOW_UNSUPPORTED_PAIRING=1)" },
  "search-dir": { type: "string", description: "Extra root to search for components and configs (repeatable)", valueHint: "DIR" },
} as const satisfies ArgsDef;

/** `--model/-m`, `--model-url`, `--model-api-key` → policy_model_name / policy_base_url / policy_api_key. */
export const modelArgs = {
  model: { type: "string", alias: "m", description: "Model name (sets policy_model_name)", valueHint: "NAME" },
  "model-url": { type: "string", description: "OpenAI-compatible base URL (sets policy_base_url)", valueHint: "URL" },
  "model-api-key": { type: "string", description: "API key for the model endpoint (sets policy_api_key)", valueHint: "KEY" },
} as const satisfies ArgsDef;

/** `--json`: one JSON document on stdout instead of text. */
export const jsonArg = {
  json: { type: "boolean", description: "Print one JSON document on stdout" },
} as const satisfies ArgsDef;

const SELECTORS: SelectorKind[] = ["benchmark", "environment", "resources-server", "model-type", "agent-type"];
const MODEL_KEYS: [flag: string, key: string][] = [
  ["model", "policy_model_name"],
  ["model-url", "policy_base_url"],
  ["model-api-key", "policy_api_key"],
];

/** `--model-url` must be an http(s) URL: checked once here, not found out per rollout. */
function checkedUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {}
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) {
    const shown = value.replace(/\/\/[^/@\s]*@/, "//****@");
    throw new GymError("E_BAD_FLAG_VALUE", `--model-url expects an http(s) URL, got '${shown}'.`, { hint: "For example --model-url http://127.0.0.1:8000/v1 or https://api.openai.com/v1." });
  }
  return value;
}

/**
 * Builds resolveConfig options from a command's parsed flags, its raw flag tokens and its override tokens.
 * Config paths come in NeMo Gym's order: `--config` values, then the selectors (resolved to files), then any
 * `+config_paths=[…]` the user typed (folded in, as NeMo Gym folds every such token into one).
 * Flags the command does not declare are simply absent. `extra` is merged last (seed, mode, cwd…); its
 * `flagValues` are added to the model flags' (e.g. `{ verbose: true }` for -v, as NeMo Gym adds +verbose=true).
 */
export async function configOptions(
  args: Record<string, unknown>,
  rawArgs: string[],
  overrides: string[],
  extra: Partial<ResolveConfigOptions> = {},
): Promise<ResolveConfigOptions> {
  const { componentRoots, selectorPaths: pathsOf } = await import("../config/index.ts");
  const cwd = extra.cwd ?? process.cwd();
  const searchDirs = allValues(rawArgs, "search-dir");
  const roots = componentRoots({ searchDirs, cwd, env: extra.env });
  const warnings: string[] = [];
  const configPaths = allValues(rawArgs, "config");
  const selectorPaths: string[] = [];
  for (const kind of SELECTORS) {
    const value = args[kind] ?? args[kind.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())];
    if (typeof value === "string" && value !== "") selectorPaths.push(...(await pathsOf(kind, value, roots, warnings)));
  }
  configPaths.push(...selectorPaths);
  const rest: string[] = [];
  for (const token of overrides) {
    const folded = /^\+config_paths=\[(.*)\]$/.exec(token);
    if (folded) configPaths.push(...folded[1]!.split(",").map((p) => p.trim()).filter(Boolean));
    else rest.push(token);
  }
  const flagValues: Record<string, unknown> = {};
  for (const [flag, key] of MODEL_KEYS) {
    const value = args[flag] ?? args[flag.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())];
    if (typeof value === "string") flagValues[key] = flag === "model-url" ? checkedUrl(value) : value;
  }
  const allowUnsupportedPairing = args["allow-unsupported-pairing"] === true || args.allowUnsupportedPairing === true;
  return {
    configPaths,
    ...(selectorPaths.length > 0 ? { selectorPaths } : {}),
    overrides: rest,
    ...(allowUnsupportedPairing ? { allowUnsupportedPairing } : {}),
    searchDirs,
    cwd,
    ...extra,
    flagValues: { ...flagValues, ...(extra.flagValues ?? {}) } as ResolveConfigOptions["flagValues"],
    warnings: [...warnings, ...(extra.warnings ?? [])],
  };
}
