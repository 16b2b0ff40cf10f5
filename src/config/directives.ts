/** The `_inherit_from` / `${inherit_from:…}` / `_copy` / `${copy:…}` / `_delete_key` directives, applied once after merging. */
import { GymError } from "../errors.ts";
import { closeMatches } from "../text/difflib.ts";
import { cloneValue, deleteAt, formatPath, isMapping, MISSING, type ConfigMap, type ConfigPath, type ConfigValue } from "./_tree.ts";
import { mergeValues } from "./merge.ts";

const INHERIT = "_inherit_from";
const COPY = "_copy";
const DELETE = "_delete_key";
const MISSING_REF = Symbol("missing");

type Directive = { source: string; consume: boolean; keyForm: boolean } | undefined;

function directiveOf(node: ConfigValue): Directive {
  if (typeof node === "string") {
    const m = /^\$\{(inherit_from|copy):([\s\S]*)\}$/.exec(node);
    return m ? { source: m[2]!.trim(), consume: m[1] === "inherit_from", keyForm: false } : undefined;
  }
  if (isMapping(node)) {
    if (Object.hasOwn(node, INHERIT)) return { source: String(node[INHERIT]), consume: true, keyForm: true };
    if (Object.hasOwn(node, COPY)) return { source: String(node[COPY]), consume: false, keyForm: true };
  }
  return undefined;
}

/**
 * Applies the directives and returns a new tree. Sources are read from a snapshot taken before the pass,
 * so every inheritor of one source gets the same original. An inherited source is removed from the result
 * (that is how a benchmark consumes a generic instance); a copied one stays.
 *
 * Deliberate improvement over NeMo Gym 0.5.x: chains (C inherits B inherits A) are expanded in dependency
 * order, and cycles are reported, where 0.5.x leaves B's literal `_inherit_from` inside C.
 */
export function applyDirectives(tree: ConfigMap, originOf?: (path: ConfigPath) => string | undefined): ConfigMap {
  const snapshot = cloneValue(tree);
  const memo = new Map<string, ConfigValue | typeof MISSING_REF>();
  const inProgress: string[] = [];
  const consumed = new Map<string, ConfigPath>();

  const fail = (requester: ConfigPath, source: string, segments: string[], failedAt: number, parent: ConfigValue | undefined): never => {
    const origin = originOf?.(requester);
    const options = isMapping(parent) ? Object.keys(parent) : [];
    const [guess] = closeMatches(segments[failedAt]!, options, 1, 0.6);
    const near = guess ? ` Did you mean '${[...segments.slice(0, failedAt), guess].join(".")}'?` : "";
    throw new GymError(
      "E_CONFIG_INHERIT",
      `'${formatPath(requester)}'${origin ? ` (from ${origin})` : ""} inherits or copies '${source}', which does not exist in the merged config (path ${JSON.stringify(segments)}).${near}`,
      { hint: "Point _inherit_from / _copy at a dotted path from the top of the merged config, and check that the config defining it is in config_paths." },
    );
  };

  const expandedAt = (source: string, requester: ConfigPath): ConfigValue | typeof MISSING_REF => {
    if (memo.has(source)) return memo.get(source)!;
    if (inProgress.includes(source)) {
      throw new GymError("E_CONFIG_INHERIT", `Inheritance cycle: ${[...inProgress, source].join(" -> ")}.`, {
        hint: "Each _inherit_from / _copy must eventually reach a block that inherits from nothing.",
      });
    }
    const segments = source.split(".");
    let current: ConfigValue = snapshot;
    const path: ConfigPath = [];
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i]!;
      const index: number | undefined = Array.isArray(current) && /^\d+$/.test(segment) ? Number(segment) : undefined;
      const has = index !== undefined ? index < (current as ConfigValue[]).length : isMapping(current) && Object.hasOwn(current, segment);
      if (!has) fail(requester, source, segments, i, current);
      let child: ConfigValue = index !== undefined ? (current as ConfigValue[])[index]! : (current as ConfigMap)[segment]!;
      path.push(index ?? segment);
      if (child === MISSING) return MISSING_REF;
      if (i < segments.length - 1 && directiveOf(child)) {
        const expanded = expandedAt(segments.slice(0, i + 1).join("."), requester);
        if (expanded === MISSING_REF) return MISSING_REF;
        child = expanded;
      }
      current = child;
    }
    inProgress.push(source);
    try {
      const result = expandNode(current, path);
      memo.set(source, result);
      return result;
    } finally {
      inProgress.pop();
    }
  };

  const expandNode = (node: ConfigValue, path: ConfigPath): ConfigValue => {
    if (Array.isArray(node)) return node.map((item, i) => expandNode(item, [...path, i]));
    // The root itself is never a directive (NeMo Gym only looks at the values inside mappings).
    const directive = path.length === 0 ? undefined : directiveOf(node);
    if (!isMapping(node)) {
      if (!directive) return node;
      if (directive.consume) consumed.set(directive.source, directive.source.split("."));
      const source = expandedAt(directive.source, path);
      return source === MISSING_REF ? MISSING : cloneValue(source);
    }
    const own: ConfigMap = { ...node };
    let lateDeletes: string[] = [];
    if (Object.hasOwn(own, DELETE)) {
      const keys = String(own[DELETE]).split(",").map((k) => k.trim()).filter(Boolean);
      delete own[DELETE];
      // Keys already here go before the merge; keys that only arrive with the inherited value go after.
      for (const key of keys) if (Object.hasOwn(own, key)) delete own[key];
      lateDeletes = keys.filter((key) => !Object.hasOwn(node, key));
    }
    if (directive) delete own[directive.keyForm && Object.hasOwn(own, INHERIT) ? INHERIT : COPY];
    const children: ConfigMap = {};
    for (const [key, value] of Object.entries(own)) children[key] = expandNode(value, [...path, key]);
    if (!directive) return children;
    if (directive.consume) consumed.set(directive.source, directive.source.split("."));
    const source = expandedAt(directive.source, path);
    if (source === MISSING_REF) return MISSING;
    const merged = mergeValues(source, children);
    for (const key of lateDeletes) {
      if (!isMapping(merged) || !Object.hasOwn(merged, key)) {
        throw new GymError("E_CONFIG_INHERIT", `'${formatPath(path)}' has _delete_key '${key}', but neither it nor '${directive.source}' has that key.`, {
          hint: `Remove '${key}' from _delete_key, or check its spelling.`,
        });
      }
      delete merged[key];
    }
    return merged;
  };

  const result = expandNode(snapshot, []) as ConfigMap;
  for (const path of consumed.values()) deleteAt(result, path.map((s) => (/^\d+$/.test(s as string) ? Number(s) : s)));
  return result;
}
