/**
 * Copies rows (known by file, byte offset and length) into a new file in a given order, as bytes: one
 * sequential reader per run of rows that are in file order, so k interleaved sorted runs cost k streams,
 * not one read per row.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ByteText } from "../../metrics/byte-text.ts";
import { fileError } from "../../runtime/files.ts";
import { openTempBeside } from "./files.ts";
import { LineReader } from "./shards.ts";

const NEWLINE = new Uint8Array([10]);
/** Views per writev (two a row: the row and its newline), within Linux's IOV_MAX of 1024. */
const MAX_VIEWS = 1024;

/** Buffered byte output into a temporary file that `commit()` renames over the target. */
export class ByteWriter {
  private fd: number;
  private readonly tmp: string;
  /** Text and bytes to write (flushed to the file as its buffer fills). */
  readonly out: ByteText;

  /** `buffer`: bytes gathered per write (a big copy gains from fewer, larger writes). */
  constructor(readonly target: string, buffer = 1 << 20) {
    ({ tmp: this.tmp, fd: this.fd } = openTempBeside(target));
    this.out = new ByteText((bytes) => {
      let done = 0;
      while (done < bytes.length) done += fs.writeSync(this.fd, bytes, done, bytes.length - done);
    }, buffer);
  }

  /** Appends bytes[start, end) and a newline. */
  line(bytes: Uint8Array, start: number, end: number): void {
    if (this.views.length > 0) this.writeViews();
    this.out.line(bytes, start, end);
  }

  /** Views of rows queued by `view`, each followed by a newline, written by one writev per batch. */
  private readonly views: Uint8Array[] = [];

  /**
   * Appends bytes[start, end) and a newline, written from `bytes` itself (no copy into the buffer: a
   * merged copy of hundreds of MB costs half the CPU so). `bytes` must stay as they are until `writeViews()`.
   */
  view(bytes: Uint8Array, start: number, end: number): void {
    if (this.out.size > 0) this.out.drain();
    if (this.views.length >= MAX_VIEWS) this.writeViews();
    this.views.push(bytes.subarray(start, end), NEWLINE);
  }

  /** Writes the queued views (before the bytes they point into change). */
  writeViews(): void {
    const views = this.views;
    let from = 0;
    while (from < views.length) {
      let done = fs.writevSync(this.fd, from === 0 ? views : views.slice(from));
      // A short write: skip what was written, the rest of a view again as a view of its tail.
      while (from < views.length && done >= views[from]!.length) done -= views[from++]!.length;
      if (done > 0) views[from] = views[from]!.subarray(done);
    }
    views.length = 0;
  }

  commit(): void {
    ByteWriter.place(this.close(), this.target);
  }

  /** Flushes and closes the temporary file without renaming it (another thread commits it): its path. */
  close(): string {
    if (this.views.length > 0) this.writeViews();
    this.out.drain();
    fs.closeSync(this.fd);
    return this.tmp;
  }

  /** Renames a closed temporary file over `target` (removing it if that fails). */
  static place(tmp: string, target: string): void {
    try {
      fs.renameSync(tmp, target);
    } catch (error) {
      fs.rmSync(tmp, { force: true });
      throw fileError(target, error);
    }
  }

  abort(): void {
    try {
      fs.closeSync(this.fd);
    } catch {}
    fs.rmSync(this.tmp, { force: true });
  }
}

/** Where each row's bytes are: its file (index), offset and length. */
export interface RowBytes {
  file: ArrayLike<number>;
  offset: ArrayLike<number>;
  length: ArrayLike<number>;
}

/** One run: a window over a file that only moves forward (size 0: exactly the bytes asked for). */
class RunReader {
  private buffer: Uint8Array;
  private start = 0;
  private filled = 0;

  /** `beforeRead`: called before the window's bytes are replaced (views into them must be used up). */
  constructor(private fd: number, private readonly size: number, private readonly beforeRead?: () => void) {
    this.buffer = new Uint8Array(Math.max(size, 1 << 12));
  }

  /** Points the reader at another file, forgetting its window. */
  on(fd: number): this {
    if (fd !== this.fd) (this.fd = fd), (this.filled = 0);
    return this;
  }

  /** Where in `bytes` the file's bytes [offset, offset + length) are, reading them if needed. */
  at(offset: number, length: number): number {
    if (offset < this.start || offset + length > this.start + this.filled) {
      this.beforeRead?.();
      if (length > this.buffer.length) this.buffer = new Uint8Array(length * 2);
      const want = this.size === 0 ? length : this.buffer.length;
      this.start = offset;
      this.filled = 0;
      while (this.filled < length) {
        const n = fs.readSync(this.fd, this.buffer, this.filled, want - this.filled, offset + this.filled);
        if (n === 0) break;
        this.filled += n;
      }
    }
    return offset - this.start;
  }

  get bytes(): Uint8Array {
    return this.buffer;
  }
}

/** Reading budget shared by all runs' windows. */
const WINDOW_BYTES = 64 << 20;

