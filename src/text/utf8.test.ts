import { expect, test } from "bun:test";
import { decodeUtf8, decodeUtf8IgnoringErrors, firstInvalidByte, invalidInChunk } from "./utf8.ts";

const fatal = new TextDecoder("utf-8", { fatal: true });
const valid = (bytes: Uint8Array) => {
  try {
    fatal.decode(bytes);
    return true;
  } catch {
    return false;
  }
};

test("firstInvalidByte agrees with a fatal TextDecoder on random and edge sequences", () => {
  const edges = [[0xc0, 0xaf], [0xc1, 0xbf], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xf0, 0x8f, 0xbf, 0xbf], [0xf4, 0x90, 0x80, 0x80], [0xf5, 0x80], [0x80], [0xe2, 0x82], [0xe2, 0x82, 0xac], [0xf0, 0x9f, 0x98, 0x80], [0xef, 0xbb, 0xbf]];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 16;
  const cases = edges.map((e) => new Uint8Array([0x61, ...e, 0x62]));
  for (let i = 0; i < 3000; i++) cases.push(new Uint8Array(Array.from({ length: 1 + (next() % 6) }, () => (next() % 3 === 0 ? 0x41 : 0x80 + (next() % 0x80)))));
  for (const bytes of cases) {
    const at = firstInvalidByte(bytes);
    expect(`${Array.from(bytes)} ${at === bytes.length}`).toBe(`${Array.from(bytes)} ${valid(bytes)}`);
    if (at < bytes.length) expect(valid(bytes.subarray(0, at))).toBe(true);
  }
});

test("errors name file:line, the offset in the file and the byte's place in its line", () => {
  const bytes = new Uint8Array([...new TextEncoder().encode("a: 1\nb: x"), 0xff, 0x0a]);
  expect(() => decodeUtf8(bytes, "c.yaml")).toThrow("c.yaml:2: invalid UTF-8 at byte offset 9 of the file (byte 5 of the line: 0xff)");
  // A stream chunk may start or end inside a sequence.
  expect(invalidInChunk(new Uint8Array([0x82, 0xac, 0x61, 0xe2]), true)).toBe(-1);
  expect(invalidInChunk(new Uint8Array([0x61, 0xff]), false)).toBe(1);
});

test("decodeUtf8IgnoringErrors drops invalid bytes as Python's errors=\"ignore\" does, and keeps a literal U+FFFD", () => {
  const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(p))));
  // Values from CPython 3.11: b"a\xe2\x82Ab\xff\xc3\xa9\xef\xbf\xbd\xf0\x9f".decode("utf-8", "ignore") == "aAbé\ufffd".
  expect(decodeUtf8IgnoringErrors(bytes("a", [0xe2, 0x82], "Ab", [0xff], [0xc3, 0xa9], [0xef, 0xbf, 0xbd], [0xf0, 0x9f]))).toBe("aAbé\ufffd");
  expect(decodeUtf8IgnoringErrors(bytes([0xed, 0xa0, 0x80], "x", [0xc0, 0xaf]))).toBe("x");
  expect(decodeUtf8IgnoringErrors(bytes("plain ✓"))).toBe("plain ✓");
});
