import { expect, test } from "bun:test";
import { CsvError, csvRecords, PANDAS_1_5_NA, PANDAS_2_NA, pandasCsvRows, pyCsvDictRows, pyCsvRows, pyCsvRowsAnyNewline } from "./csv.ts";

test("pyCsvDictRows: csv.DictReader(io.StringIO(text)) — blank rows skipped, short rows padded with None, extras under None", () => {
  const text = 'a,b,c\n1,2,3\n\n4,5\n6,7,8,9\n"x\ny",,""\n';
  // CPython 3.11: json.dumps([dict(r) for r in csv.DictReader(io.StringIO(text))])
  const python = '[{"a": "1", "b": "2", "c": "3"}, {"a": "4", "b": "5", "c": null}, {"a": "6", "b": "7", "c": "8", "null": ["9"]}, {"a": "x\\ny", "b": "", "c": ""}]';
  expect(pyCsvDictRows(text)).toEqual(JSON.parse(python));
  expect(pyCsvDictRows("")).toEqual([]);
  expect(pyCsvRows("a\n\nb")).toEqual([["a"], [], ["b"]]);
});

test("pandasCsvRows: pandas' C tokenizer — the csv module's quoting, a lone CR ends a row, blank lines and a BOM dropped", () => {
  // The states of pandas/_libs/src/parser/tokenizer.c (START_FIELD, IN_FIELD, QUOTE_IN_QUOTED_FIELD, EAT_CRNL).
  const text = '\ufeffid,a,b\r1,"x,\r\ny",2\n\n2,ab"c,"q"r\r\n3,,""\r';
  expect(pandasCsvRows(text)).toEqual([["id", "a", "b"], ["1", "x,\r\ny", "2"], ["2", 'ab"c', "qr"], ["3", "", ""]]);
  // Where Python's csv module refuses the lone CR, pandas starts a new row.
  expect(() => pyCsvRows("a\rb\n")).toThrow(CsvError);
  expect(pandasCsvRows("a\rb\n")).toEqual([["a"], ["b"]]);
  expect(PANDAS_2_NA.has("None") && !PANDAS_1_5_NA.has("None")).toBe(true);
});

test("csvRecords: csv.DictReader over any newline, BOM dropped, a missing field '' (the benchmarks' CSVs)", () => {
  // CPython 3.11: [dict(r) for r in csv.DictReader(io.StringIO(text.lstrip("\ufeff"), newline=""))], None as "".
  const text = '\ufeffid,text,note\r\n1,"a, ""b""\nc",x\r2,say "hi",\n\n3\n';
  expect(csvRecords(text)).toEqual([{ id: "1", text: 'a, "b"\nc', note: "x" }, { id: "2", text: 'say "hi"', note: "" }, { id: "3", text: "", note: "" }]);
  expect(pyCsvRowsAnyNewline("a\rb\r\n")).toEqual([["a"], ["b"]]);
});
