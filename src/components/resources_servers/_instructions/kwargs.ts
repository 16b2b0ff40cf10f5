/**
 * Instruction kwargs: each checker declares its parameters and their Python types; a row whose value has the
 * wrong type, an out-of-range value, or misses one upstream would replace by a random draw is a 422 naming
 * `kwargs[i].<name>` (upstream marks such an instruction failed, or scores it against a random parameter).
 */

export type ParamType = "int" | "number" | "str" | "strs" | "str_or_strs" | "any";

export interface ParamSpec {
  type: ParamType;
  /** Upstream draws a random value when missing (or falsy, with `falsyIsMissing`): we refuse instead. */
  required?: boolean;
  /** Python's `if not x:` test (0, "", [] count as missing). */
  falsyIsMissing?: boolean;
  /** Allowed string values. */
  oneOf?: readonly string[];
  /** Smallest allowed number (upstream's `< 0` → random). */
  min?: number;
}

/** A kwargs problem: the parameter name (or null for the whole kwargs object) and what was wrong. */
export class KwargsError extends Error {
  constructor(
    readonly param: string | null,
    message: string,
    readonly input: unknown,
  ) {
    super(message);
  }
}

export type Kwargs = Record<string, unknown>;

function typeOk(type: ParamType, value: unknown): boolean {
  switch (type) {
    case "int":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "str":
      return typeof value === "string";
    case "strs":
      return Array.isArray(value) && value.every((v) => typeof v === "string");
    case "str_or_strs":
      return typeof value === "string" || (Array.isArray(value) && value.every((v) => typeof v === "string"));
    case "any":
      return true;
  }
}

const TYPE_WORDS: Record<ParamType, string> = {
  int: "an integer",
  number: "a number",
  str: "a string",
  strs: "a list of strings",
  str_or_strs: "a string or a list of strings",
  any: "a value",
};

/**
 * The kwargs of one instruction with None values dropped (as NeMo Gym does), checked against `spec`.
 * Unknown keys are reported in `unknown` (upstream's build_description raises TypeError for them).
 */
export function checkKwargs(spec: Record<string, ParamSpec>, raw: unknown): { kwargs: Kwargs; unknown: string[] } {
  if (raw !== null && raw !== undefined && (typeof raw !== "object" || Array.isArray(raw))) {
    throw new KwargsError(null, "Input should be a valid dictionary or null", raw);
  }
  const kwargs: Kwargs = {};
  const unknown: string[] = [];
  for (const [key, value] of Object.entries((raw ?? {}) as Kwargs)) {
    if (value === null || value === undefined) continue;
    if (!Object.hasOwn(spec, key)) unknown.push(key);
    else kwargs[key] = value;
  }
  for (const [name, p] of Object.entries(spec)) {
    const value = kwargs[name];
    const missing = value === undefined || (p.falsyIsMissing && (value === 0 || value === "" || value === false || (Array.isArray(value) && value.length === 0)));
    if (missing) {
      if (p.required) throw new KwargsError(name, `Field required: upstream would draw a random ${name} (${TYPE_WORDS[p.type]})`, value ?? null);
      continue;
    }
    if (!typeOk(p.type, value)) throw new KwargsError(name, `Input should be ${TYPE_WORDS[p.type]}`, value);
    if (p.oneOf && !p.oneOf.includes(value as string)) {
      throw new KwargsError(name, `Input should be ${p.oneOf.map((s) => `'${s}'`).join(" or ")}`, value);
    }
    if (p.min !== undefined && (value as number) < p.min) {
      throw new KwargsError(name, `Input should be greater than or equal to ${p.min} (upstream would draw a random value)`, value);
    }
  }
  return { kwargs, unknown };
}

/** The comparison both IFEval and IFBench use: "less than" → <, "at least" → >=. */
export const RELATIONS = ["less than", "at least"] as const;

export function compare(actual: number, relation: unknown, threshold: number): boolean {
  return relation === "less than" ? actual < threshold : actual >= threshold;
}
