import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeZip } from "../testing/make-zip.ts";
import { readZipFiles, unzip, zipEntries } from "./zip.ts";

const work = mkdtempSync(join(tmpdir(), "gym-zip-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const big = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7) % 13);

describe("zip", () => {
  test("stored, deflated, empty and ZIP64 entries unpack byte for byte", async () => {
    const file = join(work, "a.zip");
    writeFileSync(file, makeZip([
      { name: "dir/a.txt", data: Buffer.from("hello") },
      { name: "dir/big.bin", data: big, deflate: true },
      { name: "empty", data: new Uint8Array(0) },
      { name: "z64.bin", data: big.subarray(0, 1000), deflate: true, zip64: true },
    ]));
    expect(zipEntries(file).map((e) => [e.name, e.size])).toEqual([["dir/a.txt", 5], ["dir/big.bin", 300_000], ["empty", 0], ["z64.bin", 1000]]);
    const out = join(work, "out");
    await unzip(file, out);
    expect(readFileSync(join(out, "dir/a.txt"), "utf8")).toBe("hello");
    expect(Buffer.compare(readFileSync(join(out, "dir/big.bin")), Buffer.from(big))).toBe(0);
    expect(readFileSync(join(out, "empty")).length).toBe(0);
    expect(readFileSync(join(out, "z64.bin")).length).toBe(1000);
  });
  test("pick renames and skips entries", async () => {
    const file = join(work, "b.zip");
    writeFileSync(file, makeZip([{ name: "x/one.sqlite", data: Buffer.from("1") }, { name: "x/notes.md", data: Buffer.from("2") }]));
    const out = join(work, "flat");
    await unzip(file, out, (name) => (name.endsWith(".sqlite") ? name.split("/").at(-1)! : null));
    expect([existsSync(join(out, "one.sqlite")), existsSync(join(out, "notes.md"))]).toEqual([true, false]);
  });
  test("a name that leaves the folder, a corrupt entry and a non-zip are refused", async () => {
    const evil = join(work, "evil.zip");
    writeFileSync(evil, makeZip([{ name: "../escape.txt", data: Buffer.from("x") }]));
    await expect(unzip(evil, join(work, "e"))).rejects.toThrow(/points outside the folder/);
    expect(existsSync(join(work, "escape.txt"))).toBe(false);
    const corrupt = makeZip([{ name: "c.txt", data: Buffer.from("abcdef") }]);
    corrupt[30 + 5 + 2] ^= 0xff;
    writeFileSync(join(work, "corrupt.zip"), corrupt);
    await expect(unzip(join(work, "corrupt.zip"), join(work, "c"))).rejects.toThrow(/CRC-32/);
    expect(existsSync(join(work, "c", "c.txt"))).toBe(false);
    writeFileSync(join(work, "not.zip"), "plain text");
    expect(() => zipEntries(join(work, "not.zip"))).toThrow(/not a readable zip archive/);
  });
  test("readZipFiles reads the picked files into memory, ZIP64 included, and refuses one that fails its CRC-32", () => {
    const file = join(work, "m.zip");
    writeFileSync(file, makeZip([
      { name: "docs/", data: new Uint8Array(0) },
      { name: "docs/a.txt", data: Buffer.from("alpha"), deflate: true },
      { name: "docs/b.bin", data: Buffer.from("beta") },
      { name: "docs/c.txt", data: big.subarray(0, 5000), deflate: true, zip64: true },
    ]));
    const files = readZipFiles(file, (name) => name.endsWith(".txt"));
    expect(files.map((f) => [f.name, f.data.length])).toEqual([["docs/a.txt", 5], ["docs/c.txt", 5000]]);
    expect(files[0]!.data.toString()).toBe("alpha");
    expect(Buffer.compare(files[1]!.data, Buffer.from(big.subarray(0, 5000)))).toBe(0);
    const corrupt = makeZip([{ name: "c.txt", data: Buffer.from("abcdef") }]);
    corrupt[30 + 5 + 2] ^= 0xff;
    writeFileSync(join(work, "corrupt-m.zip"), corrupt);
    expect(() => readZipFiles(join(work, "corrupt-m.zip"))).toThrow(/c\.txt failed its CRC-32\/size check/);
  });
});
