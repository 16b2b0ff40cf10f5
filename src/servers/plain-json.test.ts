import { describe, expect, test } from "bun:test";
import { PyFloat, pyFloat } from "../metrics/pyjson.ts";
import { isPlainJson, parsedCopy, parsedView } from "./plain-json.ts";
import { pyJsonText } from "./resources/json.ts";

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
  test("isPlainJson accepts only what a JSON round trip returns unchanged", () => {
    const next = rng(7);
    let accepted = 0;
    for (let i = 0; i < 5000; i++) {
      const value = randomValue(next);
      if (!isPlainJson(value)) continue;
      accepted++;
      const parsed = JSON.parse(JSON.stringify(value));
      expect(value).toStrictEqual(parsed);
      expect(Object.keys({ v: value }.v ?? {})).toEqual(Object.keys(parsed ?? {}));
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

  test("parsedCopy is what parsing JSON.stringify's text gives, and what parsing pyJsonText's text gives", () => {
    const next = rng(11);
    let checked = 0;
    for (let i = 0; i < 8000; i++) {
      const value = { reward: pyFloat(1), response: randomValue(next), extra: randomValue(next) } as Record<string, unknown>;
      const copy = parsedCopy(value);
      if (copy === undefined) continue;
      checked++;
      const viaJson = JSON.parse(JSON.stringify(value));
      const viaPython = JSON.parse(pyJsonText(value));
      expect(copy.value).toStrictEqual(viaJson);
      expect(copy.value).toStrictEqual(viaPython);
      expect(JSON.stringify(copy.value)).toBe(JSON.stringify(viaJson));
    }
    expect(checked).toBeGreaterThan(3000);
  });

  test("parsedView gives the same values as parsedCopy, sharing every part that needs no change", () => {
    const next = rng(13);
    for (let i = 0; i < 5000; i++) {
      const value = { reward: pyFloat(1), response: randomValue(next) } as Record<string, unknown>;
      const view = parsedView(value);
      const copy = parsedCopy(value);
      expect(view?.value).toStrictEqual(copy?.value);
      if (view && isPlainJson(value.response)) expect((view.value as Record<string, unknown>).response).toBe(value.response);
    }
    const plain = { a: [1, { b: "c" }] };
    expect(parsedView(plain)!.value).toBe(plain);
  });

  test("a copy shares nothing and keeps a __proto__ key as data; unknown objects go through the text", () => {
    const value = JSON.parse('{"__proto__":{"x":1},"list":[{"a":1}]}');
    const copy = parsedCopy(value)!.value as Record<string, any>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(["__proto__", "list"]);
    expect(copy.list[0]).not.toBe(value.list[0]);
    expect(copy.list[0]).toEqual(value.list[0]);
    for (const odd of [{ when: new Date(0) }, { f: () => 1 }, { n: 1n }, undefined, Object.create(null)]) expect(parsedCopy(odd)).toBeUndefined();
  });
});
