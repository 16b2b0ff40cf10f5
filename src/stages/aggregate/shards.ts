/** Shard discovery and scanning for `gym eval aggregate` and `profile`: globs, sidecar exclusion, stdin spill, and re-reading a line by its byte position. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { GymError } from "../../errors.ts";
import { isCompanionFile } from "../../outputs/paths.ts";
import { readBytes } from "../../runtime/files.ts";


export interface ShardList {
  shards: string[];
  /** Matched files left out because they are sidecars. */
  sidecars: string[];
}

/** Expands comma-separated globs: each pattern's matches sorted, then de-duplicated in first-seen order. */
export function expandInputGlobs(patterns: string[]): ShardList {
  const seen = new Set<string>();
  const sidecars: string[] = [];
  for (const pattern of patterns.flatMap((p) => p.split(",")).map((p) => p.trim()).filter(Boolean)) {
    if (pattern === "-") {
      seen.add("-");
      continue;
    }
    const matches = /[*?[{]/.test(pattern) ? fs.globSync(pattern).sort() : fs.existsSync(pattern) ? [pattern] : [];
    if (matches.length === 0) {
      throw new GymError("E_INPUT_NOT_FOUND", `No shards matched --input-glob ${JSON.stringify(pattern)}`, {
        hint: "Quote the glob so the shell does not expand it, and check the directory (e.g. 'results/rollouts-*.jsonl').",
      });
    }
    for (const m of matches) {
      if (isCompanionFile(m)) sidecars.push(m);
      else seen.add(m);
    }
  }
  return { shards: [...seen], sidecars };
}

/** Copies stdin ("-"), a FIFO or a pipe (`<(…)`) once to a temporary file so that its rows can be re-read in sorted order. */
export async function spillStdin(source = "-"): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gym-stdin-"));
  const file = path.join(dir, "stdin.jsonl");
  const fd = fs.openSync(file, "w");
  try {
    for await (const chunk of readBytes(source)) fs.writeSync(fd, chunk);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  fs.closeSync(fd);
  return file;
}

/** Reads one line back by its byte position. */
export class LineReader {
  private fds = new Map<string, number>();
  private buffer = new Uint8Array(1 << 16);
  private decoder = new TextDecoder();

  read(file: string, offset: number, length: number): string {
    let fd = this.fds.get(file);
    if (fd === undefined) this.fds.set(file, (fd = fs.openSync(file, "r")));
    if (length > this.buffer.length) this.buffer = new Uint8Array(length * 2);
    let got = 0;
    while (got < length) got += fs.readSync(fd, this.buffer, got, length - got, offset + got);
    return this.decoder.decode(this.buffer.subarray(0, length));
  }

  close(): void {
    for (const fd of this.fds.values()) fs.closeSync(fd);
    this.fds.clear();
  }
}
