/** One pass of gym's JSONL layer over a file: `read` parses every row (line numbers kept); `copy` also writes each row out. */
import { readJsonlBatches } from "../../src/jsonl/read.ts";
import { JsonlBlockWriter } from "../../src/jsonl/write.ts";

const [mode, input, output = "/dev/null"] = process.argv.slice(2) as [string, string, string?];
const writer = mode === "copy" ? new JsonlBlockWriter(output) : undefined;
let rows = 0;
for await (const batch of readJsonlBatches(input)) {
  rows += batch.length;
  if (writer) for (const { value } of batch) await writer.write(value);
}
await writer?.close();
console.error(`${rows} rows`);
