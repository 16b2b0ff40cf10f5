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

/**
 * Objects and arrays found plain, down to MARK_DEPTH: an in-process call hands the same objects on hop after hop
 * (a row's params, a dumped response in /verify's body, in its answer, in /run's answer), so each is walked once.
 * What crosses a direct call is never changed afterwards, by its receiver or its sender (the receiver may keep
 * it: an answer's objects end up in the rollout row), which is what keeps a mark true.
 */
const PLAIN = new WeakSet<object>();
const MARK_DEPTH = 2;

/**
 * Marks what JSON.parse just made of a body that came over the wire (an upstream model's answer) as plain, so a
 * direct call hands it on without walking it. A parse is plain JSON but for one value: `-0` (JSON.parse keeps
 * it, a round trip makes it 0), which every writer writes as `0` anyway.
 */
export function markParsed(value: unknown): void {
  if (typeof value === "object" && value !== null) PLAIN.add(value);
}

function plain(v: unknown, depth = 0): boolean {
  switch (typeof v) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(v) && !(v === 0 && 1 / v < 0);
    case "object": {
      if (v === null) return true;
      if (depth <= MARK_DEPTH && PLAIN.has(v)) return true;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (!plain(v[i], depth + 1)) return false;
      } else {
        if (Object.getPrototypeOf(v) !== OBJECT_PROTO) return false;
        for (const key in v) if (!plain((v as Record<string, unknown>)[key], depth + 1)) return false;
      }
      if (depth <= MARK_DEPTH) PLAIN.add(v);
      return true;
    }
    default:
      return false;
  }
}

/**
 * What `JSON.parse` gives back for the text JSON.stringify (or `pyJsonText`) writes for `value`, made in one
 * copying pass: PyFloat → its number, NaN and infinities → null, -0 → 0, undefined members dropped (null
 * inside arrays). Undefined when that is not certain (class instances, functions, bigint, cycles): the
 * caller then goes through the text.
 */
export function parsedCopy(value: unknown): { value: unknown } | undefined {
  try {
    const out = copy(value);
    return out === FAIL || out === SKIP ? undefined : { value: out };
  } catch {
    return undefined;
  }
}

/**
 * Like `parsedCopy`, but parts that parse back unchanged are the value's own (not copied): for readers that
 * never change what they get. Only what needs converting (a PyFloat `reward`, say) is made anew.
 */
export function parsedView(value: unknown): { value: unknown } | undefined {
  try {
    const out = view(value);
    return out === FAIL || out === SKIP ? undefined : { value: out };
  } catch {
    return undefined;
  }
}

const FAIL = Symbol("not plain");
const SKIP = Symbol("dropped member");

function view(v: unknown, depth = 0): unknown {
  if (typeof v !== "object" || v === null) return copy(v);
  if (depth <= MARK_DEPTH && PLAIN.has(v)) return v;
  const out = viewObject(v, depth);
  if (out === v && depth <= MARK_DEPTH) PLAIN.add(v);
  return out;
}

function viewObject(v: object, depth: number): unknown {
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      let item = view(v[i], depth + 1);
      if (item === FAIL) return FAIL;
      if (item === SKIP) item = null;
      if (!out && !Object.is(item, v[i])) out = v.slice(0, i);
      if (out) out.push(item);
    }
    return out ?? v;
  }
  if (v instanceof PyFloat || Object.getPrototypeOf(v) !== OBJECT_PROTO) return copy(v);
  const source = v as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const key in source) {
    const item = view(source[key], depth + 1);
    if (item === FAIL) return FAIL;
    if (!out && !Object.is(item, source[key])) {
      out = {};
      for (const earlier in source) {
        if (earlier === key) break;
        define(out, earlier, source[earlier]);
      }
    }
    if (out && item !== SKIP) {
      if (key === "__proto__") define(out, key, item);
      else out[key] = item;
    }
  }
  return out ?? v;
}

function define(out: Record<string, unknown>, key: string, value: unknown): void {
  // Assignment would set the prototype; JSON.parse makes "__proto__" an own property.
  if (key === "__proto__") Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

function copy(v: unknown): unknown {
  switch (typeof v) {
    case "string":
    case "boolean":
      return v;
    case "number":
      if (Number.isFinite(v) && !(v === 0 && 1 / v < 0)) return v;
      return Number.isFinite(v) ? 0 : null;
    case "undefined":
      return SKIP;
    case "object": {
      if (v === null) return v;
      if (Array.isArray(v)) {
        const out = new Array(v.length);
        for (let i = 0; i < v.length; i++) {
          const item = copy(v[i]);
          if (item === FAIL) return FAIL;
          out[i] = item === SKIP ? null : item;
        }
        return out;
      }
      if (v instanceof PyFloat) return Number.isFinite(v.value) ? (v.value === 0 ? 0 : v.value) : null;
      if (Object.getPrototypeOf(v) !== OBJECT_PROTO) return FAIL;
      const source = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const key in source) {
        const item = copy(source[key]);
        if (item === FAIL) return FAIL;
        if (item === SKIP) continue;
        if (key === "__proto__") define(out, key, item);
        else out[key] = item;
      }
      return out;
    }
    default:
      return FAIL;
  }
}
