import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GymError } from "../errors.ts";
import { readJsonl, type JsonlIssue, type ReadStats } from "./read.ts";

const fixture = (name: string) => join(import.meta.dir, "..", "..", "fixtures", "jsonl", name);

async function collect(path: string, options = {}, stats?: ReadStats) {
  const rows: { value: unknown; line: number }[] = [];
  for await (const r of readJsonl(path, options, stats)) rows.push({ value: r.value, line: r.line });
  return rows;
}

async function failure(path: string, options = {}): Promise<GymError> {
  try {
    await collect(path, options);
  } catch (error) {
    return error as GymError;
  }
  throw new Error("expected the read to fail");
}

describe("readJsonl on good inputs", () => {
  test("CRLF endings are removed", async () => {
    expect(await collect(fixture("crlf.jsonl"))).toEqual([
      { value: { a: 1 }, line: 1 },
      { value: { a: 2 }, line: 2 },
    ]);
  });

  test("a UTF-8 BOM is ignored", async () => {
    expect((await collect(fixture("bom.jsonl"))).map((r) => r.value)).toEqual([{ a: 1 }, { a: 2 }]);
  });

  test("blank lines are skipped but keep line numbers true", async () => {
    const stats: ReadStats = { rows: 0, blank: 0, skipped: 0 };
    expect(await collect(fixture("blank-lines.jsonl"), {}, stats)).toEqual([
      { value: { a: 1 }, line: 1 },
      { value: { a: 2 }, line: 4 },
    ]);
    expect(stats).toEqual({ rows: 2, blank: 3, skipped: 0 });
  });

  test("a complete last row without a final newline is read", async () => {
    expect((await collect(fixture("no-final-newline.jsonl"))).map((r) => r.value)).toEqual([{ a: 1 }, { a: 2 }]);
  });

  test("an empty file yields nothing", async () => {
    expect(await collect(fixture("empty.jsonl"))).toEqual([]);
  });

  test("multi-byte characters survive chunk boundaries", async () => {
    expect((await collect(fixture("utf8.jsonl")))[0]!.value).toEqual({ text: "café ✓ 😀" });
    // A file whose 1 MiB chunk boundary falls inside a 4-byte character.
    const dir = mkdtempSync(join(tmpdir(), "gym-jsonl-"));
    const pad = "x".repeat((1 << 20) - 10);
    const path = join(dir, "boundary.jsonl");
    writeFileSync(path, `{"p":"${pad}😀😀😀"}\n{"b":2}\n`);
    const rows = await collect(path);
    expect((rows[0]!.value as { p: string }).p.endsWith("😀😀😀")).toBe(true);
    expect(rows[1]!.value).toEqual({ b: 2 });
  });

  test("a 10 MB line is read whole", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gym-jsonl-"));
    const big = "y".repeat(10 * 1024 * 1024);
    const path = join(dir, "big.jsonl");
    writeFileSync(path, `{"a":1}\n{"big":"${big}"}\n{"a":3}\n`);
    const rows = await collect(path);
    expect(rows.length).toBe(3);
    expect((rows[1]!.value as { big: string }).big.length).toBe(big.length);
    expect(rows[2]).toEqual({ value: { a: 3 }, line: 3 });
  });
});

describe("readJsonl on broken inputs", () => {
  test("invalid JSON names file, line and column", async () => {
    const error = await failure(fixture("invalid-json.jsonl"));
    expect(error.code).toBe("E_INPUT_JSON");
    expect(error.message).toContain("invalid-json.jsonl:2:8");
    expect(error.hint).toContain("each line must be one JSON object");
  });

  test("a missing comma is located", async () => {
    const error = await failure(fixture("missing-comma.jsonl"));
    expect(error.message).toContain("missing-comma.jsonl:2:8");
    expect(error.message).toContain("expected ',' or '}'");
  });

  test("a truncated last line is recognised as such", async () => {
    const error = await failure(fixture("truncated-last-line.jsonl"));
    expect(error.code).toBe("E_INPUT_TRUNCATED");
    expect(error.message).toContain("truncated-last-line.jsonl:3");
    expect(error.message).toContain("killed mid-row");
    expect(error.hint).toContain("--resume");
  });

  test("allowTruncatedTail skips and reports only the cut-off tail", async () => {
    const issues: JsonlIssue[] = [];
    const rows = await collect(fixture("truncated-last-line.jsonl"), { allowTruncatedTail: true, onIssue: (i: JsonlIssue) => issues.push(i) });
    expect(rows.map((r) => r.value)).toEqual([{ a: 1 }, { a: 2 }]);
    expect(issues.map((i) => [i.kind, i.line])).toEqual([["truncated", 3]]);
    // A bad line in the middle still stops the read.
    expect((await failure(fixture("invalid-json.jsonl"), { allowTruncatedTail: true })).code).toBe("E_INPUT_JSON");
  });

  test("rows must be objects", async () => {
    const error = await failure(fixture("not-an-object.jsonl"));
    expect(error.message).toContain("not-an-object.jsonl:2:1: expected a JSON object, found an array");
  });

  test("lenient mode counts and reports every bad line", async () => {
    const issues: JsonlIssue[] = [];
    const stats: ReadStats = { rows: 0, blank: 0, skipped: 0 };
    const rows = await collect(fixture("not-an-object.jsonl"), { lenient: true, onIssue: (i: JsonlIssue) => issues.push(i) }, stats);
    expect(rows.map((r) => r.value)).toEqual([{ a: 1 }]);
    expect(issues.map((i) => `${i.line}:${i.kind}`)).toEqual(["2:not-an-object", "3:not-an-object"]);
    expect(stats.skipped).toBe(2);
  });

  test("a missing file says so", async () => {
    const error = await failure(fixture("nope.jsonl"));
    expect(error.code).toBe("E_INPUT_NOT_FOUND");
    expect(error.message).toContain("nope.jsonl");
  });
});
