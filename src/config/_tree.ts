/** The config tree's value types and the small path helpers every config module shares. */

/** A config value: what YAML and Hydra overrides produce (mappings keep key order). */
export type ConfigValue = string | number | boolean | null | ConfigValue[] | ConfigMap;
export interface ConfigMap {
  [key: string]: ConfigValue;
}

/** OmegaConf's marker for a mandatory value that nothing has provided yet. */
export const MISSING = "???";

/** The three server types, in the order NeMo Gym's union tries them. */
export const SERVER_TYPES = ["responses_api_models", "resources_servers", "responses_api_agents"] as const;
export type ServerType = (typeof SERVER_TYPES)[number];

export function isMapping(value: unknown): value is ConfigMap {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Deep copy of a config value (mappings keep key order). */
export function cloneValue<T extends ConfigValue>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => cloneValue(item)) as T;
  if (isMapping(value)) {
    const out: ConfigMap = {};
    for (const [key, item] of Object.entries(value)) out[key] = cloneValue(item);
    return out as T;
  }
  return value;
}

/** A path into the tree: mapping keys and list indices. */
export type ConfigPath = (string | number)[];

/** `a.b[2].c` — the form NeMo Gym prints for key paths. */
export function formatPath(path: ConfigPath): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? segment : `.${segment}`;
  }
  return out;
}

/** The node at `path`, or undefined when any step is absent. */
export function getAt(tree: ConfigValue, path: ConfigPath): ConfigValue | undefined {
  let node: ConfigValue | undefined = tree;
  for (const segment of path) {
    if (Array.isArray(node)) {
      const index = typeof segment === "number" ? segment : /^\d+$/.test(segment) ? Number(segment) : NaN;
      node = Number.isInteger(index) ? node[index] : undefined;
    } else if (isMapping(node)) {
      node = Object.hasOwn(node, String(segment)) ? node[String(segment)] : undefined;
    } else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/** Sets the value at `path`, creating mappings on the way (a scalar in the way is replaced). */
export function setAt(tree: ConfigMap, path: ConfigPath, value: ConfigValue): void {
  let node: ConfigValue = tree;
  for (let i = 0; i < path.length - 1; i++) {
    const segment = path[i]!;
    let next: ConfigValue | undefined = Array.isArray(node) ? node[Number(segment)] : (node as ConfigMap)[String(segment)];
    if (!isMapping(next) && !Array.isArray(next)) {
      next = {};
      if (Array.isArray(node)) node[Number(segment)] = next;
      else (node as ConfigMap)[String(segment)] = next;
    }
    node = next;
  }
  const last = path[path.length - 1]!;
  if (Array.isArray(node)) node[Number(last)] = value;
  else (node as ConfigMap)[String(last)] = value;
}

/** Removes the value at `path`; returns whether something was there. */
export function deleteAt(tree: ConfigMap, path: ConfigPath): boolean {
  const parent = getAt(tree, path.slice(0, -1));
  const last = path[path.length - 1]!;
  if (isMapping(parent) && Object.hasOwn(parent, String(last))) {
    delete parent[String(last)];
    return true;
  }
  if (Array.isArray(parent) && Number(last) < parent.length) {
    parent.splice(Number(last), 1);
    return true;
  }
  return false;
}

/** Splits a dotted key (`a.b.0`, `a.b[0]`) into segments; digits become list indices. */
export function parseDottedPath(dotted: string): ConfigPath {
  const out: ConfigPath = [];
  for (const part of dotted.replace(/\[(\d+)\]/g, ".$1").split(".")) {
    if (part === "") continue;
    out.push(/^\d+$/.test(part) ? Number(part) : part);
  }
  return out;
}
