/** Python-typed JSON: parse keeping `1.0` apart from `1`, and print floats exactly as Python's repr / orjson do. */

/**
 * A Python float whose value is a whole number (`1.0`, `2e3`). JSON.parse would turn it into the
 * JS number 1, which then prints as `1` — but NeMo Gym's files print it as `1.0`, and pandas treats a
 * column holding it as float. Every other number keeps its JS form: a whole JS number is a Python int,
 * anything else a Python float.
 */
export class PyFloat {
  constructor(readonly value: number) {}
  valueOf(): number {
    return this.value;
  }
  toJSON(): number {
    return this.value;
  }
}

/** A Python number as the metrics see it: its value and whether Python holds it as an int. */
export interface PyNumber {
  value: number;
  isInt: boolean;
}

/** Classifies a parsed JSON value as Python would after `int(bool)`: bool → int, number, PyFloat; else undefined. */
export function pyNumber(value: unknown): PyNumber | undefined {
  if (typeof value === "number") return { value, isInt: Number.isInteger(value) };
  if (typeof value === "boolean") return { value: value ? 1 : 0, isInt: true };
  if (value instanceof PyFloat) return { value: value.value, isInt: false };
  if (typeof value === "bigint") return { value: Number(value), isInt: true };
  return undefined;
}

/** The numeric value of a JS number or PyFloat (others: undefined). Bools are not numbers here. */
export function numericValue(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (value instanceof PyFloat) return value.value;
  return undefined;
}

/** Wraps a computed Python float so that it prints as a float even when whole (`1.0`). */
export function pyFloat(x: number): number | PyFloat {
  return Number.isInteger(x) ? new PyFloat(x) : x;
}

// A whole-valued float token (`1.0`, `2.00`, `1.5e1`, `3E2`) can only exist where one of these matches.
// Integers past 2^53 (16+ digits) are revived as bigint so that ids and seeds print back unchanged.
const MAYBE_WHOLE_FLOAT = /[0-9]\.0*(?![0-9])|[0-9][eE]|[0-9]{16}/;

function revive(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value === "number" && Number.isInteger(value) && context?.source !== undefined) {
    if (/[.eE]/.test(context.source)) return new PyFloat(value);
    if (!Number.isSafeInteger(value)) return BigInt(context.source);
  }
  return value;
}

/** JSON.parse that keeps whole-valued floats as PyFloat (needs JSON.parse source access: Bun ≥ 1.1, Deno, V8 ≥ 11.4). */
export function parsePythonJson(text: string): unknown {
  if (!MAYBE_WHOLE_FLOAT.test(text)) return JSON.parse(text);
  return JSON.parse(text, revive as (this: unknown, key: string, value: unknown) => unknown);
}

/** Formats a float exactly like Python's `repr(float)` (and therefore `json.dumps`): `1.0`, `1e-05`, `1.5e+16`. */
export function formatPyFloat(x: number): string {
  // Between 1e-4 and 1e16 both languages print the same shortest digits positionally; Python adds ".0".
  const a = x < 0 ? -x : x;
  if (a >= 1e-4 && a < 1e16) return Number.isInteger(x) ? `${x}.0` : `${x}`;
  return formatPyFloatSlow(x);
}

/** The general case (exponents, zeros, non-finite): digits from toExponential, laid out as Python's repr. */
function formatPyFloatSlow(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "inf";
  if (x === -Infinity) return "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  // toExponential() with no argument gives the shortest round-trip digits, like Python's repr.
  const exp = x.toExponential();
  const ePos = exp.indexOf("e");
  const negative = exp.startsWith("-");
  const mantissa = exp.slice(negative ? 1 : 0, ePos);
  const digits = mantissa.replace(".", "");
  const e = Number(exp.slice(ePos + 1));
  const sign = negative ? "-" : "";
  if (e >= -4 && e < 16) {
    if (e >= 0) {
      const intPart = digits.length > e + 1 ? digits.slice(0, e + 1) : digits.padEnd(e + 1, "0");
      const frac = digits.length > e + 1 ? digits.slice(e + 1) : "0";
      return `${sign}${intPart}.${frac}`;
    }
    return `${sign}0.${"0".repeat(-e - 1)}${digits}`;
  }
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const ee = Math.abs(e) < 10 ? `0${Math.abs(e)}` : String(Math.abs(e));
  return `${sign}${m}e${e < 0 ? "-" : "+"}${ee}`;
}

export interface PyJsonOptions {
  /** Spaces per level (orjson OPT_INDENT_2 = 2, json.dump(indent=4) = 4); none = one line. */
  indent?: number;
  /** Python json.dumps default separators (", " and ": ") on one line, instead of orjson's compact ones. */
  spaced?: boolean;
  /** Escape non-ASCII as \uXXXX like json.dumps(ensure_ascii=True); orjson writes UTF-8. */
  ensureAscii?: boolean;
  /** Non-finite floats as Python's json.dumps writes them (`NaN`, `Infinity`, `-Infinity`) instead of orjson's `null`. */
  pythonNonFinite?: boolean;
}

const nonFinite = (x: number, o: PyJsonOptions) => (!o.pythonNonFinite ? "null" : Number.isNaN(x) ? "NaN" : x > 0 ? "Infinity" : "-Infinity");

/**
 * Serializes like orjson / Python json: a whole JS number is an int (`3`), a PyFloat or fractional
 * number is a float (`3.0`, `0.5`), non-finite floats become `null` (orjson's rule), keys keep their order.
 */
export function stringifyPython(value: unknown, options: PyJsonOptions = {}): string {
  const parts: string[] = [];
  write(value, 0, parts, options);
  return parts.join("");
}

function writeString(s: string, out: string[], ascii: boolean | undefined): void {
  const json = JSON.stringify(s);
  out.push(ascii ? json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) : json);
}

function write(value: unknown, depth: number, out: string[], o: PyJsonOptions): void {
  if (value === null || value === undefined) return void out.push("null");
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return void out.push(nonFinite(value, o));
    return void out.push(Number.isInteger(value) ? intText(value) : formatPyFloat(value));
  }
  if (value instanceof PyFloat) return void out.push(Number.isFinite(value.value) ? formatPyFloat(value.value) : nonFinite(value.value, o));
  if (typeof value === "string") return writeString(value, out, o.ensureAscii);
  if (typeof value === "boolean") return void out.push(value ? "true" : "false");
  if (typeof value === "bigint") return void out.push(value.toString());
  const nl = o.indent ? `\n${" ".repeat(o.indent * (depth + 1))}` : "";
  const close = o.indent ? `\n${" ".repeat(o.indent * depth)}` : "";
  const comma = o.indent ? "," : o.spaced ? ", " : ",";
  const colon = o.indent || o.spaced ? ": " : ":";
  if (Array.isArray(value)) {
    if (value.length === 0) return void out.push("[]");
    out.push("[");
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(comma);
      out.push(nl);
      write(value[i], depth + 1, out, o);
    }
    out.push(close, "]");
    return;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return void out.push("{}");
  out.push("{");
  entries.forEach(([k, v], i) => {
    if (i > 0) out.push(comma);
    out.push(nl);
    writeString(k, out, o.ensureAscii);
    out.push(colon);
    write(v, depth + 1, out, o);
  });
  out.push(close, "}");
}

/** Integers print in full (no exponent), as Python ints do. */
export function intText(n: number): string {
  return Math.abs(n) < 1e21 ? String(n) : BigInt(n).toString();
}
