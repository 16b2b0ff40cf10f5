/** Declared fields of a resources server's request/config models, checked with pydantic's lax rules and FastAPI's 422 entries. */
import type { FastApiErrorEntry } from "../../protocol/verify.ts";
import type { JsonObject } from "../../protocol/responses.ts";

type Loc = (string | number)[];
export type JsonSchema = Record<string, unknown>;
type Check = (value: unknown, loc: Loc, issues: FastApiErrorEntry[]) => unknown;

/** One declared field: how to check/coerce it, and what a missing value becomes. */
export interface Field {
  readonly check: Check;
  /** The field as JSON Schema (what `gym env schema` prints for a task row). */
  readonly schema: JsonSchema;
  /** Present when the field may be missing; called to make the default (like `default_factory`). */
  readonly fallback?: () => unknown;
}

/** A pydantic model: declared fields in order; `extra: "allow"` keeps undeclared keys after them. */
export interface ModelSpec {
  fields: Record<string, Field>;
  extra?: "ignore" | "allow";
}

function issue(issues: FastApiErrorEntry[], type: string, loc: Loc, msg: string, input: unknown, ctx?: Record<string, unknown>): undefined {
  issues.push(ctx ? { type, loc, msg, input, ctx } : { type, loc, msg, input });
  return undefined;
}

const isObject = (x: unknown): x is JsonObject => x !== null && typeof x === "object" && !Array.isArray(x);

const TRUE_WORDS = new Set(["1", "on", "t", "true", "y", "yes"]);
const FALSE_WORDS = new Set(["0", "off", "f", "false", "n", "no"]);

