/** The verifier output shown for a flip: find a recorded `verifier_logs_dir` on this machine and read the tail of its log. */
import * as fs from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import type { FlipLog } from "./index.ts";
import { rowsOf } from "./rows.ts";

const VERIFIER_STDOUT = "test-stdout.txt";

/** The losing side's lowest-reward row of a task: where its verifier output can be found. */
export interface Worst {
  reward: number;
  line: number;
  logsDir?: string;
  testOutput: boolean;
}

/** Fills each flip's log: the losing side's lowest-reward row, its `verifier_logs_dir` (resolved) or embedded `test_output`. */
export async function attachLogs(pending: Array<{ log: FlipLog; worst: Worst; path: string }>, tail: number, logsRoot?: string): Promise<void> {
  const needOutput = new Map<string, Map<number, FlipLog[]>>();
  for (const { log, worst, path } of pending) {
    let notFound: string | undefined;
    if (worst.logsDir) {
      const roots = [dirname(path), process.cwd(), ...(logsRoot ? [logsRoot] : [])];
      const found = resolveLogsDir(worst.logsDir, roots);
      if (found) {
        const file = fs.statSync(found).isDirectory() ? join(found, VERIFIER_STDOUT) : found;
        const text = readTail(file);
        Object.assign(log, { source: "verifier_logs_dir", path: file }, typeof text === "string" ? { lines: lastLines(text, tail) } : { unavailable: text.error });
        continue;
      }
      notFound = `verifier_logs_dir ${worst.logsDir} not found under ${roots.join(", ")}`;
    }
    if (worst.testOutput && path !== "-") {
      const lines = needOutput.get(path) ?? new Map<number, FlipLog[]>();
      lines.set(worst.line, [...(lines.get(worst.line) ?? []), log]);
      needOutput.set(path, lines);
      log.source = "test_output";
    } else log.unavailable = notFound ?? (worst.testOutput ? "stdin is read once; test_output cannot be re-read" : "the row has no verifier_logs_dir and no test_output");
  }
  // A second pass over each losing file picks up only the test_output of the rows needed.
  for (const [path, wanted] of needOutput) {
    for await (const { row, line } of rowsOf(path)) {
      const logs = wanted.get(line);
      if (!logs) continue;
      for (const log of logs) log.lines = lastLines(String(row.test_output), tail);
      wanted.delete(line);
      if (wanted.size === 0) break;
    }
  }
}


/** First existing place for a recorded logs path: as is, then under each root, trying ever shorter tails of the path (it was written on another machine). */
export function resolveLogsDir(recorded: string, roots: string[]): string | undefined {
  if (isAbsolute(recorded) && fs.existsSync(recorded)) return recorded;
  const parts = recorded.split(/[\\/]+/).filter((p) => p !== "");
  for (const root of roots) {
    for (let start = 0; start < parts.length; start++) {
      const candidate = join(root, ...parts.slice(start));
      if (fs.existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

const TAIL_BYTES = 256 * 1024;

export function readTail(file: string): string | { error: string } {
  try {
    const fd = fs.openSync(file, "r");
    try {
      const size = fs.fstatSync(fd).size;
      const length = Math.min(size, TAIL_BYTES);
      const buffer = new Uint8Array(length);
      fs.readSync(fd, buffer, 0, length, size - length);
      return new TextDecoder().decode(buffer);
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    return { error: `${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
}

export function lastLines(text: string, n: number): string[] {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  if (lines.at(-1) === "") lines.pop();
  return n > 0 ? lines.slice(-n) : [];
}

