import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repairTornTail } from "./repair.ts";

const file = (text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), "gym-repair-")), "r.jsonl");
  writeFileSync(path, text);
  return path;
};

test("a torn last line is cut off and reported", () => {
  const path = file('{"a":1}\n{"a":2}\n{"a":3,"b"');
  expect(repairTornTail(path)).toBe(10);
  expect(readFileSync(path, "utf8")).toBe('{"a":1}\n{"a":2}\n');
});

test("a complete last row without a newline gets one", () => {
  const path = file('{"a":1}\n{"a":2}');
  expect(repairTornTail(path)).toBe(0);
  expect(readFileSync(path, "utf8")).toBe('{"a":1}\n{"a":2}\n');
});

test("a clean file is left alone; a file of one torn line becomes empty", () => {
  const clean = file('{"a":1}\n');
  expect(repairTornTail(clean)).toBe(0);
  expect(readFileSync(clean, "utf8")).toBe('{"a":1}\n');
  const torn = file('{"a":');
  expect(repairTornTail(torn)).toBe(5);
  expect(readFileSync(torn, "utf8")).toBe("");
});

test("a long torn line past the scan block is found", () => {
  const big = `{"x":"${"y".repeat(200_000)}`;
  const path = file(`{"a":1}\n${big}`);
  expect(repairTornTail(path)).toBe(big.length);
  expect(readFileSync(path, "utf8")).toBe('{"a":1}\n');
});
