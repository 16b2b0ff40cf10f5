import { expect, test } from "bun:test";
import * as fs from "node:fs";
import { FIXTURES, fixturePath } from "./_fixtures.ts";
import { parsePythonJson, stringifyPython } from "./pyjson.ts";
import { numericRecord, rolloutInfo } from "./records.ts";
import { parseRolloutLine } from "./rollout-parse.ts";

test("the fast rollout parse types every field statistics read exactly as the full Python-typed parse", () => {
  let rows = 0;
  for (const name of fs.readdirSync(FIXTURES)) {
    if (!fs.existsSync(fixturePath(name, "example_rollouts.jsonl"))) continue;
    for (const line of fs.readFileSync(fixturePath(name, "example_rollouts.jsonl"), "utf8").split("\n").filter(Boolean)) {
      const fast = parseRolloutLine(line);
      const full = parsePythonJson(line) as Record<string, unknown>;
      expect(stringifyPython(rolloutInfo(fast))).toBe(stringifyPython(rolloutInfo(full)));
      expect(stringifyPython(numericRecord(fast))).toBe(stringifyPython(numericRecord(full)));
      rows++;
    }
  }
  expect(rows).toBeGreaterThan(50);
});

test("escaped quotes, nested look-alike keys and exponents", () => {
  const row = parseRolloutLine('{"s":"a\\"b\\\\","meta":{"reward":1.0},"response":{"usage":{"output_tokens":2.0},"reward":3.0},"reward":1e2,"n":7}');
  expect(stringifyPython(row)).toBe('{"s":"a\\"b\\\\","meta":{"reward":1},"response":{"usage":{"output_tokens":2.0},"reward":3},"reward":100.0,"n":7}');
});
