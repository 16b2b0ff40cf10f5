import { describe, expect, test } from "bun:test";
import { PyFloat, pyFloat } from "../metrics/pyjson.ts";
import { copyPlainJson, isPlainJson, plainPyValue } from "./plain-json.ts";
import { pyJsonText } from "./resources-json.ts";

/** A small deterministic generator (so a failure repeats). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}

const ODD_KEYS = ["a", "b", "__proto__", "10", "2", "toJSON", "é", ""];

/** Random values mixing plain JSON with what JSON changes (undefined, NaN, -0, PyFloat, dates, holes). */
function randomValue(next: () => number, depth = 0): unknown {
  const r = next();
  if (depth > 3 || r < 0.35) {
    const leaves = [null, true, false, 0, -0, 1, 2.5, -3, 1e21, NaN, Infinity, undefined, "", "x", "日本\n\"q\"", "\ud800"];
    const leaf = leaves[Math.floor(next() * leaves.length)];
    if (next() < 0.1) return pyFloat(Math.floor(next() * 3));
    if (next() < 0.03) return new Date(0);
    return leaf;
  }
  if (r < 0.65) {
    const n = Math.floor(next() * 4);
    const out = Array.from({ length: n }, () => randomValue(next, depth + 1));
    if (next() < 0.05) out.length += 1; // a hole
    return out;
  }
  const out: Record<string, unknown> = {};
  const n = Math.floor(next() * 4);
  for (let i = 0; i < n; i++) {
    const key = ODD_KEYS[Math.floor(next() * ODD_KEYS.length)]!;
    Object.defineProperty(out, key, { value: randomValue(next, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

describe("plain JSON values", () => {
  test("isPlainJson accepts exactly what a JSON round trip returns unchanged; the copy equals the parse", () => {
    const next = rng(7);
    let accepted = 0;
    for (let i = 0; i < 5000; i++) {
      const value = randomValue(next);
      if (!isPlainJson(value)) continue;
      accepted++;
      const text = JSON.stringify(value);
      const parsed = JSON.parse(text);
      expect(JSON.stringify(copyPlainJson(value))).toBe(text);
      expect(copyPlainJson(value)).toStrictEqual(parsed);
      expect(Object.keys(copyPlainJson({ v: value }).v ?? {})).toEqual(Object.keys(parsed ?? {}));
    }
    expect(accepted).toBeGreaterThan(1000);
  });

  test("what JSON would change is refused", () => {
    for (const value of [undefined, NaN, -0, { a: undefined }, [undefined], new Array(2), new Date(0), { x: new PyFloat(1) }, Object.create(null), () => 1, 1n]) {
      expect(isPlainJson(value)).toBe(false);
    }
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(isPlainJson(cycle)).toBe(false);
    expect(isPlainJson({ a: [1, "x", null, { b: false }] })).toBe(true);
  });

  test("a copy shares nothing and keeps a __proto__ key as data", () => {
    const value = JSON.parse('{"__proto__":{"x":1},"list":[{"a":1}]}');
    const copy = copyPlainJson(value);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(["__proto__", "list"]);
    expect(copy.list[0]).not.toBe(value.list[0]);
  });

  test("plainPyValue is what parsing the Python-typed answer text gives", () => {
    const next = rng(11);
    let checked = 0;
    for (let i = 0; i < 5000; i++) {
      const value = { reward: pyFloat(1), response: randomValue(next), extra: randomValue(next) } as Record<string, unknown>;
      const plain = plainPyValue(value);
      let text: string;
      try {
        text = pyJsonText(value);
      } catch {
        continue;
      }
      if (plain === undefined) continue;
      checked++;
      expect(plain).toStrictEqual(JSON.parse(text));
      expect(JSON.stringify(plain)).toBe(JSON.stringify(JSON.parse(text)));
    }
    expect(checked).toBeGreaterThan(1000);
    const unchanged = { a: [1, { b: "c" }] };
    expect(plainPyValue(unchanged)).toBe(unchanged);
  });
});
