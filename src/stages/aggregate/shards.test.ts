import { expect, test } from "bun:test";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { scanLineBatches } from "./shards.ts";

/** Lines of a byte buffer the slow, obvious way: split on LF, drop one CR, drop a file-leading BOM. */
function reference(bytes: Uint8Array) {
  const out: Array<{ text: string; offset: number; length: number }> = [];
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 10) continue;
    if (i === bytes.length && start === bytes.length) break;
    let s = start;
    let e = i;
    if (s === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) s = 3;
    if (e > s && bytes[e - 1] === 13) e--;
    out.push({ text: decoder.decode(bytes.subarray(s, e)), offset: s, length: e - s });
    start = i + 1;
  }
  return out;
}

test("line batches: text, byte offsets and hash agree with a plain split across chunk edges, multi-byte text, CRLF, a BOM, long lines", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gym-scan-test-"));
  const parts: string[] = ["\ufeff"];
  let seed = 3;
  const next = () => (seed = (seed * 48271) % 2147483647);
  for (let i = 0; parts.join("").length < 3_500_000; i++) {
    const kind = next() % 7;
    const body = kind === 0 ? "é😀ü".repeat(next() % 3000) : kind === 1 && i % 40 === 0 ? "x".repeat(1_200_000) : kind === 2 ? "" : `{"i":${i},"t":"${"ab".repeat(next() % 900)}"}`;
    parts.push(body + (next() % 3 === 0 ? "\r\n" : "\n"));
  }
  parts.push('{"tail":"no newline é"}');
  const bytes = new TextEncoder().encode(parts.join(""));
  const file = path.join(dir, "lines.jsonl");
  fs.writeFileSync(file, bytes);
  const got: Array<{ text: string; offset: number; length: number; line: number }> = [];
  const hash = createHash("sha256");
  for await (const b of scanLineBatches(file, hash)) b.texts.forEach((text, i) => got.push({ text, offset: b.offsets[i]!, length: b.lengths[i]!, line: b.firstLine + i }));
  const want = reference(bytes);
  expect(got.length).toBe(want.length);
  for (let i = 0; i < want.length; i++) expect({ ...got[i]!, line: 0 }).toEqual({ ...want[i]!, line: 0 });
  expect(got.map((g) => g.line)).toEqual(want.map((_, i) => i + 1));
  expect(hash.digest("hex")).toBe(createHash("sha256").update(bytes).digest("hex"));
});

test("a chunk with bytes that are not UTF-8 is flagged lossy", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gym-scan-test-"));
  const file = path.join(dir, "bad.jsonl");
  fs.writeFileSync(file, new Uint8Array([123, 34, 97, 34, 58, 34, 0xff, 34, 125, 10]));
  const batches = [];
  for await (const b of scanLineBatches(file)) batches.push(b);
  expect(batches.map((b) => [b.texts.length, b.lossy])).toEqual([[1, true]]);
});
