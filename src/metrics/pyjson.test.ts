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
