import { expect, test } from "bun:test";
import { canonicalJson, sha256, sharedCanonicalJson } from "./digest.ts";
import { materializedDigest } from "../run/prepare.ts";

test("the materialized digest is sha256 of the canonical rows as one JSON array, however many pieces it is hashed in", () => {
  const whole = (rows: Record<string, unknown>[]) => sha256(`[${rows.map(canonicalJson).join(",")}]`);
  expect(materializedDigest([])).toBe(sha256("[]"));
  const rows = Array.from({ length: 3000 }, (_, i) => ({ z: i, a: { y: "é".repeat(i % 50), b: [i, null, true] }, _ng_task_index: i }));
  expect(materializedDigest(rows)).toBe(whole(rows));
  expect(materializedDigest(rows.slice(0, 1))).toBe(whole(rows.slice(0, 1)));
  expect(materializedDigest(rows.slice(0, 1))).toBe(sha256('[{"_ng_task_index":0,"a":{"b":[0,null,true],"y":""},"z":0}]'));
});

test("canonical JSON: sorted keys at every depth, undefined members dropped, holes as a join leaves them", () => {
  const holes = [1, , 2]; // eslint-disable-line no-sparse-arrays
  expect(canonicalJson({ b: [holes, undefined, { d: 1, c: undefined }], a: "é\n", "": {} })).toBe('{"":{},"a":"é\\n","b":[[1,,2],null,{"d":1}]}');
  expect(canonicalJson([])).toBe("[]");
  expect(canonicalJson({ x: undefined })).toBe("{}");
  // Python's json.dumps(..., sort_keys=True, separators=(",", ":")) gives {"a":NaN,"b":[Infinity,-Infinity],"c":null}.
  expect(canonicalJson({ c: null, b: [Infinity, -Infinity], a: NaN })).toBe('{"a":NaN,"b":[Infinity,-Infinity],"c":null}');
});

test("shared canonical JSON: the same text as canonicalJson, with rows sharing members (repeats)", () => {
  const shared = { z: [1, { y: "é", x: undefined }], a: null };
  const rows: unknown[] = [{ b: shared, a: 1, u: undefined, f: () => 1 }, { b: shared, a: 2 }, {}, [shared], "s", 3, null, { c: { d: shared }, b: shared }];
  const canonical = sharedCanonicalJson();
  for (const row of rows) expect(canonical(row)).toBe(canonicalJson(row));
  expect(canonical({ x: { y: NaN } })).toBe('{"x":{"y":NaN}}');
});
