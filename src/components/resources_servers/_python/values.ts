/** Python semantics for JSON values: `==` across types (True == 1 == 1.0), json.loads (NaN/Infinity), set dedupe. */
import { PyException, pyRepr } from "./errors.ts";
import { pyFloatRepr } from "./number.ts";

/** Python `a == b` for JSON-decoded values: bools compare as 0/1 with numbers, containers element-wise. */
export function pyEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const ta = typeof a;
  const tb = typeof b;
  if ((ta === "number" || ta === "boolean") && (tb === "number" || tb === "boolean")) return Number(a) === Number(b);
  if (a === null || b === null || ta !== "object" || tb !== "object") return false;
  const arrA = Array.isArray(a);
  if (arrA !== Array.isArray(b)) return false;
  if (arrA) {
    const la = a as unknown[];
    const lb = b as unknown[];
    return la.length === lb.length && la.every((x, i) => pyEquals(x, lb[i]));
  }
  const oa = a as Record<string, unknown>;
  const ob = b as Record<string, unknown>;
  const keys = Object.keys(oa);
  if (keys.length !== Object.keys(ob).length) return false;
  return keys.every((k) => Object.hasOwn(ob, k) && pyEquals(oa[k], ob[k]));
}

/** `x in list` with Python equality. */
export function pyIn(x: unknown, list: readonly unknown[]): boolean {
  return list.some((y) => pyEquals(x, y));
}

/** set(list): distinct elements under Python equality; lists/dicts are unhashable (TypeError). */
export function pySet(list: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const x of list) {
    if (x !== null && typeof x === "object") {
      throw new PyException("TypeError", `unhashable type: '${Array.isArray(x) ? "list" : "dict"}'`);
    }
    if (!pyIn(x, out)) out.push(x);
  }
  return out;
}

const NON_FINITE = /(?:-?Infinity|NaN)/;

/**
 * json.loads(s): JSON plus Python's NaN / Infinity / -Infinity literals.
 * Throws PyException("JSONDecodeError") like Python (the message is an approximation of Python's).
 */
export function pyJsonLoads(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    if (NON_FINITE.test(s)) {
      const parsed = parseWithNonFinite(s);
      if (parsed.ok) return parsed.value;
    }
    throw new PyException("JSONDecodeError", jsonErrorMessage(s));
  }
}

function parseWithNonFinite(s: string): { ok: true; value: unknown } | { ok: false } {
  // Replace the bare literals outside strings with sentinel strings, parse, then swap the sentinels back.
  const sentinel = "\u0000pyjson:";
  let out = "";
  let inString = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (inString) {
      out += ch;
      if (ch === "\\") out += s[++i] ?? "";
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') {
      inString = true;
      out += ch;
      continue;
    }
    const m = /^(?:-Infinity|Infinity|NaN)/.exec(s.slice(i, i + 9));
    if (m) {
      out += JSON.stringify(sentinel + m[0]);
      i += m[0].length - 1;
    } else out += ch;
  }
  try {
    const value = JSON.parse(out, (_k, v) =>
      typeof v === "string" && v.startsWith(sentinel) ? Number(v.slice(sentinel.length)) : v,
    );
    return { ok: true, value };
  } catch {
    return { ok: false };
  }
}

function jsonErrorMessage(s: string): string {
  // Python reports the first offending position; an empty or non-JSON start is the common case.
  let i = 0;
  while (i < s.length && " \t\n\r".includes(s[i]!)) i++;
  if (i === s.length || !/[[{"\-0-9tfnNI]/.test(s[i]!)) return `Expecting value: line 1 column ${i + 1} (char ${i})`;
  // Past the first character Python names the exact token it expected; we only say where parsing failed.
  return "Invalid JSON document (position not reproduced)";
}

/** str(x) for a JSON value: a string as is, a number as Python prints it (whole numbers as ints), else repr(). */
export function pyStr(x: unknown): string {
  if (typeof x === "string") return x;
  if (typeof x === "number") return Number.isInteger(x) && Math.abs(x) < 1e16 ? String(x) : pyFloatRepr(x);
  return pyRepr(x);
}
