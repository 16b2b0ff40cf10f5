import { expect, test } from "bun:test";
import { ByteText, utf8 } from "./byte-text.ts";
import { intText } from "./pyjson.ts";

function collect(write: (out: ByteText) => void): string {
  const parts: Uint8Array[] = [];
  const out = new ByteText((bytes) => parts.push(bytes.slice()));
  write(out);
  out.drain();
  return new TextDecoder().decode(Buffer.concat(parts));
}

test("ints print as Python ints, text as UTF-8, across buffer flushes", () => {
  const ints = [0, 7, -7, 10, 99, 100, -100, 123456789, 2 ** 31, -(2 ** 53) + 1, 2 ** 53 - 1, 2 ** 53 + 2, 1e21, -1e22, -0];
  // Every digit count, and both sides of the Int32 fast path's limit.
  for (let d = 1; d <= 16; d++) ints.push(10 ** d - 1, 10 ** d, -(10 ** d));
  ints.push(2 ** 31 - 1, 2 ** 31 + 1, -(2 ** 31), -(2 ** 31) - 1);
  for (let i = 0; i < 2000; i++) ints.push(Math.round((Math.random() - 0.5) * 10 ** Math.floor(Math.random() * 17)));
  expect(collect((out) => ints.forEach((x) => (out.int(x), out.text(" "))))).toBe(ints.map((x) => `${intText(x)} `).join(""));
  const texts = ["plain", "é😀ü", "a\u0000b", "x".repeat(3_000_000), "mixed é then ascii"];
  expect(collect((out) => texts.forEach((t) => (out.text(t), out.bytes(utf8("|")))))).toBe(texts.map((t) => `${t}|`).join(""));
});
