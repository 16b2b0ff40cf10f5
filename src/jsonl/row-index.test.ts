import { afterAll, describe, expect, test } from "bun:test";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openRowIndex, readRowText, readRowTexts, refreshRowIndex, type RowIndex } from "./row-index.ts";

const dir = fs.mkdtempSync(join(tmpdir(), "gym-row-index-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const rows = (index: RowIndex) => Array.from({ length: index.count }, (_, i) => readRowText(index, i));

describe("row index", () => {
  test("offsets and lengths of non-blank rows; CRLF, BOM, blank lines and a last line without newline", async () => {
    const file = join(dir, "mixed.jsonl");
    fs.writeFileSync(file, '\ufeff{"a":1}\r\n\n  \n{"b":"é"}\n\t\r\n{"c":3}');
    const index = await openRowIndex(file);
    expect(index.count).toBe(3);
    expect(rows(index)).toEqual(['{"a":1}', '{"b":"é"}', '{"c":3}']);
    expect([...readRowTexts(index)].map((r) => r.text)).toEqual(rows(index));
  });

  test("a line longer than the read chunk and rows across chunk boundaries", async () => {
    const file = join(dir, "long.jsonl");
    const long = JSON.stringify({ text: "x".repeat(3 * 1024 * 1024) });
    const small = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ i, pad: "y".repeat(i % 700) }));
    fs.writeFileSync(file, [...small.slice(0, 2500), long, ...small.slice(2500)].join("\n") + "\n");
    const index = await openRowIndex(file);
    expect(index.count).toBe(5001);
    expect(readRowText(index, 2500)).toBe(long);
    expect(readRowText(index, 4999)).toBe(small[4998]!);
    expect([...readRowTexts(index, 2499, 2502)].map((r) => r.text)).toEqual([small[2499]!, long, small[2500]!]);
  });

  test("cached on disk, extended when the file grows (a half-written last row is re-read), rebuilt when rewritten", async () => {
    const file = join(dir, "live.jsonl");
    const cacheDir = join(dir, "cache");
    fs.writeFileSync(file, '{"n":0}\n{"n":1}\n{"n":');
    const first = await openRowIndex(file, { cacheDir });
    expect(first.count).toBe(3);
    expect(fs.readdirSync(cacheDir).length).toBe(1);

    fs.appendFileSync(file, '2}\n{"n":3}\n');
    let passed = 0;
    const grown = await refreshRowIndex(first, { cacheDir, onProgress: (bytes) => (passed = bytes) });
    expect(rows(grown)).toEqual(['{"n":0}', '{"n":1}', '{"n":2}', '{"n":3}']);
    // The second pass read from the last complete newline (the half row and what followed), not from byte 0.
    expect(passed).toBe('{"n":2}\n{"n":3}\n'.length);
    expect(grown.reused).toBe(2);
    expect(grown.complete).toBe(fs.statSync(file).size);

    const reopened = await openRowIndex(file, { cacheDir });
    expect(rows(reopened)).toEqual(rows(grown));
    expect(reopened.offset(3)).toBe(grown.offset(3));

    fs.writeFileSync(file, '{"other":true}\n{"n":"changed"}\n');
    const rebuilt = await refreshRowIndex(reopened, { cacheDir });
    expect(rows(rebuilt)).toEqual(['{"other":true}', '{"n":"changed"}']);
    expect(rebuilt.reused).toBe(0);
    expect(rows(await openRowIndex(file, { cacheDir }))).toEqual(rows(rebuilt));
  });

  test("a corrupt cache file is a miss, not an error", async () => {
    const file = join(dir, "corrupt.jsonl");
    const cacheDir = join(dir, "cache2");
    fs.writeFileSync(file, '{"a":1}\n');
    await openRowIndex(file, { cacheDir });
    for (const name of fs.readdirSync(cacheDir)) fs.writeFileSync(join(cacheDir, name), "garbage");
    expect(rows(await openRowIndex(file, { cacheDir }))).toEqual(['{"a":1}']);
  });

  test("a missing file is a clear error", async () => {
    await expect(openRowIndex(join(dir, "nope.jsonl"))).rejects.toThrow(/Cannot read .*nope\.jsonl/);
  });
});
