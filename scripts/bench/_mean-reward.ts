/** The bare Bun peer of the stage benches: stream the file, JSON.parse every line, mean reward per task, mean over tasks. */
import { openSync, readSync } from "node:fs";

const fd = openSync(process.argv[2]!, "r");
const decoder = new TextDecoder();
const buffer = new Uint8Array(1 << 20);
const sums = new Map<number, [number, number]>();
const add = (row: { _ng_task_index: number; reward: number }) => {
  const s = sums.get(row._ng_task_index);
  if (s) (s[0] += row.reward), s[1]++;
  else sums.set(row._ng_task_index, [row.reward, 1]);
};
let rest = "";
for (;;) {
  const n = readSync(fd, buffer, 0, buffer.length, null);
  if (n === 0) break;
  const lines = (rest + decoder.decode(buffer.subarray(0, n), { stream: true })).split("\n");
  rest = lines.pop()!;
  for (const line of lines) if (line) add(JSON.parse(line));
}
if (rest) add(JSON.parse(rest));
let total = 0;
for (const [s, k] of sums.values()) total += s / k;
console.log(sums.size, total / sums.size);
