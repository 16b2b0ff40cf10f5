/** Hydra-style override tokens (`+k=v`, `++k=v`, `k=v`, `~k`): parsing, and building the CLI layer of the config. */
import { GymError } from "../errors.ts";
import { closeMatches } from "../text/difflib.ts";
import { deleteAt, formatPath, getAt, isMapping, setAt, type ConfigMap, type ConfigPath, type ConfigValue } from "./_tree.ts";
import { mergeValues } from "./merge.ts";
import { parseOverrideValue } from "./override-value.ts";

/**
 * What each form means here (decided from spec §2.3 and its open question 3):
 * - `+key=value` adds a key; it fails only when an earlier command-line token already set that key.
 * - `++key=value` adds or replaces (a mapping value merges into a mapping already there).
 * - `key=value` replaces a key that the merged config files / env.yaml already define, and fails with a
 *   did-you-mean when they do not (NeMo Gym 0.5.x rejects every plain override; we give it Hydra's documented meaning).
 * - `~key` deletes a key from the merged config; `~key=value` only when it currently holds that value.
 */
export type OverrideKind = "add" | "force" | "set" | "delete";

export interface Override {
  kind: OverrideKind;
  token: string;
  key: string;
  path: ConfigPath;
  /** Absent for `~key` without a value. */
  value?: ConfigValue;
}

const SEGMENT = /^(?:[A-Za-z_$][\w$-]*|\d+)$/;

/** Parses one override token. Throws E_OVERRIDE naming the token and the fix. */
export function parseOverride(token: string): Override {
  const match = /^(\+\+|\+|~)?([^=]*)(?:=([\s\S]*))?$/.exec(token)!;
  const prefix = match[1] ?? "";
  const key = match[2]!.trim();
  const hasValue = match[3] !== undefined;
  const kind: OverrideKind = prefix === "++" ? "force" : prefix === "+" ? "add" : prefix === "~" ? "delete" : "set";
  if (!hasValue && kind !== "delete") {
    throw new GymError("E_OVERRIDE", `Override '${token}' has no '='.`, { hint: `Write it as ${prefix || "+"}${key}=<value>.` });
  }
  if (/[/@]/.test(key)) {
    throw new GymError("E_OVERRIDE", `Override '${token}' uses Hydra's config-group syntax (a/b@pkg), which Gym does not use.`, {
      hint: "Pass config files with --config <path> and set keys with +key=value.",
    });
  }
  const segments = key.split(".");
  if (key === "" || !segments.every((s) => SEGMENT.test(s))) {
    throw new GymError("E_OVERRIDE", `Override '${token}' has an invalid key '${key}'.`, {
      hint: "Keys are dotted names such as +responses_create_params.temperature=0.5.",
    });
  }
  if (segments[0] === "hydra") {
    throw new GymError("E_OVERRIDE", `Override '${token}' sets a 'hydra.*' key; those configure Hydra itself, which gym does not run.`, {
      hint: "Remove it; gym has no Hydra runtime options.",
    });
  }
  const path = segments.map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  const override: Override = { kind, token, key, path };
  if (hasValue) override.value = parseOverrideValue(match[3]!, token);
  return override;
}

/** The CLI layer: `+`/`++`/plain overrides laid into one tree, plus what must be applied after merging. */
export interface CliLayer {
  tree: ConfigMap;
  /** Plain `key=value` overrides: their keys must already exist below the CLI layer. */
  replacements: Override[];
  /** `~key` deletions, applied to the merged tree. */
  deletions: Override[];
}

/**
 * Builds the CLI layer from overrides in order. `flags` (values set by command flags such as --model) come
 * first, as NeMo Gym puts flag tokens in front of the user's; they act like `+key=value`.
 */
export function buildCliLayer(overrides: Override[]): CliLayer {
  const tree: ConfigMap = {};
  const layer: CliLayer = { tree, replacements: [], deletions: [] };
  for (const override of overrides) {
    if (override.kind === "delete") {
      layer.deletions.push(override);
      continue;
    }
    const existing = getAt(tree, override.path);
    if (override.kind === "add" && existing !== undefined) {
      throw new GymError("E_OVERRIDE", `Override '${override.token}' adds '${override.key}', but an earlier flag or override already set it.`, {
        hint: `Use ++${override.key}=… to replace the earlier value, or drop one of the two.`,
      });
    }
    if (override.kind === "set") layer.replacements.push(override);
    setAt(tree, override.path, mergeValues(existing, override.value!));
  }
  return layer;
}

/** Checks plain `key=value` overrides against the config below the CLI (files, env.yaml, seed). */
export function checkReplacements(replacements: Override[], below: ConfigMap): void {
  for (const override of replacements) {
    if (getAt(below, override.path) !== undefined) continue;
    throw new GymError("E_OVERRIDE", `Could not override '${override.key}': no config file or env.yaml defines it, and a plain key=value only replaces an existing key.`, {
      hint: `Use +${override.key}=… to add it${suggest(below, override.path)}.`,
    });
  }
}

/** Applies `~key` / `~key=value` deletions to the merged tree. */
export function applyDeletions(deletions: Override[], tree: ConfigMap): void {
  for (const override of deletions) {
    const current = getAt(tree, override.path);
    if (current === undefined) {
      throw new GymError("E_OVERRIDE", `Could not delete '${override.key}' (${override.token}): the merged config has no such key.`, {
        hint: `Check the key path${suggest(tree, override.path)}.`,
      });
    }
    if (override.value !== undefined && JSON.stringify(current) !== JSON.stringify(override.value)) {
      throw new GymError("E_OVERRIDE", `Could not delete '${override.key}': it holds ${JSON.stringify(current)}, not ${JSON.stringify(override.value)}.`, {
        hint: `Use ~${override.key} to delete it whatever it holds.`,
      });
    }
    deleteAt(tree, override.path);
  }
}

function suggest(tree: ConfigMap, path: ConfigPath): string {
  const parent = getAt(tree, path.slice(0, -1));
  if (!isMapping(parent)) return "";
  const [guess] = closeMatches(String(path[path.length - 1]), Object.keys(parent), 1, 0.6);
  return guess ? `; did you mean '${formatPath([...path.slice(0, -1), guess])}'?` : "";
}