/**
 * Run number of every row (read order): a new run starts where the (task, rollout) key goes down or the
 * file changes. Rows of one run come out of a stable sort in read order, so a run can be read forward.
 */
export function readRuns(task: ArrayLike<number>, rollout: ArrayLike<number>, file: ArrayLike<number>, n: number): Int32Array {
  const runs = new Int32Array(n);
  let run = 0;
  for (let i = 1; i < n; i++) {
    if (file[i] !== file[i - 1] || task[i]! < task[i - 1]! || (task[i] === task[i - 1] && rollout[i]! < rollout[i - 1]!)) run++;
    runs[i] = run;
  }
  return runs;
}

/**
 * Emits the bytes of rows in `order` (`emit(bytes, start, end)` per row; the view is valid until the next
 * call). Each run (see readRuns) gets a forward-only window of up to 1 MB, so sorted or k-way interleaved
 * input is read sequentially; shuffled input (runs of a row or two) gets one positioned read per row.
 */
export function readRowsInOrder(
  files: string[],
  rows: RowBytes,
  runOf: ArrayLike<number>,
  order: ArrayLike<number>,
  emit: (bytes: Uint8Array, start: number, end: number, row: number) => void,
  beforeRead?: () => void,
): void {
  if (order.length === 0) return;
  const { runs, size } = windows(runOf, order);
  const fds = files.map((f) => {
    try {
      return fs.openSync(f, "r");
    } catch (error) {
      throw fileError(f, error);
    }
  });
  try {
    // Readers by run number (an array: a Map lookup per row costs more than the row's copy).
    const readers: (RunReader | undefined)[] = size === 0 ? [] : new Array(runs);
    const exact = new RunReader(-1, 1 << 16, beforeRead);
    for (let i = 0; i < order.length; i++) {
      const r = order[i]!;
      const fd = fds[rows.file[r]!]!;
      let reader: RunReader;
      if (size === 0) reader = exact.on(fd);
      else {
        const k = runOf[r]!;
        let found = readers[k];
        if (!found) readers[k] = found = new RunReader(fd, size, beforeRead);
        reader = found;
      }
      const at = reader.at(rows.offset[r]!, rows.length[r]!);
      emit(reader.bytes, at, at + rows.length[r]!, r);
    }
  } finally {
    for (const fd of fds) fs.closeSync(fd);
  }
}

/** The number of runs and each run's window size (0: rows are read one by one, being shuffled). */
function windows(runOf: ArrayLike<number>, order: ArrayLike<number>): { runs: number; size: number } {
  let runs = 0;
  for (let i = 0; i < order.length; i++) runs = Math.max(runs, runOf[order[i]!]! + 1);
  const used = new Uint8Array(runs);
  let usedRuns = 0;
  for (let i = 0; i < order.length; i++) {
    const k = runOf[order[i]!]!;
    if (!used[k]) (used[k] = 1), usedRuns++;
  }
  const perRun = order.length / Math.max(usedRuns, 1);
  // Windows pay off when a run holds several rows; otherwise read each row exactly.
  return { runs, size: perRun < 4 ? 0 : Math.max(1 << 16, Math.min(1 << 20, Math.floor(WINDOW_BYTES / usedRuns))) };
}

/** Everything the merged copy needs, as plain data (it may be posted to a worker). */
export interface MergeJob {
  target: string;
  files: string[];
  /** Where each row's bytes are (read order). */
  file: Int32Array;
  offset: Float64Array;
  length: Int32Array;
  runs: Int32Array;
  order: Int32Array;
  /** Files whose rows are copied as decoded text (invalid UTF-8, a BOM inside): what the reference did. */
  lossy: number[];
}

/** Bytes per write of the merged copy when its rows are copied (shuffled rows, each read on its own). */
const COPY_BUFFER = 4 << 20;

/** Writes the merged rows (each exactly its input bytes, CR and a leading BOM dropped) into an uncommitted writer. */
export function copyMerged(job: MergeJob): ByteWriter {
  const { files, file, offset, length } = job;
  const lossy = new Uint8Array(files.length);
  for (const f of job.lossy) lossy[f] = 1;
  // Rows in runs are written straight from the read windows (writev, before a window is read over);
  // shuffled rows, each read on its own, are copied into a buffer (a writev per row would cost more).
  const windowed = job.order.length > 0 && windows(job.runs, job.order).size > 0;
  const out = new ByteWriter(job.target, windowed ? 1 << 16 : COPY_BUFFER);
  const text = new LineReader();
  const encoder = new TextEncoder();
  try {
    readRowsInOrder(
      files,
      job,
      job.runs,
      job.order,
      (bytes, start, end, row) => {
        if (!lossy[file[row]!]) return windowed ? out.view(bytes, start, end) : out.line(bytes, start, end);
        const line = encoder.encode(text.read(files[file[row]!]!, offset[row]!, length[row]!));
        out.line(line, 0, line.length);
      },
      windowed ? () => out.writeViews() : undefined,
    );
    return out;
  } catch (error) {
    out.abort();
    throw error;
  } finally {
    text.close();
  }
}
