/** Shard discovery and scanning for `gym eval aggregate` and `profile`: globs, sidecar exclusion, stdin spill, line batches with byte offsets. */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { GymError } from "../../errors.ts";
import { readBytes } from "../../runtime/files.ts";

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

/**
 * The lines of one chunk of a file (all but the last end in a newline): their text (CR and a file-leading
 * BOM removed) and where their bytes are, for copying or re-reading rows later without their text.
 */
export interface LineBatch {
  texts: string[];
  /** Line number of texts[0] (from 1). */
  firstLine: number;
  offsets: number[];
  lengths: number[];
  /** The chunk held bytes that are not valid UTF-8 (decoded as U+FFFD): copy such rows as text, not bytes. */
  lossy: boolean;
}

const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

function concat(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) out.set(p, at), (at += p.length);
  return out;
}

/**
 * Streams a file's lines in batches (one per chunk read), with byte offsets, hashing the bytes on the way.
 * One decode and one split per chunk (plus the line straddling two chunks): per-line work is left to the
 * caller's loop.
 */
export async function* scanLineBatches(file: string, hash?: ReturnType<typeof createHash>): AsyncGenerator<LineBatch> {
  let carry: Uint8Array[] = [];
  let carryBytes = 0;
  let base = 0; // file offset of the first byte not yet emitted
  let lineNo = 0;
  const emit = (batch: LineBatch, block: Uint8Array, blockStart: number, terminated: boolean): void => {
    let text = utf8.decode(block);
    const oneToOne = text.length === block.length;
    let at = 0; // byte position in block
    if (blockStart === 0 && text.charCodeAt(0) === 0xfeff) {
      text = text.slice(1);
      at = 3;
    }
    const parts = text.split("\n");
    if (terminated) parts.pop();
    if (!batch.lossy && text.includes("\uFFFD")) batch.lossy = true;
    for (let i = 0; i < parts.length; i++) {
      let line = parts[i]!;
      let end: number;
      if (oneToOne) end = at + line.length;
      else {
        end = block.indexOf(10, at);
        if (end === -1) end = block.length;
      }
      let length = end - at;
      if (line.charCodeAt(line.length - 1) === 13) {
        line = line.slice(0, -1);
        length--;
      }
      batch.texts.push(line);
      batch.offsets.push(blockStart + at);
      batch.lengths.push(length);
      at = end + 1;
    }
    lineNo += parts.length;
  };
  const fresh = (): LineBatch => ({ texts: [], firstLine: lineNo + 1, offsets: [], lengths: [], lossy: false });
  // One read buffer for the whole file: whatever outlives a chunk (the line it ends inside) is copied.
  for await (const chunk of readBytes(file, { reuseBuffer: true })) {
    hash?.update(chunk);
    let from = 0;
    const batch = fresh();
    if (carryBytes > 0) {
      // The line begun in earlier chunks: join just its bytes.
      const nl = chunk.indexOf(10);
      if (nl === -1) {
        carry.push(chunk.slice());
        carryBytes += chunk.length;
        continue;
      }
      carry.push(chunk.subarray(0, nl + 1));
      emit(batch, concat(carry, carryBytes + nl + 1), base, true);
      base += carryBytes + nl + 1;
      carry = [];
      carryBytes = 0;
      from = nl + 1;
    }
    const last = chunk.lastIndexOf(10);
    if (last >= from) {
      emit(batch, chunk.subarray(from, last + 1), base, true);
      base += last + 1 - from;
      from = last + 1;
    }
    if (from < chunk.length) {
      carry.push(chunk.slice(from));
      carryBytes += chunk.length - from;
    }
    if (batch.texts.length > 0) yield batch;
  }
  if (carryBytes > 0) {
    const batch = fresh();
    emit(batch, concat(carry, carryBytes), base, false);
    yield batch;
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
