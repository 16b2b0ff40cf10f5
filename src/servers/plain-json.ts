/**
 * Values that can cross an in-process call as objects: exactly what `JSON.parse(JSON.stringify(x))` would
 * give back, so handing `x` itself over is indistinguishable from sending its text (mutation aside).
 */
import { PyFloat } from "../metrics/pyjson.ts";

const OBJECT_PROTO = Object.prototype;

/**
 * True when `value` survives a JSON round trip unchanged: null, booleans, strings, finite numbers (not -0),
 * arrays without holes or undefined, and objects with the plain prototype whose own values are all that.
 * Anything else (undefined members, NaN, dates, class instances, null-prototype objects, cycles) answers false.
 */
export function isPlainJson(value: unknown): boolean {
  try {
    return plain(value);
  } catch {
    return false; // a cycle or an absurd depth: the text path reports it as it always did
  }
}

function plain(v: unknown): boolean {
  switch (typeof v) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(v) && !(v === 0 && 1 / v < 0);
    case "object": {
      if (v === null) return true;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (!plain(v[i])) return false;
        return true;
      }
      if (Object.getPrototypeOf(v) !== OBJECT_PROTO) return false;
      for (const key in v) if (!plain((v as Record<string, unknown>)[key])) return false;
      return true;
    }
    default:
      return false;
  }
}

/** A fresh copy of a value that `isPlainJson` accepted: what parsing its JSON text would give. */
export function copyPlainJson<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyPlainJson(value[i]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const key in value) {
    // Assignment would treat "__proto__" as the prototype; JSON.parse makes it an own property.
    if (key === "__proto__") Object.defineProperty(out, key, { value: copyPlainJson(value[key]), enumerable: true, writable: true, configurable: true });
    else out[key] = copyPlainJson((value as Record<string, unknown>)[key]);
  }
  return out as T;
}

/**
 * What `JSON.parse` makes of a resources server's Python-typed answer text (see `pyJsonText`): PyFloat → its
 * number, non-finite numbers → null, undefined members dropped (null inside arrays). Unchanged parts are
 * shared, not copied. Returns undefined when the value holds something else (class instances, bigint, cycles):
 * the caller then goes through the text.
 */
export function plainPyValue(value: Record<string, unknown>): Record<string, unknown> | undefined {
  try {
    const out = py(value);
    return out === FAIL ? undefined : (out as Record<string, unknown>);
  } catch {
    return undefined;
  }
}

const FAIL = Symbol("not plain");
const SKIP = Symbol("dropped member");

function py(v: unknown): unknown {
  switch (typeof v) {
    case "string":
    case "boolean":
      return v;
    case "number":
      return !Number.isFinite(v) ? null : v === 0 ? 0 : v;
    case "undefined":
      return SKIP;
    case "object": {
      if (v === null) return v;
      if (v instanceof PyFloat) return Number.isFinite(v.value) ? (v.value === 0 ? 0 : v.value) : null;
      if (Array.isArray(v)) {
        let out: unknown[] | undefined;
        for (let i = 0; i < v.length; i++) {
          let item = py(v[i]);
          if (item === FAIL) return FAIL;
          if (item === SKIP) item = null;
          if (!out && !Object.is(item, v[i])) out = v.slice(0, i);
          if (out) out.push(item);
        }
        return out ?? v;
      }
      if (Object.getPrototypeOf(v) !== OBJECT_PROTO) return FAIL;
      const source = v as Record<string, unknown>;
      let out: Record<string, unknown> | undefined;
      for (const key in source) {
        const item = py(source[key]);
        if (item === FAIL) return FAIL;
        if (!out && !Object.is(item, source[key])) {
          out = {};
          for (const earlier in source) {
            if (earlier === key) break;
            define(out, earlier, source[earlier]);
          }
        }
        if (out && item !== SKIP) define(out, key, item);
      }
      return out ?? v;
    }
    default:
      return FAIL;
  }
}

function define(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}
