/** Python numeric conversions that leak into rewards: float(str), repr(float), int(x), and their errors. */
import { PyException, pyStrRepr } from "./errors.ts";
import { pyStrip } from "./text.ts";
import { formatPyFloat } from "../../../metrics/pyjson.ts";

// Python accepts any Unicode decimal digit (category Nd) in float()/int(); map them to ASCII first.
const NON_ASCII_DIGIT = /\p{Nd}/gu;
const ND = /^\p{Nd}$/u;

function asciiDigits(s: string): string {
  if (!/[^\x00-\x7f]/.test(s)) return s;
  return s.replace(NON_ASCII_DIGIT, (d) => {
    // Nd characters come in runs of ten starting at a zero; find this run's zero.
    let cp = d.codePointAt(0)!;
    let zero = cp;
    while (ND.test(String.fromCodePoint(zero - 1))) zero--;
    return String((cp - zero) % 10);
  });
}

const FLOAT_LITERAL = /^[+-]?(?:(?:\d(?:_?\d)*)?\.?\d(?:_?\d)*(?:[eE][+-]?\d(?:_?\d)*)?|\d(?:_?\d)*\.(?:[eE][+-]?\d(?:_?\d)*)?)$/;
const FLOAT_SPECIAL = /^[+-]?(?:inf|infinity|nan)$/i;

/** float(s) for a str: undefined where Python raises ValueError. Accepts " 1e3 ", "1_000", "inf", "-NaN". */
export function pyParseFloat(s: string): number | undefined {
  const t = asciiDigits(pyStrip(s));
  if (FLOAT_SPECIAL.test(t)) {
    const neg = t.startsWith("-");
    if (/nan/i.test(t)) return NaN;
    return neg ? -Infinity : Infinity;
  }
  if (!FLOAT_LITERAL.test(t)) return undefined;
  return Number(t.replace(/_/g, ""));
}

/**
 * repr(float) / str(float): `formatPyFloat`'s digits and layout (shortest round-trip digits, exponent form below
 * 1e-4 and from 1e16, `inf`), but NaN is `nan` here where json.dumps writes `NaN`.
 */
export function pyFloatRepr(x: number): string {
  return Number.isNaN(x) ? "nan" : formatPyFloat(x);
}

const INT_LITERAL = /^[+-]?\d(?:_?\d)*$/;

/**
 * int(x) for a JSON value: floats truncate toward zero, bools are 0/1, numeric strings parse (no "12.5").
 * Throws PyException(TypeError | ValueError | OverflowError) where Python raises.
 */
export function pyInt(x: unknown): number {
  if (typeof x === "boolean") return x ? 1 : 0;
  if (typeof x === "number") {
    if (Number.isNaN(x)) throw new PyException("ValueError", "cannot convert float NaN to integer");
    if (!Number.isFinite(x)) throw new PyException("OverflowError", "cannot convert float infinity to integer");
    return Math.trunc(x) + 0;
  }
  if (typeof x === "string") {
    const t = asciiDigits(pyStrip(x));
    if (!INT_LITERAL.test(t)) throw new PyException("ValueError", `invalid literal for int() with base 10: ${pyStrRepr(x)}`);
    return Number(t.replace(/_/g, ""));
  }
  const typeName = x === null ? "NoneType" : Array.isArray(x) ? "list" : "dict";
  throw new PyException(
    "TypeError",
    `int() argument must be a string, a bytes-like object or a real number, not '${typeName}'`,
  );
}

/** int(s) for a str, exactly (any size): undefined where Python raises ValueError. Accepts " 12 ", "1_000", "٣". */
export function pyParseBigInt(s: string): bigint | undefined {
  const t = asciiDigits(pyStrip(s));
  return INT_LITERAL.test(t) ? BigInt(t.replace(/_/g, "")) : undefined;
}
