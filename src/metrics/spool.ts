/**
 * A write-once, read-once stream of numbers kept in a temporary file while a big input is parsed.
 * Why: the JS engine lets garbage grow in proportion to the memory a program holds (typed arrays
 * included), so arrays filled during a parse cost ~3× their size in peak memory. Spooled numbers
 * cost a 1 MB buffer until the parse is over; they are loaded into exact-size arrays afterwards.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const CHUNK = 1 << 17; // numbers per write (1 MB)

export class Spool {
  private buffer = new Float64Array(CHUNK);
  private used = 0;
  private written = 0;
  private fd: number | null = null;
  private dir: string | null = null;

  /** Numbers appended so far. */
  get length(): number {
    return this.written + this.used;
  }

  push(x: number): void {
    if (this.used === CHUNK) this.flush();
    this.buffer[this.used++] = x;
  }

  private flush(): void {
    if (this.fd === null) {
      this.dir = fs.mkdtempSync(path.join(os.tmpdir(), "gym-spool-"));
      this.fd = fs.openSync(path.join(this.dir, "numbers"), "w+");
    }
    const bytes = new Uint8Array(this.buffer.buffer, 0, this.used * 8);
    let done = 0;
    while (done < bytes.length) done += fs.writeSync(this.fd, bytes, done, bytes.length - done, this.written * 8 + done);
    this.written += this.used;
    this.used = 0;
  }

  /** A reader over every number pushed, in order (call once, after the last push). */
  reader(): SpoolReader {
    return new SpoolReader(this.fd, this.written, this.buffer, this.used);
  }

  /** Deletes the temporary file. */
  dispose(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
    this.fd = null;
    this.dir = null;
  }
}

/** Reads a spool's numbers back one at a time, a chunk per file read. */
export class SpoolReader {
  private chunk: Float64Array;
  private at = 0;
  private end = 0;
  private fileAt = 0;
  private tailDone = false;

  constructor(private readonly fd: number | null, private readonly inFile: number, private readonly tail: Float64Array, private readonly tailUsed: number) {
    this.chunk = new Float64Array(fd === null ? 0 : CHUNK);
  }

  next(): number {
    if (this.at === this.end) this.refill();
    return this.chunk[this.at++]!;
  }

  private refill(): void {
    this.at = 0;
    if (this.fd !== null && this.fileAt < this.inFile) {
      const want = Math.min(CHUNK, this.inFile - this.fileAt);
      const bytes = new Uint8Array(this.chunk.buffer, 0, want * 8);
      let got = 0;
      while (got < bytes.length) got += fs.readSync(this.fd, bytes, got, bytes.length - got, this.fileAt * 8 + got);
      this.fileAt += want;
      this.end = want;
      return;
    }
    if (this.tailDone) throw new RangeError("read past the end of a spool");
    this.tailDone = true;
    this.chunk = this.tail;
    this.end = this.tailUsed;
  }
}
