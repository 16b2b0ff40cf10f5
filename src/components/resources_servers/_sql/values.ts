/**
 * SQLite result values with Python's meaning (what NeMo Gym's comparisons see): INTEGER is a Python int (bigint
 * here), REAL a float (number), TEXT a str, BLOB bytes, NULL None. `1 == 1.0` and their hashes agree, str and
 * bytes never equal anything else.
 */
import { pyFloatRepr } from "../_python/number.ts";
import type { SqlRow, SqlValue } from "./execute.ts";

/** A string equal for two values exactly when Python's `==` (and hash) says they are equal. */
export function pyValueKey(value: SqlValue): string {
  if (value === null) return "N";
  if (typeof value === "bigint") return `#${value}`;
  if (typeof value === "number") {
    if (value === Infinity) return "#inf";
    if (value === -Infinity) return "#-inf";
    if (Number.isNaN(value)) return `nan`; // never equal to itself in Python; SQLite gives NULL instead
    return Number.isInteger(value) ? `#${BigInt(value)}` : `#${value}`;
  }
  if (typeof value === "string") return `'${value}`;
  return `b${Buffer.from(value).toString("hex")}`;
}

/** A key for a whole row (a Python tuple). */
export function pyRowKey(row: SqlRow): string {
  return JSON.stringify(row.map(pyValueKey));
}

/** `repr(b"...")`: printable ASCII as is, \t \n \r \\ and the quote escaped, other bytes as \xNN. */
export function pyBytesRepr(bytes: Uint8Array): string {
  const quote = bytes.includes(0x27) && !bytes.includes(0x22) ? '"' : "'";
  let out = "b" + quote;
  for (const b of bytes) {
    if (b === 0x5c) out += "\\\\";
    else if (b === quote.charCodeAt(0)) out += `\\${quote}`;
    else if (b === 0x09) out += "\\t";
    else if (b === 0x0a) out += "\\n";
    else if (b === 0x0d) out += "\\r";
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\x${b.toString(16).padStart(2, "0")}`;
  }
  return out + quote;
}

/** `str(value)` in Python. */
export function pyStr(value: SqlValue): string {
  if (value === null) return "None";
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") return pyFloatRepr(value);
  if (typeof value === "string") return value;
  return pyBytesRepr(value);
}

/** Python's ordering of two str: by code point (JavaScript's `<` compares UTF-16 units). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (a code point above U+FFFF) sorts after every BMP character.
    const sx = x >= 0xd800 && x <= 0xdfff;
    const sy = y >= 0xd800 && y <= 0xdfff;
    if (sx !== sy) return sx ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}
