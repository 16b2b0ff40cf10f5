/**
 * The rollouts file's outcome index (`<stem>_outcomes.idx`): for each row of the rollouts file, in file order, the
 * byte offset where it ends, its task and rollout index and its attempt, four float64 a row after a header naming
 * the rollouts file's inode. `gym eval run` appends a record after each row it appends, so a resume knows every
 * row's identity without reading the rows (32 MB for a million rows instead of GBs of JSON).
 *
 * It is trusted only as far as it checks out against the file: the same inode, offsets that grow, records past
 * the file's end dropped (a killed run's torn tail), a newline where its last record ends, and a spread sample of
 * records whose rows scan to the same identity and attempt. Rows past the last record (the index lagged at a kill,
 * or another tool appended) are scanned and added. Anything else (another file, a row the index cannot encode)
 * rebuilds it from a full scan, or drops it: a stale or torn index never decides an outcome.
 */
import * as fs from "node:fs";
import { RowReader, UNREADABLE } from "../jsonl/rows.ts";

const MAGIC = 0x67796d6f; // "gymo"
const VERSION = 1;
const FIELDS = 4;
const RECORD = FIELDS * 8;
const SAMPLES = 256;

/** One row's outcome: where it ends in the file, its identity and attempt. */
export interface IndexedRow {
  end: number;
  task: number;
  rollout: number;
  attempt: number;
}

const plainIndex = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

/** The record of a parsed-or-scanned row, or undefined when its identity is not plain integers (the index cannot hold it). */
export function indexedRow(row: Record<string, unknown>, end: number): IndexedRow | undefined {
  const task = row._ng_task_index;
  const rollout = row._ng_rollout_index;
  const attempt = row._ng_attempt_index ?? 0;
  if (!plainIndex(task) || !plainIndex(rollout) || !plainIndex(attempt)) return undefined;
  return { end, task, rollout, attempt };
}

function inodeOf(file: string): number | undefined {
  return fs.statSync(file, { throwIfNoEntry: false })?.ino;
}

/** Reads and checks the index of `rolloutsFile` (of `size` bytes): the rows it vouches for, or undefined. */
function readChecked(indexFile: string, rolloutsFile: string, size: number): IndexedRow[] | undefined {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(indexFile);
  } catch {
    return undefined;
  }
  if (bytes.length < RECORD) return undefined;
  const whole = Math.floor(bytes.length / RECORD) * FIELDS; // a torn last record is dropped
  const all = new Float64Array(whole);
  new Uint8Array(all.buffer).set(bytes.subarray(0, whole * 8));
  if (all[0] !== MAGIC || all[1] !== VERSION || all[2] !== inodeOf(rolloutsFile)) return undefined;
  const rows: IndexedRow[] = [];
  let before = 0;
  for (let at = FIELDS; at + FIELDS <= all.length; at += FIELDS) {
    const row = { end: all[at]!, task: all[at + 1]!, rollout: all[at + 2]!, attempt: all[at + 3]! };
    if (!(row.end > before) || !Number.isSafeInteger(row.end) || !plainIndex(row.task) || !plainIndex(row.rollout) || !plainIndex(row.attempt)) return undefined;
    if (row.end > size) break; // written for a row the file does not hold (cut off): it and what follows go
    rows.push(row);
    before = row.end;
  }
  return sampleHolds(rolloutsFile, rows) ? rows : undefined;
}

/** Whether the last record and a spread sample end at a newline and scan to the identity and attempt they record. */
function sampleHolds(file: string, rows: IndexedRow[]): boolean {
  if (rows.length === 0) return true;
  const fd = fs.openSync(file, "r");
  const reader = new RowReader({ badLines: "mark" });
  try {
    const step = Math.max(1, Math.floor(rows.length / SAMPLES));
    for (let i = rows.length - 1; i >= 0; i -= step) {
      const start = i === 0 ? 0 : rows[i - 1]!.end;
      const length = rows[i]!.end - start;
      const buffer = Buffer.allocUnsafe(length);
      if (fs.readSync(fd, buffer, 0, length, start) !== length || buffer[length - 1] !== 10) return false;
      const row = reader.line(buffer.toString("utf8", 0, length - 1), file, 1);
      if (!row || row === UNREADABLE) return false;
      const seen = indexedRow(row, rows[i]!.end);
      if (!seen || seen.task !== rows[i]!.task || seen.rollout !== rows[i]!.rollout || seen.attempt !== rows[i]!.attempt) return false;
    }
    return true;
  } finally {
    fs.closeSync(fd);
  }
}

