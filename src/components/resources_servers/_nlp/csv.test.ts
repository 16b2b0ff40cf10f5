import { expect, test } from "bun:test";
import { pyCsvDictRows, pyCsvRows } from "./csv.ts";

test("pyCsvDictRows: csv.DictReader(io.StringIO(text)) — blank rows skipped, short rows padded with None, extras under None", () => {
  const text = 'a,b,c\n1,2,3\n\n4,5\n6,7,8,9\n"x\ny",,""\n';
  // CPython 3.11: json.dumps([dict(r) for r in csv.DictReader(io.StringIO(text))])
  const python = '[{"a": "1", "b": "2", "c": "3"}, {"a": "4", "b": "5", "c": null}, {"a": "6", "b": "7", "c": "8", "null": ["9"]}, {"a": "x\\ny", "b": "", "c": ""}]';
  expect(pyCsvDictRows(text)).toEqual(JSON.parse(python));
  expect(pyCsvDictRows("")).toEqual([]);
  expect(pyCsvRows("a\n\nb")).toEqual([["a"], [], ["b"]]);
});
