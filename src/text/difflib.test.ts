import { describe, expect, test } from "bun:test";
import { closeMatches, sequenceRatio } from "./difflib.ts";

describe("sequenceRatio matches Python's difflib", () => {
  // Values from CPython 3.11: difflib.SequenceMatcher(None, a, b).ratio()
  test.each([
    ["abcd", "bcde", 0.75],
    ["", "", 1.0],
    ["abc", "", 0.0],
    ["qabxcd", "abycdf", 0.6666666666666666],
    ["run", "rn", 0.8],
    ["eval", "evl", 0.8571428571428571],
  ])("%p vs %p", (a, b, r) => {
    expect(sequenceRatio(a, b)).toBe(r);
  });

  test("autojunk drops popular characters from b when b has 200+ elements", () => {
    const b = "a".repeat(150) + "b".repeat(60);
    const a = "a".repeat(10);
    // CPython 3.11: SequenceMatcher(None, 'a'*10, 'a'*150+'b'*60).ratio() == 0.09090909090909091:
    // both characters are popular, yet the match still grows across them from the start.
    expect(sequenceRatio(a, b)).toBe(0.09090909090909091);
    // When the first elements differ, nothing anchors the extension: 0.0 in CPython too.
    expect(sequenceRatio("x" + "a".repeat(5), "y" + "a".repeat(250))).toBe(0);
  });
});

describe("closeMatches", () => {
  test("orders by score like get_close_matches", () => {
    expect(closeMatches("appel", ["ape", "apple", "peach", "puppy"])).toEqual(["apple", "ape"]);
    expect(closeMatches("evl", ["eval", "env", "dev", "list"], 1)).toEqual(["eval"]);
    expect(closeMatches("zzz", ["eval", "env"])).toEqual([]);
  });
});
