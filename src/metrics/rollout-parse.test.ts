import { expect, test } from "bun:test";
import * as fs from "node:fs";
import { FIXTURES, fixturePath } from "./_fixtures.ts";
import { parsePythonJson, stringifyPython } from "./pyjson.ts";
import { numericRecord, rolloutInfo } from "./records.ts";
import { parseRolloutLine, parseRolloutLineByWalk } from "./rollout-parse.ts";

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

/** A small deterministic generator (mulberry32) so that a failure names a reproducible seed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NUMBERS = ["1", "0", "-3", "1.0", "0.0", "-0.0", "2.50", "1.5", "1e2", "1E+2", "1.5e1", "2e-1", "12345678901234567.5", "1.00000000000000001", "123456789012345678", "7.000"];
const KEYS = ["reward", "score", "n", "input_tokens", "output_tokens", "usage", "meta", "_ng_task_index"];
const STRINGS = ['"plain"', '"reward\\":1.0"', '"\\"reward\\": 1.0, x"', '"1.0e5 \\\\"', '"\\u00e9t\\u00e9 1.0"', '"ab\\\\"'];

function value(rand: () => number, depth: number): string {
  const r = rand();
  if (r < 0.45 || depth > 2) return NUMBERS[Math.floor(rand() * NUMBERS.length)]!;
  if (r < 0.6) return STRINGS[Math.floor(rand() * STRINGS.length)]!;
  if (r < 0.7) return `[${value(rand, depth + 1)}, ${value(rand, depth + 1)}]`;
  return object(rand, depth + 1);
}

function object(rand: () => number, depth: number, extra: string[] = []): string {
  const keys = [...new Set(Array.from({ length: 1 + Math.floor(rand() * 4) }, () => KEYS[Math.floor(rand() * KEYS.length)]!))];
  const sep = rand() < 0.3 ? ": " : ":";
  const members = keys.map((k) => {
    const spelled = rand() < 0.05 ? k.replace("r", "\\u0072") : k;
    return `"${spelled}"${sep}${value(rand, depth)}`;
  });
  return `{${[...members, ...extra].join(rand() < 0.3 ? ", " : ",")}}`;
}

test("the fast path agrees with the exact token walk on generated look-alikes (nesting, spacing, escapes, long digits)", () => {
  const rand = random(20240611);
  let floats = 0;
  for (let i = 0; i < 5000; i++) {
    const usage = object(rand, 2);
    const text = object(rand, 0, [`"response":{"id":"r","usage":${usage}}`]);
    const fast = stringifyPython(parseRolloutLine(text));
    expect(fast).toBe(stringifyPython(parseRolloutLineByWalk(text)));
    if (/\.0[,}]/.test(fast)) floats++;
  }
  expect(floats).toBeGreaterThan(500);
});
