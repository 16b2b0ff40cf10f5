/** `${…}` interpolation with OmegaConf's semantics: absolute and relative keys, oc.env / oc.select / oc.decode, typed results. */
import { GymError } from "../errors.ts";
import { formatPath, getAt, isMapping, MISSING, parseDottedPath, type ConfigMap, type ConfigPath, type ConfigValue } from "./_tree.ts";
import { parseOverrideValue, typePrimitive } from "./override-value.ts";

type Part = { text: string } | { interp: string };

/** Whether a string holds an (unescaped) interpolation. */
export function hasInterpolation(value: unknown): value is string {
  return typeof value === "string" && /(^|[^\\])\$\{/.test(value);
}

/** Splits a string into literal text and `${…}` bodies; `\${` is a literal `${`. An unclosed `${` gives `{ open: at }`. */
export function splitTemplate(value: string): Part[] | { open: number } {
  const parts: Part[] = [];
  let text = "";
  let i = 0;
  while (i < value.length) {
    if (value.startsWith("\\${", i)) {
      text += "${";
      i += 3;
      continue;
    }
    if (value.startsWith("${", i)) {
      const end = matchingBrace(value, i + 2);
      // OmegaConf's grammar refuses an interpolation that is never closed (GrammarParseError).
      if (end < 0) return { open: i };
      if (text) parts.push({ text });
      text = "";
      parts.push({ interp: value.slice(i + 2, end) });
      i = end + 1;
      continue;
    }
    text += value[i++];
  }
  if (text || parts.length === 0) parts.push({ text });
  return parts;
}

function matchingBrace(s: string, from: number): number {
  let depth = 1;
  let quote = "";
  for (let i = from; i < s.length; i++) {
    const ch = s[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = "";
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === "$" && s[i + 1] === "{") {
      depth++;
      i++;
    } else if (ch === "}" && --depth === 0) return i;
  }
  return -1;
}

/** Splits resolver arguments at top-level commas (not inside quotes, `${…}` or brackets). */
function splitArgs(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = "";
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === "{" || ch === "[") depth++;
    else if (ch === "}" || ch === "]") depth--;
    else if (ch === "," && depth === 0) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out;
}

/** Python's str() of a value, as OmegaConf uses when an interpolation sits inside a longer string. */
export function pyStr(value: ConfigValue): string {
  if (value === true) return "True";
  if (value === false) return "False";
  if (value === null) return "None";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : Number.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
  if (typeof value === "string") return value;
  return pyRepr(value);
}

function pyRepr(value: ConfigValue): string {
  if (typeof value === "string") return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (isMapping(value)) return `{${Object.entries(value).map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(", ")}}`;
  return pyStr(value);
}

/** An interpolation that could not be resolved: a key nothing defines, or an unset environment variable. */
export interface Unresolved {
  kind: "key" | "env";
  /** The missing key (absolute dotted path) or environment variable name. */
  name: string;
  /** Where the interpolation sits. */
  at: string;
}

export interface ResolveOptions {
  env?: Record<string, string | undefined>;
  /** Names the file a key path came from, for error messages. */
  originOf?: (path: ConfigPath) => string | undefined;
  /** When set, unresolved keys/variables are reported here (and resolve to "") instead of throwing. */
  collect?: Unresolved[];
}

/** Resolves interpolations against one tree. Values are resolved on demand and cached per path. */
export class Interpolator {
  private readonly env: Record<string, string | undefined>;
  private readonly stack: string[] = [];

  constructor(
    readonly root: ConfigMap,
    readonly options: ResolveOptions = {},
  ) {
    this.env = options.env ?? process.env;
  }

  /** A deep copy of the node at `path` with every interpolation resolved. */
  resolveAt(path: ConfigPath): ConfigValue {
    const node = getAt(this.root, path);
    if (node === undefined) throw new GymError("E_CONFIG_INTERPOLATION", `The config has no key '${formatPath(path)}'.`);
    return this.resolveNode(node, path);
  }

  /** Resolves a value that lives at `path` (the path decides what relative keys mean). */
  resolveNode(node: ConfigValue, path: ConfigPath): ConfigValue {
    if (Array.isArray(node)) return node.map((item, i) => this.resolveNode(item, [...path, i]));
    if (isMapping(node)) {
      const out: ConfigMap = {};
      for (const [key, value] of Object.entries(node)) out[key] = this.resolveNode(value, [...path, key]);
      return out;
    }
    if (typeof node === "string" && node.includes("${")) return this.resolveString(node, path);
    return node;
  }

  resolveString(value: string, path: ConfigPath): ConfigValue {
    // The value we start from is the first link of any cycle, so cycles print as `a -> b -> a`.
    const outermost = this.stack.length === 0;
    if (outermost) this.stack.push(formatPath(path));
    try {
      const parts = splitTemplate(value);
      if (!Array.isArray(parts)) {
        throw new GymError("E_CONFIG_INTERPOLATION", `Config value '${formatPath(path)}'${this.from(path)} has a '\${' that is never closed: ${JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)} (at character ${parts.open + 1}).`, {
          hint: "Close the interpolation with '}' (e.g. ${policy_base_url}), or write a literal ${ as \\${.",
        });
      }
      if (parts.length === 1 && "interp" in parts[0]!) return this.evaluate(parts[0].interp, path);
      return parts.map((part) => ("text" in part ? part.text : pyStr(this.evaluate(part.interp, path)))).join("");
    } finally {
      if (outermost) this.stack.pop();
    }
  }

