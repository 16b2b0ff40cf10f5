/**
 * The materialized-inputs index: reverify's only in-memory table (where each row's bytes are in the file, and
 * the few fields routing and stamping need). A row's text is read back from the file when its payload is built;
 * only an input that cannot be read twice (stdin, a pipe) keeps each row's text.
 */
import * as fs from "node:fs";
import { emptyInput, GymError } from "../../errors.ts";
import type { Row } from "../../jsonl/read.ts";
import { RowReader } from "../../jsonl/rows.ts";
import { isStream } from "../../runtime/files.ts";
import { type Prompt, rowPrompt } from "../../protocol/prompt/digest.ts";
import { type IdentityKey, identityOf, missingIdentityError } from "./lines.ts";

/** Fields copied from the materialized row onto each result, in the order they are stamped. */
export const STAMP_KEYS = ["_ng_task_index", "_ng_rollout_index", "agent_ref", "_ng_environment_server", "task_source", "skills_ref"] as const;

/** Bits of `InputEntry.state`, set as the run learns about an identity (keeps per-identity facts off extra maps). */
export const State = {
  /** A row of the verify source joined it (join check). */
  joined: 1,
  /** Already in the output (resume, or judge recovery's seeded successes). */
  done: 2,
  /** A terminal row in the output's own failures sidecar. */
  terminal: 4,
  /** Picked for verification in this invocation (dedupes judge-failure rows). */
  picked: 8,
} as const;

export interface InputEntry {
  /**
   * Where the materialized row is in its file (the verify payload is built from its exact bytes, so Python
   * floats survive), or, when the file cannot be read again, its text.
   */
  file: InputsFile | undefined;
  offset: number;
  length: number;
  text: string | undefined;
  line: number;
  /** The stamp fields present on the row. */
  stamps: Row;
  /** The row has its own `response` key (then the payload is rebuilt from the parsed row). */
  hasResponse: boolean;
  /** Line of the verify-source row that joined it (for duplicate reports). */
  joinedAt: number;
  /** Failure rows of this identity in the output's sidecar (resume's retry cap). */
  attempts: number;
  state: number;
  /** The resources server its payload routes to (resolved once). */
  server?: string;
  /** Its prompt (see `promptDigest`), to check that the rollout joined with it answers that prompt. */
  prompt?: Prompt;
}

/** The inputs file as it was read: a row read back later must come from the same bytes. */
export interface InputsFile {
  path: string;
  size: number;
  mtimeMs: number;
}