/** Field constructors; each mirrors a pydantic annotation in lax mode. */
export const py = {
  str(): Field {
    return { schema: { type: "string" }, check: (x, loc, out) => (typeof x === "string" ? x : issue(out, "string_type", loc, "Input should be a valid string", x)) };
  },
  /** `int`: ints, floats without a fraction, bools and integer strings are accepted. */
  int(): Field {
    return {
      schema: { type: "integer" },
      check: (x, loc, out) => {
        if (typeof x === "boolean") return x ? 1 : 0;
        if (typeof x === "number") {
          if (Number.isInteger(x)) return x;
          if (!Number.isFinite(x)) return issue(out, "finite_number", loc, "Input should be a finite number", x);
          return issue(out, "int_from_float", loc, "Input should be a valid integer, got a number with a fractional part", x);
        }
        if (typeof x === "string") {
          const t = x.trim();
          if (/^[+-]?\d+(_\d+)*$/.test(t)) return Number(t.replace(/_/g, ""));
          return issue(out, "int_parsing", loc, "Input should be a valid integer, unable to parse string as an integer", x);
        }
        return issue(out, "int_type", loc, "Input should be a valid integer", x);
      },
    };
  },
  /** `float`: numbers, bools and numeric strings. */
  float(): Field {
    return {
      schema: { type: "number" },
      check: (x, loc, out) => {
        if (typeof x === "number") return x;
        if (typeof x === "boolean") return x ? 1 : 0;
        if (typeof x === "string") {
          const t = x.trim();
          const n = t === "" ? NaN : Number(t);
          if (!Number.isNaN(n) || /^[+-]?nan$/i.test(t)) return n;
          return issue(out, "float_parsing", loc, "Input should be a valid number, unable to parse string as a number", x);
        }
        return issue(out, "float_type", loc, "Input should be a valid number", x);
      },
    };
  },
  /** `bool`: booleans, 0/1 and the usual words ("yes", "off", …). */
  bool(): Field {
    return {
      schema: { type: "boolean" },
      check: (x, loc, out) => {
        if (typeof x === "boolean") return x;
        if (x === 0 || x === 1) return x === 1;
        if (typeof x === "string") {
          const t = x.trim().toLowerCase();
          if (TRUE_WORDS.has(t)) return true;
          if (FALSE_WORDS.has(t)) return false;
          return issue(out, "bool_parsing", loc, "Input should be a valid boolean, unable to interpret input", x);
        }
        if (typeof x === "number") return issue(out, "bool_parsing", loc, "Input should be a valid boolean, unable to interpret input", x);
        return issue(out, "bool_type", loc, "Input should be a valid boolean", x);
      },
    };
  },
  /** `Literal["a", "b"]` (strings only here). */
  literal(values: readonly string[]): Field {
    const quoted = values.map((s) => `'${s}'`);
    const expected = quoted.length > 1 ? `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}` : quoted[0]!;
    return {
      schema: { type: "string", enum: [...values] },
      check: (x, loc, out) =>
        typeof x === "string" && values.includes(x)
          ? x
          : issue(out, "literal_error", loc, `Input should be ${expected}`, x, { expected }),
    };
  },
  /** `list[item]`. */
  list(item: Field): Field {
    return {
      schema: { type: "array", items: item.schema },
      check: (x, loc, out) => {
        if (!Array.isArray(x)) return issue(out, "list_type", loc, "Input should be a valid list", x);
        const before = out.length;
        const value = x.map((el, i) => item.check(el, [...loc, i], out));
        return out.length === before ? value : undefined;
      },
    };
  },
  /** `dict[str, Any]` (values unchecked). */
  dict(): Field {
    return { schema: { type: "object" }, check: (x, loc, out) => (isObject(x) ? x : issue(out, "dict_type", loc, "Input should be a valid dictionary", x)) };
  },
  /** `dict[str, value]`: every value checked. */
  dictOf(item: Field): Field {
    return {
      schema: { type: "object", additionalProperties: item.schema },
      check: (x, loc, out) => {
        if (!isObject(x)) return issue(out, "dict_type", loc, "Input should be a valid dictionary", x);
        const before = out.length;
        const value: JsonObject = {};
        for (const key in x) value[key] = item.check(x[key], [...loc, key], out);
        return out.length === before ? value : undefined;
      },
    };
  },
  /** `Any`. */
  any(): Field {
    return { schema: {}, check: (x) => x };
  },
  /** `Optional[inner] = default`: null is accepted, a missing key takes the default. */
  optional(inner: Field, fallback: () => unknown = () => null): Field {
    return { schema: { anyOf: [inner.schema, { type: "null" }], default: fallback() ?? null }, check: (x, loc, out) => (x === null ? null : inner.check(x, loc, out)), fallback };
  },
  /** `inner = default` (not nullable): a missing key takes the default. */
  withDefault(inner: Field, fallback: () => unknown): Field {
    return { schema: { ...inner.schema, default: fallback() }, check: inner.check, fallback };
  },
};

/**
 * Validates `body` against a model. `value` holds the declared fields in declaration order (defaults filled in,
 * as `model_dump()` writes them), then, with `extra: "allow"`, the undeclared keys in arrival order.
 */
export function validateModel(spec: ModelSpec, body: JsonObject, loc: Loc = ["body"]): { value: JsonObject; issues: FastApiErrorEntry[] } {
  const issues: FastApiErrorEntry[] = [];
  const value: JsonObject = {};
  for (const key in spec.fields) {
    const field = spec.fields[key]!;
    if (Object.hasOwn(body, key)) value[key] = field.check(body[key], [...loc, key], issues);
    else if (field.fallback) value[key] = field.fallback();
    else issues.push({ type: "missing", loc: [...loc, key], msg: "Field required", input: body });
  }
  if (spec.extra === "allow") for (const key in body) if (!Object.hasOwn(spec.fields, key)) value[key] = body[key];
  return { value, issues };
}

/** A model's fields as one JSON Schema object: declared properties in order, required where there is no default. */
export function modelJsonSchema(specs: (ModelSpec | undefined)[]): { type: "object"; properties: Record<string, JsonSchema>; required: string[]; additionalProperties: boolean } {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const spec of specs) {
    for (const [key, field] of Object.entries(spec?.fields ?? {})) {
      if (key in properties) continue;
      properties[key] = field.schema;
      if (!field.fallback) required.push(key);
    }
  }
  return { type: "object", properties, required, additionalProperties: true };
}