/** The rows of `file` from byte `from` on, scanned (no row built); undefined when a row cannot be indexed. */
async function scanFrom(file: string, from: number): Promise<IndexedRow[] | undefined> {
  const reader = new RowReader({ badLines: "mark" });
  const rows: IndexedRow[] = [];
  if (from === 0) {
    for await (const batch of reader.batches(file)) {
      for (let i = 0; i < batch.rows.length; i++) {
        const row = batch.rows[i]!;
        const end = batch.offsets[i]! + batch.lengths[i]! + 1;
        const indexed = row === UNREADABLE ? undefined : indexedRow(row, end);
        if (!indexed) return undefined;
        rows.push(indexed);
      }
    }
    return rows;
  }
  // A tail (rows the index lagged behind): read whole, line by line.
  const size = fs.statSync(file).size;
  const buffer = Buffer.allocUnsafe(size - from);
  const fd = fs.openSync(file, "r");
  try {
    fs.readSync(fd, buffer, 0, buffer.length, from);
  } finally {
    fs.closeSync(fd);
  }
  let start = 0;
  while (start < buffer.length) {
    let nl = buffer.indexOf(10, start);
    if (nl === -1) return undefined; // an unterminated last line: the parsing read decides
    const text = buffer.toString("utf8", start, nl);
    if (text.trim() !== "") {
      const row = reader.line(text, file, 1);
      const indexed = !row || row === UNREADABLE ? undefined : indexedRow(row, from + nl + 1);
      if (!indexed) return undefined;
      rows.push(indexed);
    }
    start = nl + 1;
  }
  return rows;
}

/**
 * Every row of the rollouts file as (identity, attempt), from its index where it checks out and a scan of the rest;
 * the index is left covering the whole file (repaired or rebuilt). Undefined when some row cannot be indexed (then
 * no index is kept, and the caller reads the rows).
 */
export async function indexedOutcomes(rolloutsFile: string, indexFile: string): Promise<IndexedRow[] | undefined> {
  const size = fs.statSync(rolloutsFile, { throwIfNoEntry: false })?.size ?? 0;
  if (size === 0) {
    writeIndex(indexFile, rolloutsFile, []);
    return [];
  }
  const kept = readChecked(indexFile, rolloutsFile, size) ?? [];
  const covered = kept.length > 0 ? kept.at(-1)!.end : 0;
  const rest = covered < size ? await scanFrom(rolloutsFile, covered) : [];
  if (!rest) {
    fs.rmSync(indexFile, { force: true });
    return undefined;
  }
  const rows = rest.length > 0 ? kept.concat(rest) : kept;
  if (rest.length > 0 || fileRecords(indexFile) !== kept.length) writeIndex(indexFile, rolloutsFile, rows);
  return rows;
}

function fileRecords(indexFile: string): number {
  const size = fs.statSync(indexFile, { throwIfNoEntry: false })?.size ?? 0;
  return size === 0 ? -1 : size / RECORD - 1;
}

/** Writes the index of `rows` whole (temp file, rename). */
function writeIndex(indexFile: string, rolloutsFile: string, rows: IndexedRow[]): void {
  const out = new Float64Array(FIELDS * (rows.length + 1));
  out.set([MAGIC, VERSION, inodeOf(rolloutsFile) ?? 0, 0]);
  for (let i = 0; i < rows.length; i++) out.set([rows[i]!.end, rows[i]!.task, rows[i]!.rollout, rows[i]!.attempt], FIELDS * (i + 1));
  const tmp = `${indexFile}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, new Uint8Array(out.buffer));
  fs.renameSync(tmp, indexFile);
}

/**
 * Appends a record after each row the run appends to the rollouts file (records of one loop turn in one write,
 * after the rows': the rollouts appender's flush is scheduled first). Only opened over an index that covers the
 * whole file; a row it cannot encode stops it and removes the file (the next resume scans instead).
 */
export class OutcomeIndexWriter {
  private buffer = new Float64Array(FIELDS * 1024);
  private used = 0;
  private scheduled = false;
  private fd: number | undefined;

  private constructor(
    private readonly file: string,
    private end: number,
  ) {
    this.fd = fs.openSync(file, "a");
  }

  /** Opens the index for appending when it covers `rolloutsFile` exactly (as `indexedOutcomes` leaves it). */
  static open(indexFile: string, rolloutsFile: string): OutcomeIndexWriter | undefined {
    const size = fs.statSync(rolloutsFile, { throwIfNoEntry: false })?.size ?? 0;
    if (size === 0) writeIndex(indexFile, rolloutsFile, []);
    const bytes = fs.statSync(indexFile, { throwIfNoEntry: false })?.size ?? 0;
    if (bytes < RECORD || bytes % RECORD !== 0) return undefined;
    let last = 0;
    if (bytes > RECORD) {
      const tail = Buffer.allocUnsafe(8);
      const fd = fs.openSync(indexFile, "r");
      fs.readSync(fd, tail, 0, 8, bytes - RECORD);
      fs.closeSync(fd);
      last = tail.readDoubleLE(0);
    }
    return last === size ? new OutcomeIndexWriter(indexFile, size) : undefined;
  }

  /** The row just appended (its line's byte length, with the newline). */
  add(row: Record<string, unknown>, lineBytes: number): void {
    if (this.fd === undefined) return;
    this.end += lineBytes;
    const record = indexedRow(row, this.end);
    if (!record) return this.drop();
    if (this.used === this.buffer.length) this.flush();
    this.buffer.set([record.end, record.task, record.rollout, record.attempt], this.used);
    this.used += FIELDS;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  flush(): void {
    this.scheduled = false;
    if (this.fd === undefined || this.used === 0) return;
    try {
      fs.writeSync(this.fd, new Uint8Array(this.buffer.buffer, 0, this.used * 8));
    } catch {
      return this.drop();
    }
    this.used = 0;
  }

  close(): void {
    this.flush();
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }

  private drop(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
    fs.rmSync(this.file, { force: true });
  }
}
