/** Repairs a JSONL file whose last line was torn by a kill: keep a complete tail, drop a partial one. */
import * as fs from "node:fs";

/**
 * If the file does not end with a newline, the bytes after the last newline are either a complete row
 * (a newline is appended) or a torn one (truncated away). Returns the number of bytes dropped.
 */
export function repairTornTail(path: string): number {
  if (!fs.existsSync(path)) return 0;
  const size = fs.statSync(path).size;
  if (size === 0) return 0;
  const fd = fs.openSync(path, "r+");
  try {
    const last = Buffer.alloc(1);
    fs.readSync(fd, last, 0, 1, size - 1);
    if (last[0] === 10) return 0;
    // Scan back in blocks for the last newline.
    let end = size;
    let cut = 0;
    const block = Buffer.alloc(64 * 1024);
    while (end > 0) {
      const start = Math.max(0, end - block.length);
      const n = fs.readSync(fd, block, 0, end - start, start);
      const i = block.subarray(0, n).lastIndexOf(10);
      if (i !== -1) {
        cut = start + i + 1;
        break;
      }
      end = start;
    }
    const tail = Buffer.alloc(size - cut);
    fs.readSync(fd, tail, 0, tail.length, cut);
    try {
      JSON.parse(tail.toString("utf8"));
      fs.writeSync(fd, "\n", size);
      return 0;
    } catch {
      fs.ftruncateSync(fd, cut);
      return size - cut;
    }
  } finally {
    fs.closeSync(fd);
  }
}
