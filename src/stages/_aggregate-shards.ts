/** Shard discovery and scanning for `gym eval aggregate`: globs, sidecar exclusion, stdin spill, line offsets. */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { GymError } from "../errors.ts";
import { readBytes } from "../runtime/files.ts";

/** File stems that are a run's companions, never shards of results (NeMo Gym 0.5 merged them: a bug). */
const SIDECAR_STEM = /(_failures|_materialized_inputs|_reward_profiling|_repeat_level_metrics|\.resume-drift)$|^rollout_verdicts$/;

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
      if (SIDECAR_STEM.test(path.basename(m).replace(/\.jsonl$/, ""))) sidecars.push(m);
      else seen.add(m);
    }
  }
  return { shards: [...seen], sidecars };
}

/** Copies stdin to a temporary file so that its rows can be re-read in sorted order. */
export async function spillStdin(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gym-stdin-"));
  const file = path.join(dir, "stdin.jsonl");
  const fd = fs.openSync(file, "w");
  try {
    for await (const chunk of readBytes("-")) fs.writeSync(fd, chunk);
  } finally {
    fs.closeSync(fd);
  }
  return file;
}

/** One non-blank line of a shard: where its bytes are, and its text. */
export interface ScannedLine {
  text: string;
  line: number;
  offset: number;
  length: number;
}

/** Streams a file's lines with byte offsets (for re-reading by position) and hashes the bytes on the way. */
export async function* scanLines(file: string, hash?: ReturnType<typeof createHash>): AsyncGenerator<ScannedLine> {
  const decoder = new TextDecoder();
  let pending: Uint8Array | null = null;
  let pendingOffset = 0;
  let base = 0;
  let lineNo = 0;
  const emit = (bytes: Uint8Array, offset: number): ScannedLine | null => {
    lineNo++;
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === 13) end--;
    let start = 0;
    if (offset === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
    const text = decoder.decode(bytes.subarray(start, end));
    return text.trim() === "" ? null : { text, line: lineNo, offset: offset + start, length: end - start };
  };
  for await (const chunk of readBytes(file)) {
    hash?.update(chunk);
    let from = 0;
    let nl: number;
    while ((nl = chunk.indexOf(10, from)) !== -1) {
      let bytes = chunk.subarray(from, nl);
      let offset = base + from;
      if (pending) {
        const joined: Uint8Array = new Uint8Array(pending.length + bytes.length);
        joined.set(pending);
        joined.set(bytes, pending.length);
        bytes = joined;
        offset = pendingOffset;
        pending = null;
      }
      const line = emit(bytes, offset);
      if (line) yield line;
      from = nl + 1;
    }
    if (from < chunk.length) {
      const rest = chunk.subarray(from);
      if (pending) {
        const joined: Uint8Array = new Uint8Array(pending.length + rest.length);
        joined.set(pending);
        joined.set(rest, pending.length);
        pending = joined;
      } else {
        pending = rest.slice();
        pendingOffset = base + from;
      }
    }
    base += chunk.length;
  }
  if (pending) {
    const line = emit(pending, pendingOffset);
    if (line) yield line;
  }
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