export interface InputsIndex {
  source: string;
  entries: Map<IdentityKey, InputEntry>;
}

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** The exact text of an input row (without its newline). */
export function entryText(entry: InputEntry): string {
  const { file, offset, length } = entry;
  if (file === undefined) return entry.text!;
  const bytes = new Uint8Array(length);
  let fd: number | undefined;
  try {
    fd = fs.openSync(file.path, "r");
    const stat = fs.fstatSync(fd);
    if (stat.size !== file.size || stat.mtimeMs !== file.mtimeMs) throw changedError(file.path);
    let done = 0;
    while (done < length) {
      const n = fs.readSync(fd, bytes, done, length - done, offset + done);
      if (n === 0) throw changedError(file.path);
      done += n;
    }
  } catch (error) {
    if (error instanceof GymError) throw error;
    throw new GymError("E_INPUT_NOT_FOUND", `Cannot read ${file.path} again (--inputs): ${(error as Error).message}`, { hint: "Keep the materialized inputs in place while reverify runs." });
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
  return decoder.decode(bytes);
}

function changedError(file: string): GymError {
  return new GymError("E_INPUT_SCHEMA", `${file} changed while reverify ran (--inputs): its rows are read again to build each /verify payload.`, { hint: "Do not modify the materialized inputs while reverify runs; run it again." });
}

/** Reads `--inputs` into the index. A row without identity, or an identity seen twice, is an error naming file:line. */
export async function loadInputs(file: string): Promise<InputsIndex> {
  const entries = new Map<IdentityKey, InputEntry>();
  const source = file === "-" ? "<stdin>" : file;
  // A file is read back by offset; stdin or a pipe keeps each row's text (it cannot be read twice).
  let place: InputsFile | undefined;
  if (!isStream(file)) {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat) place = { path: file, size: stat.size, mtimeMs: stat.mtimeMs };
  }
  const lastStamp: (Row | undefined)[] = [];
  // Materialized inputs are short rows (a prompt and a few fields): JSON.parse of each line natively costs less
  // than skipping through it in the scanner (2x the bare loop on 160-byte rows); only the stamps are kept.
  const reader = new RowReader({ json: true });
  for await (const batch of reader.batches(file, { shown: source })) {
    const { rows, lines, offsets, lengths } = batch;
    for (let i = 0; i < rows.length; i++) {
      const value = rows[i]!;
      const key = identityOf(value);
      if (key === undefined) throw missingIdentityError({ value, text: "", source, line: lines[i]! }, "materialized input");
      const earlier = entries.get(key);
      if (earlier) {
        throw new GymError("E_INPUT_SCHEMA", `${source}:${lines[i]}: identity (_ng_task_index ${value._ng_task_index}, _ng_rollout_index ${value._ng_rollout_index}) already appeared on line ${earlier.line}.`, {
          hint: "A materialized-inputs file has one row per rollout; pass the file `gym eval run` wrote, not a concatenation of runs.",
        });
      }
      const stamps: Row = {};
      for (let s = 0; s < STAMP_KEYS.length; s++) {
        const k = STAMP_KEYS[s]!;
        if (!Object.hasOwn(value, k)) continue;
        let v = value[k];
        // Every row of an agent holds the same agent_ref: one object is kept for them (stamps are only read).
        if (v !== null && typeof v === "object") {
          const earlier = lastStamp[s];
          if (earlier !== undefined && sameFlat(earlier, v as Row)) v = earlier;
          else if (!Array.isArray(v)) lastStamp[s] = v as Row;
        }
        stamps[k] = v;
      }
      entries.set(key, { file: place, offset: offsets[i]!, length: lengths[i]!, text: place ? undefined : batch.text(i), line: lines[i]!, stamps, hasResponse: Object.hasOwn(value, "response"), joinedAt: 0, attempts: 0, state: 0, prompt: rowPrompt(value) });
    }
  }
  if (entries.size === 0) throw emptyInput(source, "--inputs");
  if (place) {
    const after = fs.statSync(file, { throwIfNoEntry: false });
    if (after?.size !== place.size || after.mtimeMs !== place.mtimeMs) throw changedError(file);
  }
  return { source, entries };
}

/** Whether two objects hold the same keys in the same order with the same string, number, bool or null values. */
function sameFlat(a: Row, b: Row): boolean {
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const x = a[ka[i]!];
    if (ka[i] !== kb[i] || (x !== null && typeof x === "object") || !Object.is(x, b[kb[i]!])) return false;
  }
  return true;
}

/**
 * The `/verify` body: the materialized row with `response` set to the stored one (the input row wins for
 * every other field, because it holds verifier fields the rollout may not echo). The row's text is reused
 * verbatim when it has no `response` of its own, so `1.0` stays a float on the wire.
 */
export function verifyPayload(entry: InputEntry, response: unknown, extra?: Row): string {
  const text = entryText(entry);
  if (entry.hasResponse || extra) {
    const row = JSON.parse(text) as Row;
    row.response = response;
    return JSON.stringify(extra ? Object.assign(row, extra) : row);
  }
  const head = text.trimEnd().slice(0, -1).trimEnd();
  const member = `"response":${JSON.stringify(response)}`;
  return head.endsWith("{") ? `${head}${member}}` : `${head},${member}}`;
}
