/** A small strict schema for the submit YAML: every mapping lists its keys, an unknown key is refused by its path. */
import { GymError } from "../errors.ts";
import { closeMatches } from "../text/difflib.ts";

export type Field =
  | { kind: "string"; nullable?: boolean; default?: string | null; required?: boolean }
  | { kind: "int"; min?: number; default?: number | null; nullable?: boolean }
  | { kind: "bool"; default?: boolean }
  | { kind: "enum"; values: string[]; required?: boolean }
  | { kind: "strings"; default?: string[] }
  | { kind: "stringMap"; default?: Record<string, string> }
  | { kind: "anyMap"; default?: Record<string, unknown> }
  | { kind: "object"; fields: Record<string, Field>; required?: boolean; nullable?: boolean }
  | { kind: "mapOf"; item: Field; required?: boolean; default?: Record<string, unknown> }
  | { kind: "union"; variants: Field[]; required?: boolean; default?: unknown; describe: string }
  | { kind: "tagged"; tag: string; variants: Record<string, Field> };

type Doc = Record<string, unknown>;

const isDoc = (v: unknown): v is Doc => typeof v === "object" && v !== null && !Array.isArray(v);

/** Thrown for one problem at one path (the caller names the file). */
export class SchemaIssue extends Error {
  constructor(readonly path: string, message: string, readonly hint: string) {
    super(message);
  }
}

/** Checks `value` against `field` and returns it with defaults filled in. Throws SchemaIssue at the first problem. */
export function check(field: Field, value: unknown, path: string): unknown {
  const shown = path || "(top level)";
  const expected = (what: string, hint = `Set ${shown} to ${what}.`) => new SchemaIssue(shown, `${shown}: expected ${what}, got ${describe(value)}`, hint);
  if (value === undefined || (value === null && field.kind !== "string" && field.kind !== "int" && !(field.kind === "object" && field.nullable))) {
    if ("required" in field && field.required) throw new SchemaIssue(shown, `${shown}: a required key is missing`, `Add ${shown} to the submit config.`);
    if ("default" in field) return structuredClone(field.default);
    if (field.kind === "object") return field.nullable ? null : check(field, {}, path);
    return undefined;
  }
  switch (field.kind) {
    case "string":
      if (value === null && field.nullable) return null;
      if (typeof value === "number" || typeof value === "boolean") return String(value);
      if (typeof value !== "string") throw expected("a string");
      return value;
    case "int":
      if (value === null && field.nullable) return null;
      if (typeof value !== "number" || !Number.isInteger(value)) throw expected("a whole number");
      if (field.min !== undefined && value < field.min) throw expected(`a whole number ≥ ${field.min}`);
      return value;
    case "bool":
      if (typeof value !== "boolean") throw expected("true or false");
      return value;
    case "enum":
      if (typeof value !== "string" || !field.values.includes(value)) throw expected(`one of ${field.values.join(", ")}`);
      return value;
    case "strings":
      if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) throw expected("a list of strings");
      return value;
    case "stringMap":
      if (!isDoc(value)) throw expected("a mapping of names to strings");
      for (const [k, v] of Object.entries(value)) {
        if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean") throw new SchemaIssue(`${path}.${k}`, `${path}.${k}: expected a string, got ${describe(v)}`, `Quote the value of ${path}.${k}.`);
      }
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
    case "anyMap":
      if (!isDoc(value)) throw expected("a mapping");
      return value;
    case "object": {
      if (value === null && field.nullable) return null;
      if (!isDoc(value)) throw expected("a mapping");
      const out: Doc = {};
      for (const key of Object.keys(value)) {
        if (!(key in field.fields)) throw unknownKey(path, key, Object.keys(field.fields));
      }
      for (const [key, sub] of Object.entries(field.fields)) {
        const checked = check(sub, value[key], join(path, key));
        if (checked !== undefined) out[key] = checked;
      }
      return out;
    }
    case "mapOf": {
      if (!isDoc(value)) throw expected("a mapping of names to entries");
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, check(field.item, v, join(path, k))]));
    }
    case "union": {
      for (const variant of field.variants) {
        try {
          return check(variant, value, path);
        } catch (error) {
          if (!(error instanceof SchemaIssue)) throw error;
          if (variant.kind === "object" && isDoc(value)) throw error;
        }
      }
      throw expected(field.describe);
    }
    case "tagged": {
      if (!isDoc(value)) throw expected("a mapping");
      const tag = value[field.tag];
      const names = Object.keys(field.variants);
      if (typeof tag !== "string" || !(tag in field.variants)) {
        throw new SchemaIssue(join(path, field.tag), `${join(path, field.tag)}: expected one of ${names.join(", ")}, got ${describe(tag)}`, `Set ${join(path, field.tag)} to ${names.join(" or ")}.`);
      }
      return check(field.variants[tag]!, value, path);
    }
  }
}

function unknownKey(path: string, key: string, allowed: string[]): SchemaIssue {
  const full = join(path, key);
  const close = closeMatches(key, allowed, 1);
  const hint = close.length > 0 ? `Did you mean ${join(path, close[0]!)}? Allowed here: ${allowed.join(", ")}.` : `Remove it; allowed here: ${allowed.join(", ")}.`;
  return new SchemaIssue(full, `${full}: unknown key '${key}'`, hint);
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  return `${typeof value} ${JSON.stringify(value)}`;
}

/** A schema problem as the user sees it: the file, the key path, the fix. */
export function issueError(file: string, issue: SchemaIssue): GymError {
  return new GymError("E_CONFIG", `${file}: ${issue.message}.`, { hint: issue.hint });
}
