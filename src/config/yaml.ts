/** YAML in and out, read the way OmegaConf reads it (YAML 1.1 as PyYAML resolves it, no timestamps) and printed block-style. */
import YAML, { type ParseOptions, type SchemaOptions, type DocumentOptions, type ToJSOptions } from "yaml";
import { preparsedBuiltinYaml } from "./builtin-files.ts";
import { GymError } from "../errors.ts";
import { refuseNul } from "../text/utf8.ts";
import { isMapping, type ConfigMap, type ConfigValue } from "./_tree.ts";

const BOOL_TAG = "tag:yaml.org,2002:bool";
/** How built-in files are named in messages (roots.ts's BUILTIN_PREFIX; repeated here to keep yaml.ts free of roots). */
const BUILTIN_DISPLAY = "<built-in>/";
// PyYAML's YAML 1.1 booleans: yes/no/on/off/true/false, but not y/n (the yaml package's 1.1 schema adds those).
const PY_TRUE = /^(?:[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/;
const PY_FALSE = /^(?:[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/;

type Tags = NonNullable<Exclude<SchemaOptions["customTags"], (...a: never[]) => unknown>>;

function pythonBooleans(tags: Tags): Tags {
  return tags.map((tag) => {
    const t = tag as { tag?: string; identify?: (v: unknown) => boolean };
    if (t.tag !== BOOL_TAG) return tag;
    return { ...(tag as object), test: t.identify?.(true) ? PY_TRUE : PY_FALSE } as typeof tag;
  });
}

const readOptions: ParseOptions & DocumentOptions & SchemaOptions & ToJSOptions = {
  version: "1.1",
  uniqueKeys: true,
  merge: true,
  // Bounded, so a "billion laughs" document fails at once instead of filling memory (the package's default is 100).
  maxAliasCount: 1000,
  // OmegaConf drops PyYAML's timestamp resolver, so `2024-01-01` stays a string.
  customTags: (tags) => pythonBooleans(tags.filter((tag) => !String((tag as { tag?: string }).tag ?? "").endsWith(":timestamp"))),
};

/** Parses one config file's text. Empty files give `{}`; syntax errors name the file, line and column. */
export function parseYaml(text: string, file: string): ConfigValue {
  if (file.startsWith(BUILTIN_DISPLAY)) {
    const preparsed = preparsedBuiltinYaml(file.slice(BUILTIN_DISPLAY.length));
    if (preparsed !== undefined) return preparsed as ConfigValue;
  }
  refuseNul(text, file);
  let value: unknown;
  try {
    value = YAML.parse(text, readOptions);
  } catch (error) {
    const e = error as { linePos?: { line: number; col: number }[]; message?: string; code?: string };
    const pos = e.linePos?.[0];
    const problem = (e.message ?? String(error)).split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
    throw new GymError("E_CONFIG_SYNTAX", `Malformed YAML in '${file}'${pos ? ` at line ${pos.line}, column ${pos.col}` : ""}: ${problem}`, {
      hint: /alias/i.test(problem)
        ? "The document expands its aliases (*name) into too many nodes; write the repeated values out, or use fewer nested aliases."
        : "Fix the YAML at that position (indentation, an unclosed bracket or quote, a duplicated key).",
    });
  }
  return normalize(value ?? {});
}

/** Parses a config file that must hold a mapping at the top (every Gym config and env.yaml). */
export function parseYamlMapping(text: string, file: string): ConfigMap {
  const value = parseYaml(text, file);
  if (!isMapping(value)) {
    throw new GymError("E_CONFIG", `'${file}' must hold a mapping of keys at the top level, but holds a ${Array.isArray(value) ? "list" : typeof value}.`, {
      hint: "A Gym config is a YAML mapping, e.g. `my_server:\\n  resources_servers: ...`.",
    });
  }
  return value;
}

function normalize(value: unknown): ConfigValue {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(normalize);
  if (value instanceof Map) {
    const out: ConfigMap = {};
    for (const [k, v] of value) out[String(k)] = normalize(v);
    return out;
  }
  if (value instanceof Set) return [...value].map(normalize);
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "object") {
    const out: ConfigMap = {};
    for (const [k, v] of Object.entries(value as object)) out[k] = normalize(v);
    return out;
  }
  return value as ConfigValue;
}

/**
 * Prints a tree as block YAML the way `OmegaConf.to_yaml` lays it out (lists not indented under their key,
 * no line folding). Strings that YAML 1.1 would read as something else (`yes`, `1_000`, `2024-01-01`) are quoted.
 */
export function toYaml(tree: ConfigValue): string {
  if (isMapping(tree) && Object.keys(tree).length === 0) return "{}\n";
  return YAML.stringify(tree, { version: "1.1", customTags: pythonBooleans, indentSeq: false, lineWidth: 0, minContentWidth: 0, aliasDuplicateObjects: false });
}
