import { expect, test } from "bun:test";
import { parsePythonJson, PyFloat, pyNumber, stringifyPython } from "./pyjson.ts";

test("whole-valued floats survive a parse/print round trip; ints stay ints", () => {
  const text = '{"b":1.0,"a":1,"c":[2.50,3e2,-0.0,1E+2],"d":{"x":12345678901234567890},"s":"1.0 é"}';
  const value = parsePythonJson(text) as Record<string, unknown>;
  expect(value.b).toBeInstanceOf(PyFloat);
  expect(pyNumber(value.a)).toEqual({ value: 1, isInt: true });
  expect(pyNumber(value.b)).toEqual({ value: 1, isInt: false });
  expect(stringifyPython(value)).toBe('{"b":1.0,"a":1,"c":[2.5,300.0,-0.0,100.0],"d":{"x":12345678901234567890},"s":"1.0 é"}');
});

test("layouts: orjson compact, orjson indent 2, json.dumps spaced/ascii; non-finite → null", () => {
  const v = { a: [1, new PyFloat(2)], b: {}, c: [], d: NaN, e: "ü" };
  expect(stringifyPython(v, { indent: 2 })).toBe('{\n  "a": [\n    1,\n    2.0\n  ],\n  "b": {},\n  "c": [],\n  "d": null,\n  "e": "ü"\n}');
  expect(stringifyPython(v, { spaced: true, ensureAscii: true })).toBe('{"a": [1, 2.0], "b": {}, "c": [], "d": null, "e": "\\u00fc"}');
});

test("formatPyFloat: the positional fast range prints what the general layout prints", async () => {
  const { formatPyFloat } = await import("./pyjson.ts");
  const reference = (x: number) => {
    const exp = x.toExponential();
    const e = Number(exp.slice(exp.indexOf("e") + 1));
    const digits = exp.slice(x < 0 ? 1 : 0, exp.indexOf("e")).replace(".", "");
    const sign = x < 0 ? "-" : "";
    if (e >= 0) return `${sign}${digits.length > e + 1 ? `${digits.slice(0, e + 1)}.${digits.slice(e + 1)}` : `${digits.padEnd(e + 1, "0")}.0`}`;
    return `${sign}0.${"0".repeat(-e - 1)}${digits}`;
  };
  let seed = 7;
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const values = [1e-4, 1e16 - 2, 9999999999999998, 0.1 + 0.2, 1 / 3, 123456789012345.67, 144.48833592534993, -0.5, 100, -7];
  for (let i = 0; i < 20000; i++) values.push((next() < 0.5 ? -1 : 1) * next() * 10 ** Math.floor(next() * 20 - 4), Math.round(next() * 1e6) / 8);
  for (const x of values) if (Math.abs(x) >= 1e-4 && Math.abs(x) < 1e16) expect(formatPyFloat(x)).toBe(reference(x));
  expect([1e-5, 1e16, 0, -0, 1.5e300, NaN, Infinity].map(formatPyFloat)).toEqual(["1e-05", "1e+16", "0.0", "-0.0", "1.5e+300", "NaN", "inf"]);
});
