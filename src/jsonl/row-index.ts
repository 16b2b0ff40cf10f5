/**
 * The row index of a JSONL file: the byte offset and length of every row, built in one streaming pass, kept in
 * typed arrays, cached on disk (keyed by size, mtime and digests of the head and of the bytes before the last
 * indexed newline) and extended, not rebuilt, when the file only grew. A row is a non-blank line; its length
 * leaves out the newline and a CR before it. Readers fetch a row by range, so nothing loads the whole file.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { GymError } from "../errors.ts";
import { writeFileAtomic } from "../runtime/files.ts";

const CHUNK = 1 << 20;
const DIGEST_BYTES = 64 * 1024;
const MAGIC = "GYMROWIDX1\n";

/** Offsets and lengths of a file's rows, as of the last build or refresh. */
export interface RowIndex {
  /** The file, as given. */
  readonly file: string;
  /** Rows found (a last line without its newline counts). */
  readonly count: number;
  /** File size and mtime the index describes. */
  readonly size: number;
  readonly mtimeMs: number;
  /** Byte just after the last newline: an extension re-reads from here (a row written half-way is re-read). */
  readonly complete: number;
  /** Rows carried over unchanged from the index this one refreshed (0 when it was built afresh). */
  readonly reused: number;
  /** Byte offset of row i. */
  offset(i: number): number;
  /** Byte length of row i (without its line end). */
  length(i: number): number;
}

export interface RowIndexOptions {
  /** Folder for the on-disk cache (e.g. `<gym cache>/row-index`); without it nothing is cached. */
  cacheDir?: string;
  /** Called after each chunk of a pass with the bytes this pass has read and the bytes it will read (an extension reads only the new ones). */
  onProgress?: (bytes: number, total: number) => void;
}

class Index implements RowIndex {
  constructor(
    readonly file: string,
    public offsets: Float64Array,
    public lengths: Uint32Array,
    public count: number,
    public size: number,
    public mtimeMs: number,
    public complete: number,
    public head: string,
    public tail: string,
    public reused = 0,
  ) {}
  offset(i: number): number {
    return this.offsets[i]!;
  }
  length(i: number): number {
    return this.lengths[i]!;
  }
  push(offset: number, length: number): void {
    if (this.count === this.offsets.length) {
      const grown = Math.max(1024, this.count * 2);
      const o = new Float64Array(grown);
      o.set(this.offsets);
      const l = new Uint32Array(grown);
      l.set(this.lengths);
      this.offsets = o;
      this.lengths = l;
    }
    this.offsets[this.count] = offset;
    this.lengths[this.count++] = length;
  }
}

/** Opens (from the cache, extended if the file grew) or builds the row index of `file`. */
export async function openRowIndex(file: string, options: RowIndexOptions = {}): Promise<RowIndex> {
  const stat = statOf(file);
  const cached = options.cacheDir ? loadCached(file, options.cacheDir) : undefined;
  const index = cached && cached.size <= stat.size && sameStart(file, cached) ? cached : empty(file);
  return refreshIndex(index, stat, options);
}

/** Brings an index up to date with its file: unchanged → the same index; grown → extended; anything else → rebuilt. */
export async function refreshRowIndex(index: RowIndex, options: RowIndexOptions = {}): Promise<RowIndex> {
  const stat = statOf(index.file);
  const own = index as Index;
  if (stat.size === own.size && stat.mtimeMs === own.mtimeMs) {
    own.reused = own.count;
    return own;
  }
  const base = stat.size >= own.size && sameStart(own.file, own) ? own : empty(own.file);
  return refreshIndex(base, stat, options);
}

/**
 * The row index of the rows a caller's own pass over `file` found (its offsets and lengths, in file order),
 * for the file as it was when the pass began (`stillCurrent` tells whether it changed since). Not cached.
 */
export class RowIndexBuilder {
  private readonly index: Index;

  constructor(file: string) {
    const stat = statOf(file);
    this.index = new Index(file, new Float64Array(1024), new Uint32Array(1024), 0, stat.size, stat.mtimeMs, stat.size, "", "");
  }

  push(offset: number, length: number): number {
    this.index.push(offset, length);
    return this.index.count - 1;
  }

  build(): RowIndex {
    return this.index;
  }
}

/** Whether the file still has the size and mtime its index describes. */
export function stillCurrent(index: RowIndex): boolean {
  const stat = fs.statSync(index.file, { throwIfNoEntry: false });
  return stat !== undefined && stat.size === index.size && stat.mtimeMs === index.mtimeMs;
}

/**
 * The rows numbered `rows` (ascending) as text, read in blocks that span neighbouring rows (a sparse pick
 * reads only near its rows: a gap of more than 64 KB starts a new read).
 */
