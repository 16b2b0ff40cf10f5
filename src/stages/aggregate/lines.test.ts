import { expect, test } from "bun:test";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { TypingHints, typeRolloutRow } from "../../metrics/rollout-parse.ts";
import { stringifyPython } from "../../metrics/pyjson.ts";
import { LineWorker } from "./lines.ts";
import { scanLineBatches } from "./shards.ts";

test("lines from the worker are scanLineBatches' own (CRLF, BOM, blank lines, invalid UTF-8, chunk straddles), with the same typing", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gym-agg-lines-"));
  try {
    const file = path.join(dir, "rows.jsonl");
    const parts: (string | Uint8Array)[] = ["\uFEFF"];
    for (let i = 0; i < 6000; i++) {
      parts.push(`{"reward":${i % 2 ? "1.0" : "1"},"n":${i},"pad":"${"é".repeat(i % 300)}","response":{"usage":{"output_tokens":${i % 97 === 0 ? "3.0" : "3"}}}}${i % 5 === 0 ? "\r\n" : "\n"}`);
      if (i % 1000 === 0) parts.push("\n", new Uint8Array([0x7b, 0x22, 0x78, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d, 0x0a]));
    }
    fs.writeFileSync(file, Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(p)))));
    const plain: unknown[] = [];
    for await (const b of scanLineBatches(file)) plain.push(b);
    const workers = new LineWorker();
    const hinted: unknown[] = [];
    const typed: string[] = [];
    const expected: string[] = [];
    try {
      for await (const b of workers.batches(file)) {
        expect(b.hints).toBeInstanceOf(TypingHints);
        b.texts.forEach((t, i) => {
          if (t === "") return;
          typed.push(stringifyPython(b.hints!.apply(t, JSON.parse(t), i)));
          expected.push(stringifyPython(typeRolloutRow(t, JSON.parse(t))));
        });
        const { hints, ...rest } = b;
        hinted.push({ ...rest, offsets: Array.from(rest.offsets), lengths: Array.from(rest.lengths) });
      }
    } finally {
      workers.stop();
    }
    expect(hinted.length).toBeGreaterThan(1);
    expect(hinted).toEqual(plain);
    expect(typed).toEqual(expected);
    expect(typed.filter((t) => t.includes('"output_tokens":3.0')).length).toBe(62);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
