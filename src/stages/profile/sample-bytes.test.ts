/** The byte-level sample printer against `sampleText` (the general printer): the same text, or a hand-back. */
import { describe, expect, test } from "bun:test";
import * as fs from "node:fs";
import * as path from "node:path";
import { sampleRows, SHAPES } from "../../../scripts/bench/_shapes.ts";
import { SampleBytes } from "./sample-bytes.ts";
import { sampleText } from "./sample.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const printer = new SampleBytes();

/** The printer's text for a line (null: handed back), checked against sampleText of the line as profile decodes it. */
function printed(line: string, bom = false): string | null {
  const bytes = encoder.encode(`x${bom ? "\ufeff" : ""}${line}\ny`);
  const out = printer.print(bytes, 1, bytes.length - 2);
  if (out === null) return null;
  const text = decoder.decode(out);
  expect(text).toBe(sampleText(decoder.decode(bytes.subarray(1, bytes.length - 2))));
  return text;
}

const row = (members: string) => `{"_ng_task_index":3,${members},"_ng_rollout_index":1}`;

describe("SampleBytes prints what sampleText prints", () => {
  for (const shape of SHAPES) {
    test(`shape (${shape}) rows and their inputs`, () => {
      for (const line of sampleRows(shape, 40)) expect(printed(line)).not.toBeNull();
    });
  }

  test("the published materialized inputs", () => {
    const root = path.join(import.meta.dir, "..", "..", "..", "fixtures", "metrics");
    let lines = 0;
    for (const dir of fs.readdirSync(root)) {
      const file = path.join(root, dir, "example_rollouts_materialized_inputs.jsonl");
      if (!fs.existsSync(file)) continue;
      for (const line of fs.readFileSync(file, "utf8").split("\n")) if (line.trim() && printed(line) !== null) lines++;
    }
    expect(lines).toBeGreaterThan(20);
  });

  test("index members are dropped at the top level only, wherever they are", () => {
    expect(printed(row('"a":{"_ng_task_index":1}'))).toBe('{"a":{"_ng_task_index":1}}');
    expect(printed('{"_ng_task_index":0,"_ng_rollout_index":0}')).toBe("{}");
    expect(printed('{"a":1,"_ng_task_index":0}')).toBe('{"a":1}');
  });

  test("escapes come out as JSON.stringify writes them", () => {
    for (const s of ["\\u00e9\\u4e2d\\ud83d\\ude00", "\\/\\\"\\\\", "\\u0000\\u001f\\u0008\\u000c\\b\\f\\n\\r\\t", "\\u0022\\u005c\\u0041\\u007f", "é中🙂\u2028", "\\u2028 \\uFFFF \\u00E9", "\\u001B\\u000a\\u0009\\u001f x"]) {
      expect(printed(row(`"s":"${s}"`))).not.toBeNull();
    }
  });

  test("numbers: ints as written, floats as Python's repr of their value", () => {
    expect(printed(row('"n":[-0,0,7,-12,123456789012345,1.0,-0.0,0.1,1e5,1E-7,2.50,1.5e+300,123456789012345.5]'))).toBe(
      '{"n":[0,0,7,-12,123456789012345,1.0,-0.0,0.1,100000.0,1e-07,2.5,1.5e+300,123456789012345.5]}',
    );
    expect(printed(row('"a":1.0,"b":1.0,"c":0.95,"d":1.0'))).toBe('{"a":1.0,"b":1.0,"c":0.95,"d":1.0}');
  });

  test("Python's json.dumps spacing, ASCII escapes, blanks and a BOM", () => {
    expect(printed('{"_ng_task_index": 0, "a": [1, 2.0, {"b": "\\u00e9"}], "c" : { } , "d":[ ]}')).toBe('{"a":[1,2.0,{"b":"é"}],"c":{},"d":[]}');
    expect(printed(' \t{"a":true,"b":false,"c":null} ')).toBe('{"a":true,"b":false,"c":null}');
    expect(printed('{"a":1}', true)).toBe('{"a":1}');
  });

  test("hands back what JS would print differently or what is not JSON", () => {
    for (const line of [
      '{"a":1,"a":2}', // a repeated key
      '{"b":{"x":1,"x":1}}',
      '{"z":1,"1":2}', // array-index keys come first in a JS object
      '{"__proto__":1}',
      '{"a\\u0062":1}', // an escaped key
      '{"s":"\\ud800"}', // a lone surrogate
      '{"s":"\\udc00\\ud800"}',
      '{"n":1234567890123456}', // 16+ digits
      '{"n":1e999}',
      '{"n":NaN}',
      '{"n":01}',
      '{"n":1.}',
      '{"s":"\\x"}',
      '{"a":1,}',
      '{"a":1} x',
      '{"a":tru}',
      "[1]",
      `{"a":${"[".repeat(80)}${"]".repeat(80)}}`,
    ]) {
      expect([line, printed(line)]).toEqual([line, null]);
    }
  });

  test("random rows, compact and spaced, with escapes, unicode and numbers of every kind", () => {
    let seed = 19;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    const pieces = ["a", "Z", " ", "é", "中", "🙂", "\\\\", '\\"', "\\n", "\\t", "\\u00e9", "\\u001b", "\\ud83d\\ude00", "\\/", "\\u0041", "\u2028", "\\boxed{1}"];
    const numbers = ["0", "-0", "1", "-7", "42", "123456789012345", "1.0", "-2.5", "0.1", "3e2", "1E-9", "0.30000000000000004", "1.7976931348623157e308", "5e-324", "100.000"];
    const str = () => `"${Array.from({ length: rand(6) }, () => pieces[rand(pieces.length)]).join("")}"`;
    const value = (depth: number): string => {
      const k = rand(depth > 3 ? 4 : 7);
      if (k === 0) return str();
      if (k === 1) return numbers[rand(numbers.length)]!;
      if (k === 2) return ["true", "false", "null"][rand(3)]!;
      if (k === 3) return numbers[rand(numbers.length)]!;
      if (k === 4) return `[${Array.from({ length: rand(4) }, () => value(depth + 1)).join(rand(2) ? ", " : ",")}]`;
      const keys = [...new Set(Array.from({ length: rand(5) }, () => `k${rand(9)}`))];
      return `{${keys.map((key) => `"${key}"${rand(2) ? ": " : ":"}${value(depth + 1)}`).join(rand(2) ? ", " : ",")}}`;
    };
    let fast = 0;
    for (let i = 0; i < 3000; i++) {
      const keys = [...new Set(["_ng_task_index", ...Array.from({ length: 1 + rand(5) }, () => `m${rand(12)}`), "_ng_rollout_index"])];
      const line = `{${keys.map((key) => `"${key}":${key.startsWith("_ng") ? rand(1000) : value(0)}`).join(rand(3) ? "," : ", ")}}`;
      if (printed(line) !== null) fast++;
    }
    expect(fast).toBeGreaterThan(2900);
  });

  test("long lines grow the buffer, and the result is only valid until the next call", () => {
    const long = row(`"t":"${"x".repeat(200_000)}","u":[${Array.from({ length: 5000 }, () => "1e15").join(",")}]`);
    expect(printed(long)!.length).toBeGreaterThan(200_000);
    expect(printed('{"a":1}')).toBe('{"a":1}');
  });
});
