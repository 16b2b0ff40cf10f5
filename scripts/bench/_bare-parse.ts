/** The limit for a full parse: a bare streaming loop, split lines and JSON.parse each, nothing else. */
import { openSync, readSync } from "node:fs";

const fd = openSync(process.argv[2]!, "r");
const decoder = new TextDecoder();
const buffer = new Uint8Array(1 << 20);
let rest = "";
let rows = 0;
for (;;) {
  const n = readSync(fd, buffer, 0, buffer.length, null);
  if (n === 0) break;
  const text = rest + decoder.decode(buffer.subarray(0, n), { stream: true });
  const lines = text.split("\n");
  rest = lines.pop()!;
  for (const line of lines) if (line) (JSON.parse(line), rows++);
}
if (rest) JSON.parse(rest);
console.error(rows);
