/**
 * UTF-8 text built straight into a reused byte buffer: pieces and numbers are copied in as bytes, so
 * printing hundreds of MB of metrics makes no strings to concatenate, flatten and encode.
 */
import { formatPyFloat, intText } from "./pyjson.ts";

const encoder = new TextEncoder();

/** Pre-encodes a constant piece of text (a key, an indentation) once. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

export class ByteText {
  private buffer: Uint8Array;
  private used = 0;

  /** `flush` receives the filled part of the buffer (of `size` bytes); it must consume it before returning. */
  constructor(private readonly flush: (bytes: Uint8Array) => void, size = 1 << 20) {
    this.buffer = new Uint8Array(size);
  }

  private room(n: number): void {
    if (this.used + n <= this.buffer.length) return;
    this.drain();
    if (n > this.buffer.length) this.buffer = new Uint8Array(n);
  }

  /** Bytes written and not yet handed to `flush`. */
  get size(): number {
    return this.used;
  }

  /** Hands everything written so far to `flush`. */
  drain(): void {
    if (this.used > 0) this.flush(this.buffer.subarray(0, this.used));
    this.used = 0;
  }

  bytes(piece: Uint8Array): void {
    const n = piece.length;
    this.room(n);
    // Short pieces (keys, punctuation) are copied by hand: a native set() costs more than the bytes.
    if (n <= 32) {
      const buffer = this.buffer;
      const p = this.used;
      for (let i = 0; i < n; i++) buffer[p + i] = piece[i]!;
    } else this.buffer.set(piece, this.used);
    this.used += n;
  }

  /** bytes[start, end) and a newline (a row copied as it was read). */
  line(bytes: Uint8Array, start: number, end: number): void {
    const n = end - start;
    this.room(n + 1);
    this.buffer.set(bytes.subarray(start, end), this.used);
    this.used += n;
    this.buffer[this.used++] = 10;
  }

  /** Any string, as UTF-8 (a plain copy while it is ASCII). */
  text(s: string): void {
    const n = s.length;
    this.room(n * 3);
    const buffer = this.buffer;
    let p = this.used;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 128) {
        this.used = p + encoder.encodeInto(i === 0 ? s : s.slice(i), buffer.subarray(p)).written;
        return;
      }
      buffer[p++] = c;
    }
    this.used = p;
  }

  /**
   * A computed float as Python's repr prints it (`1.0`, `0.5`, `1e-05`), non-finite as orjson's `null`.
   * Whole values below 2^31 (counts, token totals, 0.0 and 1.0 rewards) are written as digits and `.0`
   * without making a string; −0 and the rest go through formatPyFloat.
   */
  float(x: number): void {
    if ((x | 0) === x && (x !== 0 || 1 / x > 0)) {
      this.int(x);
      this.room(2);
      this.buffer[this.used++] = 46; // .
      this.buffer[this.used++] = 48; // 0
      return;
    }
    this.text(x - x === 0 ? formatPyFloat(x) : "null");
  }

  /** A whole number as Python prints an int. */
  int(x: number): void {
    if (!(x >= -9007199254740991 && x <= 9007199254740991) || Object.is(x, -0)) return this.text(intText(x));
    this.room(17);
    const buffer = this.buffer;
    let p = this.used;
    if (x < 0) {
      buffer[p++] = 45;
      x = -x;
    }
    if (x < 10) buffer[p++] = 48 + x;
    else if (x < 2147483648) {
      // Int32 arithmetic for the common case (indexes, counts, token totals): no float divisions.
      let y = x | 0;
      const digits = y < 100 ? 2 : y < 1000 ? 3 : y < 10000 ? 4 : y < 100000 ? 5 : y < 1000000 ? 6 : y < 10000000 ? 7 : y < 100000000 ? 8 : y < 1000000000 ? 9 : 10;
      for (let i = p + digits - 1; i >= p; i--) {
        const q = (y / 10) | 0;
        buffer[i] = 48 + y - q * 10;
        y = q;
      }
      p += digits;
    } else {
      let digits = 0;
      for (let y = x; y >= 1; y = Math.floor(y / 10)) digits++;
      for (let i = p + digits - 1; i >= p; i--) {
        const q = Math.floor(x / 10);
        buffer[i] = 48 + (x - q * 10);
        x = q;
      }
      p += digits;
    }
    this.used = p;
  }
}
