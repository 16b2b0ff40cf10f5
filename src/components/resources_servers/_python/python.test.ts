import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pyFloatRepr, pyInt, pyParseFloat } from "./number.ts";
import { formatPyFloat } from "../../../metrics/pyjson.ts";
import { pyCompile, pyFindall } from "./re.ts";
import { pyCollapseSpace, pyLen, pySplitlines, pyStrip } from "./text.ts";
import { pyEquals, pyJsonLoads, pySet } from "./values.ts";

// Every expected value below was produced by CPython 3.11 (see _re_cases.json for the regex table).
const cases = JSON.parse(readFileSync(join(import.meta.dir, "_re_cases.json"), "utf8"));

describe("Python re on JavaScript RegExp", () => {
  for (const c of cases.findall) {
    test(`${c.why}: re.findall(${JSON.stringify(c.pattern)})`, () => {
      expect(pyFindall(pyCompile(c.pattern, c.flags), c.text)).toEqual(c.findall);
    });
  }
  for (const [pattern, invalid] of Object.entries(cases.invalid)) {
    test(`re.compile(${JSON.stringify(pattern)}) ${invalid ? "raises re.error" : "compiles"}`, () => {
      if (invalid) expect(() => pyCompile(pattern)).toThrow(expect.objectContaining({ pyType: "error" }));
      else expect(() => pyCompile(pattern)).not.toThrow();
    });
  }
});

describe("Python str semantics", () => {
  test("strip() uses Python's whitespace set (\\x1c-\\x1f, \\x85 yes; \\ufeff no)", () => {
    expect(pyStrip("\x1c\x85 a \ufeff")).toBe("a \ufeff");
  });
  test("split()/collapse over Python whitespace", () => {
    expect(pyCollapseSpace(" a\x1fb\u3000c ")).toBe("a b c");
  });
  test("splitlines() breaks on \\v \\f \\x1c \\x85 \\u2028, and a trailing break adds no line", () => {
    expect(pySplitlines("a\vb\fc\x1cd\x85e\u2028f\r\ng\n")).toEqual(["a", "b", "c", "d", "e", "f", "g"]);
  });
  test("len() counts code points", () => {
    expect(pyLen("a😀b")).toBe(3);
  });
});

describe("Python numbers", () => {
  test("repr(float) switches to exponent form below 1e-4 and from 1e16", () => {
    const values = [1e3, 1e16, 1e-5, 0.0001, 123.456, 1.5e300, -0, 100, 1e22];
    expect(values.map(pyFloatRepr)).toEqual(["1000.0", "1e+16", "1e-05", "0.0001", "123.456", "1.5e+300", "-0.0", "100.0", "1e+22"]);
  });
  test("repr(float) is the JSON writers' float text but for NaN: repr(nan) is 'nan', json.dumps writes NaN", () => {
    expect(pyFloatRepr(Number.NaN)).toBe("nan");
    expect(formatPyFloat(Number.NaN)).toBe("NaN");
    for (const x of [Infinity, -Infinity, 0.1, 2.5e-7, 1 / 3, 9007199254740993, 1e16]) expect(pyFloatRepr(x)).toBe(formatPyFloat(x));
  });
  test("float() accepts spaces, underscores, Unicode digits, inf/nan; rejects doubled underscores", () => {
    expect([" 1_000 ", "١٢", "-Infinity", "1.", ".5"].map(pyParseFloat)).toEqual([1000, 12, -Infinity, 1, 0.5]);
    expect(pyParseFloat("1__0")).toBeUndefined();
    expect(Number.isNaN(pyParseFloat("nan"))).toBe(true);
  });
  test("int() truncates toward zero and parses integer strings only", () => {
    expect([3.9, -3.9, "12", " 7 ", true].map(pyInt)).toEqual([3, -3, 12, 7, 1]);
    expect(() => pyInt("12.5")).toThrow("invalid literal for int() with base 10: '12.5'");
    expect(() => pyInt(null)).toThrow(expect.objectContaining({ pyType: "TypeError" }));
  });
});

describe("Python values", () => {
  test("== across types: True == 1 == 1.0, '1' != 1, containers element-wise", () => {
    expect(pyEquals(true, 1)).toBe(true);
    expect(pyEquals("1", 1)).toBe(false);
    expect(pyEquals({ a: [1, false] }, { a: [1.0, 0] })).toBe(true);
  });
  test("set() dedupes under ==, and a list element is unhashable", () => {
    expect(pySet([1, true, 1.0, 2])).toEqual([1, 2]);
    expect(() => pySet([[1]])).toThrow("unhashable type: 'list'");
  });
  test("json.loads accepts NaN and Infinity; an empty document is 'Expecting value'", () => {
    expect(pyJsonLoads('{"x": -Infinity, "s": "NaN"}')).toEqual({ x: -Infinity, s: "NaN" });
    expect(() => pyJsonLoads("")).toThrow("Expecting value: line 1 column 1 (char 0)");
  });
});