  private evaluate(body: string, path: ConfigPath): ConfigValue {
    const resolver = /^\s*([A-Za-z_][\w.]*)\s*:([\s\S]*)$/.exec(body);
    if (resolver) return this.callResolver(resolver[1]!, resolver[2]!, path);
    const key = body.includes("${") ? pyStr(this.resolveString(body, path)) : body.trim();
    const target = this.keyPath(key, path);
    const node = getAt(this.root, target);
    if (node === undefined) return this.missingKey(key, target, path);
    if (node === MISSING) {
      throw new GymError("E_CONFIG_MANDATORY", `Config value '${formatPath(path)}'${this.from(path)} references '${formatPath(target)}', which is still '???' (unset).`, {
        hint: `Provide it on the command line (++${formatPath(target)}=<value>), in env.yaml, or in a config file.`,
      });
    }
    const id = formatPath(target);
    if (this.stack.includes(id)) {
      throw new GymError("E_CONFIG_INTERPOLATION", `Interpolation cycle: ${[...this.stack, id].join(" -> ")}.`, {
        hint: "Break the loop: one of these keys has to hold a value, not another interpolation.",
      });
    }
    this.stack.push(id);
    try {
      return this.resolveNode(node, target);
    } finally {
      this.stack.pop();
    }
  }

  /** `a.b`, `a[0]`, `.x` (sibling), `..x` (one level up) — relative to the mapping holding the value. */
  private keyPath(key: string, path: ConfigPath): ConfigPath {
    const dots = /^\.*/.exec(key)![0].length;
    if (dots === 0) return parseDottedPath(key);
    const base = path.slice(0, Math.max(0, path.length - dots));
    return [...base, ...parseDottedPath(key.slice(dots))];
  }

  private missingKey(key: string, target: ConfigPath, path: ConfigPath): ConfigValue {
    const name = formatPath(target);
    if (this.options.collect) {
      this.options.collect.push({ kind: "key", name, at: formatPath(path) });
      return "";
    }
    throw new GymError("E_CONFIG_INTERPOLATION", `Config value '${formatPath(path)}'${this.from(path)} references '${key}', which is not set after merging.`, {
      hint: `Provide it via a CLI override (++${name}=<value>), in env.yaml, or in a config you pass via --config.`,
    });
  }

  private from(path: ConfigPath): string {
    const origin = this.options.originOf?.(path);
    return origin ? ` (from ${origin})` : "";
  }

  private args(raw: string, path: ConfigPath): ConfigValue[] {
    if (raw.trim() === "") return [];
    return splitArgs(raw).map((arg) => {
      const text = arg.trim();
      if (/^(['"])[\s\S]*\1$/.test(text)) {
        const inner = text.slice(1, -1).replace(/\\(['"\\])/g, "$1");
        return inner.includes("${") ? pyStr(this.resolveString(inner, path)) : inner;
      }
      if (text.includes("${")) return this.resolveString(text, path);
      return text === "" ? "" : typePrimitive(text);
    });
  }

  private callResolver(name: string, rawArgs: string, path: ConfigPath): ConfigValue {
    // inherit_from / copy are directives handled before resolution; OmegaConf's resolvers for them return themselves.
    if (name === "inherit_from" || name === "copy") return `\${${name}:${rawArgs}}`;
    const args = this.args(rawArgs, path);
    switch (name) {
      case "oc.env": {
        const variable = String(args[0] ?? "");
        const value = this.env[variable];
        if (value !== undefined) return value;
        // OmegaConf returns a given default as a string (environment values are strings), except null.
        if (args.length > 1) return args[1] === null ? null : pyStr(args[1]!);
        if (this.options.collect) {
          this.options.collect.push({ kind: "env", name: variable, at: formatPath(path) });
          return "";
        }
        throw new GymError("E_CONFIG_INTERPOLATION", `Config value '${formatPath(path)}'${this.from(path)} reads environment variable '${variable}', which is not set.`, {
          hint: `Export ${variable}, or give a default: \${oc.env:${variable},<default>}.`,
        });
      }
      case "oc.select": {
        const key = String(args[0] ?? "");
        const target = this.keyPath(key, path);
        const node = getAt(this.root, target);
        if (node === undefined || node === MISSING) return args.length > 1 ? args[1]! : null;
        return this.resolveNode(node, target);
      }
      case "oc.decode": {
        const text = args[0];
        return typeof text === "string" ? parseOverrideValue(text, text) : (text ?? null);
      }
      case "oc.create":
        return args[0] ?? null;
      case "oc.dict.keys":
      case "oc.dict.values": {
        const source = typeof args[0] === "string" ? this.resolveNodeAtKey(args[0], path) : args[0];
        if (!isMapping(source)) throw new GymError("E_CONFIG_INTERPOLATION", `${name} in '${formatPath(path)}' needs a mapping.`);
        return name === "oc.dict.keys" ? Object.keys(source) : Object.values(source);
      }
      case "oc.deprecated":
        return this.resolveNodeAtKey(String(args[0] ?? ""), path);
      default:
        throw new GymError("E_CONFIG_INTERPOLATION", `Config value '${formatPath(path)}'${this.from(path)} uses an unknown resolver '${name}'.`, {
          hint: "Supported resolvers: oc.env, oc.select, oc.decode, oc.create, oc.dict.keys, oc.dict.values.",
        });
    }
  }

  private resolveNodeAtKey(key: string, path: ConfigPath): ConfigValue {
    return this.evaluate(key, path);
  }
}

/** Resolves every interpolation in a tree (what `gym env resolve` prints). */
export function resolveTree(tree: ConfigMap, options: ResolveOptions = {}): ConfigMap {
  return new Interpolator(tree, options).resolveNode(tree, []) as ConfigMap;
}
