import { describe, expect, test } from "bun:test";
import { mergeAll, mergeValues } from "./merge.ts";

describe("mergeValues (OmegaConf rules)", () => {
  test("mappings merge recursively; existing keys keep their place, new keys are appended", () => {
    const merged = mergeValues({ a: 1, b: { x: 1, y: 2 } }, { c: 3, b: { y: 20, z: 30 }, a: 10 });
    expect(merged).toEqual({ a: 10, b: { x: 1, y: 20, z: 30 }, c: 3 });
    expect(Object.keys(merged as object)).toEqual(["a", "b", "c"]);
  });

  test("lists are replaced as a whole", () => {
    expect(mergeValues({ d: [1, 2, 3] }, { d: [9] })).toEqual({ d: [9] });
  });

  test("a scalar replaces a mapping and a mapping replaces a scalar", () => {
    expect(mergeValues({ a: { x: 1 }, b: "s" }, { a: "s", b: { y: 1 } })).toEqual({ a: "s", b: { y: 1 } });
  });

  test("a later null sets null", () => {
    expect(mergeValues({ a: { x: 1 } }, { a: null })).toEqual({ a: null });
  });

  test("a later ??? does not wipe an earlier leaf, mapping or list, but marks an absent key", () => {
    expect(mergeValues({ a: 1, b: { x: 1 }, c: [1] }, { a: "???", b: "???", c: "???", d: "???" })).toEqual({ a: 1, b: { x: 1 }, c: [1], d: "???" });
  });

  test("interpolation strings are plain values while merging", () => {
    expect(mergeValues({ a: "${x}" }, { a: "${y}" })).toEqual({ a: "${y}" });
  });

  test("inputs are not changed", () => {
    const a = { m: { x: 1 } };
    const b = { m: { y: 2 } };
    mergeAll([a, b]);
    expect(a).toEqual({ m: { x: 1 } });
    expect(b).toEqual({ m: { y: 2 } });
  });
});