export function* readRowsAt(index: RowIndex, rows: ArrayLike<number>, count = rows.length): Generator<{ i: number; text: string }> {
  const decoder = new TextDecoder();
  const fd = fs.openSync(index.file, "r");
  try {
    let buffer = new Uint8Array(CHUNK);
    for (let k = 0; k < count; ) {
      const first = rows[k]!;
      const from = index.offset(first);
      let last = k;
      for (;;) {
        const next = rows[last + 1];
        if (last + 1 >= count || next === undefined) break;
        const prevEnd = index.offset(rows[last]!) + index.length(rows[last]!);
        if (index.offset(next) - prevEnd > GAP || index.offset(next) + index.length(next) - from > buffer.length) break;
        last++;
      }
      const span = index.offset(rows[last]!) + index.length(rows[last]!) - from;
      if (span > buffer.length) buffer = new Uint8Array(span);
      let n = 0;
      while (n < span) {
        const got = fs.readSync(fd, buffer, n, span - n, from + n);
        if (got === 0) break;
        n += got;
      }
      for (let j = k; j <= last; j++) {
        const at = index.offset(rows[j]!) - from;
        const text = decoder.decode(buffer.subarray(at, Math.min(n, at + index.length(rows[j]!))));
        yield { i: rows[j]!, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
      }
      k = last + 1;
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** Bytes between picked rows beyond which readRowsAt reads again rather than through them. */
const GAP = 64 * 1024;

/** The bytes of row i, read by range. */
export function readRowBytes(index: RowIndex, i: number): Uint8Array {
  if (!(i >= 0 && i < index.count)) throw new GymError("E_USAGE", `${index.file}: no row ${i} (the file has ${index.count} rows).`);
  const buffer = new Uint8Array(index.length(i));
  const fd = fs.openSync(index.file, "r");
  try {
    let done = 0;
    while (done < buffer.length) {
      const n = fs.readSync(fd, buffer, done, buffer.length - done, index.offset(i) + done);
      if (n === 0) break;
      done += n;
    }
    return done === buffer.length ? buffer : buffer.subarray(0, done);
  } finally {
    fs.closeSync(fd);
  }
}

/** Row i as text (UTF-8; a leading BOM on the first row is dropped). */
export function readRowText(index: RowIndex, i: number): string {
  const text = new TextDecoder().decode(readRowBytes(index, i));
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Rows [start, end) as text, read in large blocks (a pass over many rows without one read per row). */
export function* readRowTexts(index: RowIndex, start = 0, end = index.count): Generator<{ i: number; text: string }> {
  const decoder = new TextDecoder();
  const fd = fs.openSync(index.file, "r");
  try {
    let buffer = new Uint8Array(CHUNK);
    let i = start;
    while (i < end) {
      const from = index.offset(i);
      let last = i;
      while (last + 1 < end && index.offset(last + 1) + index.length(last + 1) - from <= buffer.length) last++;
      const span = index.offset(last) + index.length(last) - from;
      if (span > buffer.length) buffer = new Uint8Array(span);
      const n = fs.readSync(fd, buffer, 0, span, from);
      for (let j = i; j <= last; j++) {
        const at = index.offset(j) - from;
        const text = decoder.decode(buffer.subarray(at, Math.min(n, at + index.length(j))));
        yield { i: j, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
      }
      i = last + 1;
    }
  } finally {
    fs.closeSync(fd);
  }
}

function statOf(file: string): fs.Stats {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) throw new GymError("E_INPUT_NOT_FOUND", `${file} is not a regular file, so it has no row index.`, { hint: "Pass a rollouts .jsonl file." });
    return stat;
  } catch (error) {
    if (error instanceof GymError) throw error;
    throw new GymError("E_INPUT_NOT_FOUND", `Cannot read ${file}: ${(error as Error).message}`, { hint: "Check the path." });
  }
}

const empty = (file: string) => new Index(file, new Float64Array(0), new Uint32Array(0), 0, 0, 0, 0, "", "");

function digest(file: string, from: number, to: number): string {
  const length = Math.max(0, to - from);
  const buffer = new Uint8Array(length);
  const fd = fs.openSync(file, "r");
  try {
    let done = 0;
    while (done < length) {
      const n = fs.readSync(fd, buffer, done, length - done, from + done);
      if (n === 0) break;
      done += n;
    }
    return createHash("sha256").update(buffer.subarray(0, done)).digest("hex");
  } finally {
    fs.closeSync(fd);
  }
}

const headDigest = (file: string, complete: number) => digest(file, 0, Math.min(complete, DIGEST_BYTES));
const tailDigest = (file: string, complete: number) => digest(file, Math.max(0, complete - DIGEST_BYTES), complete);

/** The file still starts with the bytes the index read (so appending is the only change). */
function sameStart(file: string, index: Index): boolean {
  if (index.complete === 0) return true;
  return headDigest(file, index.complete) === index.head && tailDigest(file, index.complete) === index.tail;
}

async function refreshIndex(base: Index, stat: fs.Stats, options: RowIndexOptions): Promise<RowIndex> {
  if (base.size === stat.size && base.mtimeMs === stat.mtimeMs && base.count > 0) return base;
  // Drop a row past the last newline: it may have been half-written; it is read again below.
  let count = base.count;
  while (count > 0 && base.offsets[count - 1]! >= base.complete) count--;
  const index = new Index(base.file, base.offsets, base.lengths, count, stat.size, stat.mtimeMs, base.complete, base.head, base.tail, count);
  await scan(index, stat.size, options);
  index.head = headDigest(index.file, index.complete);
  index.tail = tailDigest(index.file, index.complete);
  if (options.cacheDir) saveCached(index, options.cacheDir);
  return index;
}

/** One pass from `index.complete` to `size`: a newline search per chunk, nothing decoded. */
async function scan(index: Index, size: number, options: RowIndexOptions): Promise<void> {
  const fd = fs.openSync(index.file, "r");
  const buffer = new Uint8Array(CHUNK);
  const from = index.complete;
  let position = from;
  let lineStart = position;
  // State of the line in progress (it may span chunks): anything but blanks yet, and its last byte.
  let filled = false;
  let lastByte = -1;
  let chunks = 0;
  const end = (at: number) => {
    if (filled) index.push(lineStart, at - lineStart - (lastByte === 13 ? 1 : 0));
  };
  try {
    while (position < size) {
      const n = fs.readSync(fd, buffer, 0, Math.min(CHUNK, size - position), position);
      if (n === 0) break;
      let at = 0;
      while (at < n) {
        let nl = buffer.indexOf(10, at);
        if (nl >= n) nl = -1;
        const stop = nl === -1 ? n : nl;
        if (!filled) {
          for (let k = at; k < stop; k++) {
            const b = buffer[k]!;
            if (b !== 32 && b !== 9 && b !== 13) {
              filled = true;
              break;
            }
          }
        }
        if (stop > at) lastByte = buffer[stop - 1]!;
        if (nl === -1) break;
        end(position + nl);
        lineStart = position + nl + 1;
        filled = false;
        lastByte = -1;
        at = nl + 1;
      }
      position += n;
      options.onProgress?.(position - from, size - from);
      // Let a server answer other requests during a long pass.
      if (++chunks % 32 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    index.complete = lineStart;
    if (lineStart < position) end(position);
  } finally {
    fs.closeSync(fd);
  }
}

function cachePath(file: string, cacheDir: string): string {
  let real = path.resolve(file);
  try {
    real = fs.realpathSync(file);
  } catch {}
  return path.join(cacheDir, `${createHash("sha256").update(real).digest("hex").slice(0, 32)}.idx`);
}

interface Header {
  file: string;
  size: number;
  mtimeMs: number;
  complete: number;
  count: number;
  head: string;
  tail: string;
}

/** The cached index of `file`, or undefined when there is none or it is unreadable (a bad cache is only a miss). */
function loadCached(file: string, cacheDir: string): Index | undefined {
  try {
    const bytes = fs.readFileSync(cachePath(file, cacheDir));
    const magic = new TextDecoder().decode(bytes.subarray(0, MAGIC.length));
    if (magic !== MAGIC) return undefined;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const headerLength = view.getUint32(MAGIC.length, true);
    const headerStart = MAGIC.length + 4;
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(headerStart, headerStart + headerLength))) as Header;
    const dataStart = align8(headerStart + headerLength);
    const n = header.count;
    if (bytes.byteLength < dataStart + n * 12) return undefined;
    const offsets = new Float64Array(n);
    offsets.set(new Float64Array(bytes.buffer.slice(bytes.byteOffset + dataStart, bytes.byteOffset + dataStart + n * 8)));
    const lengths = new Uint32Array(n);
    lengths.set(new Uint32Array(bytes.buffer.slice(bytes.byteOffset + dataStart + n * 8, bytes.byteOffset + dataStart + n * 12)));
    return new Index(file, offsets, lengths, n, header.size, header.mtimeMs, header.complete, header.head, header.tail);
  } catch {
    return undefined;
  }
}

const align8 = (n: number) => Math.ceil(n / 8) * 8;

/** Writes the index to the cache (temporary file, then rename); a cache that cannot be written is skipped. */
function saveCached(index: Index, cacheDir: string): void {
  const header: Header = { file: path.resolve(index.file), size: index.size, mtimeMs: index.mtimeMs, complete: index.complete, count: index.count, head: index.head, tail: index.tail };
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const headerStart = MAGIC.length + 4;
  const dataStart = align8(headerStart + headerBytes.length);
  const out = new Uint8Array(dataStart + index.count * 12);
  out.set(new TextEncoder().encode(MAGIC), 0);
  new DataView(out.buffer).setUint32(MAGIC.length, headerBytes.length, true);
  out.set(headerBytes, headerStart);
  out.set(new Uint8Array(index.offsets.buffer, 0, index.count * 8), dataStart);
  out.set(new Uint8Array(index.lengths.buffer, 0, index.count * 4), dataStart + index.count * 8);
  const target = cachePath(index.file, cacheDir);
  try {
    writeFileAtomic(target, out);
  } catch {
    // The index is a cache: a read-only or full disk only means it is built again next time.
  }
}
