/**
 * The materialized inputs file (`<stem>_materialized_inputs.jsonl`): a fresh run writes it from the streamed
 * materialization (its digests made in the same pass, no row kept), a resume checks the current materialization
 * against it by the bytes' SHA-256, and dispatch reads its rows back one at a time. A run of a million rollouts
 * holds their identities, never their rows.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { GymError } from "../errors.ts";
import type { Row } from "../jsonl/read.ts";
import { toJsonLines } from "../jsonl/write.ts";
import { sharedCanonicalJson } from "../outputs/digest.ts";
import { identityKey } from "../outputs/paths.ts";
import { fileError, removeStaleTemps } from "../runtime/files.ts";
import type { MaterializedRows } from "../stages/materialize.ts";
import { MemoryBound } from "../runtime/memory.ts";
import { collectGarbage } from "../runtime/gc.ts";

/** What the manifest records of the file it was written with: its bytes' SHA-256, size and mtime. */
export interface InputsFile {
  sha256: string;
  size: number;
  mtime_ms: number;
  /** The materialization key the rows were made under (input digest, options, materialize's version). */
  key?: string;
  /** Rows in the file, and the sha256 of the identities file (`<stem>_materialized_ids.txt`). */
  rows?: number;
  ids_sha256?: string;
}

/** The materialized digest (canonical JSON of the row list, as `materializedDigest` hashes it), a row at a time. */
export class MaterializedDigest {
  private readonly hash = createHash("sha256");
  private canonicalJson = sharedCanonicalJson();
  private pending = "[";
  private count = 0;

  add(row: Row): void {
    // Shared values (a task's repeats are neighbours) are made once per few thousand rows, not kept for the run.
    if (this.count % 4096 === 0 && this.count > 0) this.canonicalJson = sharedCanonicalJson();
    this.pending += `${this.count++ ? "," : ""}${this.canonicalJson(row)}`;
    if (this.pending.length >= 65536) {
      this.hash.update(this.pending);
      this.pending = "";
    }
  }

  hex(): string {
    this.hash.update(`${this.pending}]`);
    this.pending = "";
    return this.hash.digest("hex");
  }
}

export interface InputsPass {
  /** Each row's identity (`task-rollout`), in order. */
  ids: string[];
  /** The identities file's text: each identity and a newline. */
  idsText: string;
  /** Distinct task indices. */
  tasks: number;
  /** SHA-256 of the rows' JSON lines (the file's bytes). */
  sha256: string;
  /** The materialized digest, when asked for. */
  digest?: string;
}

/**
 * One pass over the materialized rows: identities, the SHA-256 of their JSON lines, the canonical digest if
 * `canonical`, and the lines written to `write` if given. Rows go by in blocks of 4096 (a task's repeats,
 * which share values, serialised once per block).
 */
export async function passInputs(source: MaterializedRows, options: { canonical?: boolean; write?: (piece: string) => void } = {}): Promise<InputsPass> {
  // The identities are kept as one text a block at a time and split once the pass is over: a million small strings
  // made one per row would sit among the rows' garbage, and their pages would stay resident after it is collected.
  const idChunks: string[] = [];
  let blockIds: string[] = [];
  const tasks = new Set<unknown>();
  const bytes = createHash("sha256");
  const digest = options.canonical ? new MaterializedDigest() : undefined;
  let block: Row[] = [];
  const memory = new MemoryBound();
  const flush = () => {
    memory.check();
    const piece = toJsonLines(block);
    bytes.update(piece);
    options.write?.(piece);
    block = [];
    idChunks.push(`${blockIds.join("\n")}\n`);
    blockIds = [];
  };
  for await (const row of source.rows()) {
    blockIds.push(identityKey(row));
    tasks.add(row._ng_task_index);
    digest?.add(row);
    block.push(row);
    if (block.length === 4096) flush();
  }
  if (block.length > 0) flush();
  const sha = bytes.digest("hex");
  const digestHex = digest?.hex();
  const idsText = idChunks.length > 0 ? idChunks.join("") : "\n"; // no row: the identities file is one newline, as before
  const rows = idChunks.length;
  idChunks.length = 0;
  collectGarbage();
  const ids = rows > 0 ? idsText.split("\n") : [""];
  ids.pop();
  return { ids, idsText, tasks: tasks.size, sha256: sha, digest: digestHex };
}

/** Writes the materialized inputs file atomically from the streamed rows (temp file, fsync, rename). */
export async function writeInputs(target: string, source: MaterializedRows): Promise<InputsPass & { file: InputsFile; digest: string }> {
  const dir = path.dirname(path.resolve(target));
  fs.mkdirSync(dir, { recursive: true });
  removeStaleTemps(target);
  const tmp = path.join(dir, `.${path.basename(target)}.${process.pid}.${Date.now()}.tmp`);
  let fd: number | undefined;
  try {
    fd = fs.openSync(tmp, "w");
    const out = fd;
    const pass = await passInputs(source, { canonical: true, write: (piece) => writeAll(out, piece) });
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(tmp, target);
    const stat = fs.statSync(target);
    return { ...pass, digest: pass.digest!, file: { sha256: pass.sha256, size: stat.size, mtime_ms: stat.mtimeMs } };
  } catch (error) {
    if (fd !== undefined) fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    if (error instanceof GymError) throw error;
    throw fileError(target, error);
  }
}

function writeAll(fd: number, text: string): void {
  const buffer = Buffer.from(text);
  let at = 0;
  while (at < buffer.length) at += fs.writeSync(fd, buffer, at, buffer.length - at);
}

/** Whether the file is still the one the manifest recorded: same size and mtime, or else the same bytes. */
export async function inputsUnchanged(file: string, saved: InputsFile): Promise<boolean> {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat || stat.size !== saved.size) return false;
  if (stat.mtimeMs === saved.mtime_ms) return true;
  const hash = createHash("sha256");
  const fd = fs.openSync(file, "r");
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    for (let n; (n = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0; ) hash.update(buffer.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest("hex") === saved.sha256;
}

/**
 * The rows of the materialized inputs file, read back in order a block at a time (synchronously, so a budget's
 * gate can pull them). Blank lines are passed over; a line that is not a JSON object names file:line.
 */
export function* readInputRows(file: string): Generator<Row> {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch (error) {
    throw fileError(file, error);
  }
  const decoder = new TextDecoder("utf-8", { ignoreBOM: false });
  const buffer = Buffer.allocUnsafe(1 << 20);
  let pending = "";
  let line = 0;
  const parse = (text: string): Row | undefined => {
    line++;
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.trim() === "") return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new GymError("E_RESUME_DRIFT", `${file}:${line}: not a JSON object (the run's materialized inputs were edited or damaged).`, {
        hint: "Restore the file, or start a fresh run without --resume.",
      });
    }
    return value as Row;
  };
  try {
    for (let n; (n = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0; ) {
      const text = pending + decoder.decode(buffer.subarray(0, n), { stream: true });
      let from = 0;
      for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", from)) {
        const row = parse(text.slice(from, nl));
        from = nl + 1;
        if (row) yield row;
      }
      pending = text.slice(from);
    }
    pending += decoder.decode();
    if (pending.length > 0) {
      const row = parse(pending);
      if (row) yield row;
    }
  } finally {
    fs.closeSync(fd);
  }
}
