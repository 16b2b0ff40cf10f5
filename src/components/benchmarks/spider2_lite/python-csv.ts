/**
 * What Spider 2.0-Lite's prepare reads from CSV files as Python does: `csv.reader` rows (`pyCsvRowsAnyNewline`, the
 * excel dialect; a blank line is an empty row) and `parse_value`'s `int(s)`, else `float(s)`, else the string.
 */
import { PyFloat } from "../../../metrics/pyjson.ts";

const INT = /^[+-]?\d+(_\d+)*$/;
const FLOAT = /^[+-]?(?:(?:\d+(?:_\d+)*)?\.\d+(?:_\d+)*|\d+(?:_\d+)*\.?)(?:[eE][+-]?\d+(?:_\d+)*)?$/;
const SPECIAL = /^[+-]?(nan|inf|infinity)$/i;

/** A non-finite float, written as json.dumps writes it (NaN, Infinity, -Infinity). */
export class NonFinite {
  constructor(readonly value: number) {}
  get token(): string {
    return Number.isNaN(this.value) ? "NaN" : this.value > 0 ? "Infinity" : "-Infinity";
  }
}

/** `parse_value(s)`: an int (bigint past 2^53), a float (whole ones as PyFloat), or the string. */
export function parseValue(s: string): number | bigint | PyFloat | NonFinite | string {
  const t = s.trim();
  if (INT.test(t)) {
    const n = BigInt(t.replaceAll("_", ""));
    return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
  }
  if (FLOAT.test(t)) {
    const x = Number(t.replaceAll("_", ""));
    if (!Number.isFinite(x)) return new NonFinite(x);
    return Number.isInteger(x) ? new PyFloat(x) : x;
  }
  const special = SPECIAL.exec(t);
  if (special) return new NonFinite(special[1]!.toLowerCase() === "nan" ? NaN : t.startsWith("-") ? -Infinity : Infinity);
  return s;
}
