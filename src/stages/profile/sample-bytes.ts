/**
 * The `sample` of a reward-profile row straight from the input line's bytes: the line re-printed as
 * `sampleText` prints it (compact, strings as JSON.stringify escapes them, floats as Python's repr), minus
 * the top-level index members — without decoding the line, building its object or encoding the result.
 * A line this walk does not cover exactly (duplicate keys, keys JS would reorder, lone surrogates,
 * 16+ digit integers, non-finite numbers, bad JSON) is handed back for `sampleText` to print.
 */
import { formatPyFloat } from "../../metrics/pyjson.ts";
import { ROLLOUT_INDEX, TASK_INDEX } from "../../metrics/records.ts";

const encoder = new TextEncoder();
const TASK_KEY = encoder.encode(TASK_INDEX);
const ROLLOUT_KEY = encoder.encode(ROLLOUT_INDEX);
const PROTO_KEY = encoder.encode("__proto__");
/** Bytes that end a plain run inside a string: the quote, a backslash, control characters. */
const STOP = new Uint8Array(256);
for (let c = 0; c < 32; c++) STOP[c] = 1;
STOP[34] = STOP[92] = 1;
const HEX_DIGIT = new Int8Array(256).fill(-1);
for (let i = 0; i < 16; i++) HEX_DIGIT["0123456789abcdef".charCodeAt(i)] = HEX_DIGIT["0123456789ABCDEF".charCodeAt(i)] = i;
const LOWER_HEX = encoder.encode("0123456789abcdef");
/** JSON.stringify's short escapes of control characters (0: none, `\u00xx` is written). */
const SHORT_ESCAPE = new Uint8Array(32);
SHORT_ESCAPE[8] = 98; // b
SHORT_ESCAPE[9] = 116; // t
SHORT_ESCAPE[10] = 110; // n
SHORT_ESCAPE[12] = 102; // f
SHORT_ESCAPE[13] = 114; // r
const MAX_DEPTH = 64;

/** Thrown (one shared instance) when a line leaves the covered cases. */
const FALLBACK = new Error("sample needs the general printer");

export class SampleBytes {
  private out = new Uint8Array(1 << 16);
  private n = 0;
  private b: Uint8Array = this.out;
  private at = 0;
  /** Source bytes from here on are not in `out` yet: runs that print as written are copied in one go. */
  private copyFrom = 0;
  /** Keys (source start, end, signature) of the objects being walked, per depth. */
  private readonly keys: Int32Array[] = [];
  private lastFloat: Uint8Array = new Uint8Array(0);
  /** The Python repr of `lastFloat`, or null when it is already spelled so. */
  private lastFloatText: Uint8Array | null = null;

  /** The sample of bytes[start, end) (one input line) as UTF-8, valid until the next call; null: use sampleText. */
  print(bytes: Uint8Array, start: number, end: number): Uint8Array | null {
    this.b = bytes;
    this.at = start;
    this.n = 0;
    this.room(end - start + 64);
    try {
      // A BOM before the row (the first line of a file, or a line of a concatenated file), as TextDecoder drops it.
      if (bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf) this.at += 3;
      this.skip();
      if (bytes[this.at] !== 123) return null;
      this.top();
      this.skip();
      if (this.at !== end) return null;
    } catch (error) {
      if (error === FALLBACK) return null;
      throw error;
    }
    return this.out.subarray(0, this.n);
  }

  private room(k: number): void {
    if (this.n + k <= this.out.length) return;
    const grown = new Uint8Array(Math.max(this.out.length * 2, this.n + k));
    grown.set(this.out.subarray(0, this.n));
    this.out = grown;
  }

  /** Copies the pending source run up to `to` into the output. */
  private emitTo(to: number): void {
    const from = this.copyFrom;
    const k = to - from;
    if (k > 0) {
      this.room(k);
      if (k > 16) this.out.set(this.b.subarray(from, to), this.n);
      else for (let i = 0; i < k; i++) this.out[this.n + i] = this.b[from + i]!;
      this.n += k;
    }
    this.copyFrom = to;
  }

  /** Replaces source bytes [from, to) by `bytes` (room for them is the caller's). */
  private cut(from: number, to: number): void {
    this.emitTo(from);
    this.copyFrom = to;
  }

  private skip(): void {
    const b = this.b;
    let c = b[this.at];
    while (c === 32 || c === 9 || c === 13) c = b[++this.at];
  }

  /** Blanks between tokens are left out of the output. */
  private ws(): void {
    const b = this.b;
    const from = this.at;
    let i = from;
    let c = b[i];
    while (c === 32 || c === 9 || c === 13) c = b[++i];
    if (i !== from) (this.at = i), this.cut(from, i);
  }

  /** The row: members written one by one (the index members left out), each printed as a run of its source. */
  private top(): void {
    const b = this.b;
    this.at++;
    this.out[this.n++] = 123;
    this.skip();
    let count = 0;
    let written = 0;
    if (b[this.at] !== 125) {
      for (;;) {
        const from = this.at;
        const to = this.key(0, count++);
        const dropped = same(b, from + 1, to - 1, 0, TASK_KEY.length, TASK_KEY) || same(b, from + 1, to - 1, 0, ROLLOUT_KEY.length, ROLLOUT_KEY);
        const mark = this.n;
        if (!dropped && written > 0) this.room(1), (this.out[this.n++] = 44);
        this.copyFrom = from;
        this.afterKey(to);
        this.value(0);
        this.emitTo(this.at);
        if (dropped) this.n = mark;
        else written++;
        this.skip();
        const c = b[this.at++];
        if (c === 125) break;
        if (c !== 44) throw FALLBACK;
        this.skip();
      }
    } else this.at++;
    this.room(1);
    this.out[this.n++] = 125;
  }

  /**
   * Checks the key at `at` (the `index`-th of an object at `depth`) and returns where it ends: a key must be
   * plain (no escapes), not one JS orders first (array indices) or treats apart (__proto__), and not repeated.
   */
  private key(depth: number, index: number): number {
    const b = this.b;
    if (b[this.at] !== 34) throw FALLBACK;
    const from = this.at + 1;
    let i = from;
    while (STOP[b[i]!] === 0) i++;
    if (b[i] !== 34) throw FALLBACK;
    const first = b[from]!;
    if (first >= 48 && first <= 57) throw FALLBACK;
    if (first === 95 && same(b, from, i, 0, PROTO_KEY.length, PROTO_KEY)) throw FALLBACK;
    let keys = this.keys[depth];
    if (keys === undefined) this.keys[depth] = keys = new Int32Array(96);
    if (index * 3 + 3 > keys.length) {
      const grown = new Int32Array(keys.length * 2);
      grown.set(keys);
      this.keys[depth] = keys = grown;
    }
    // A repeated key: JSON.parse keeps one member (its first place, its last value). Keys are told apart by
    // length and end bytes first (one compare), by their bytes only when those agree.
    const sig = ((i - from) << 16) | (first << 8) | b[i - 1]!;
    for (let k = 0; k < index; k++) if (keys[3 * k + 2] === sig && same(b, keys[3 * k]!, keys[3 * k + 1]!, from, i)) throw FALLBACK;
    keys[3 * index] = from;
    keys[3 * index + 1] = i;
    keys[3 * index + 2] = sig;
    return i + 1;
  }

  /** From the end of a key to the start of its value. */
  private afterKey(to: number): void {
    this.at = to;
    this.ws();
    if (this.b[this.at] !== 58) throw FALLBACK;
    this.at++;
    this.ws();
  }

  private value(depth: number): void {
    const b = this.b;
    const c = b[this.at];
    if (c === 34) this.string();
    else if (c === 123) this.object(depth + 1);
    else if (c === 91) this.array(depth + 1);
    else if (c === 116) this.literal(116, 114, 117, 101, 0);
    else if (c === 102) this.literal(102, 97, 108, 115, 101);
    else if (c === 110) this.literal(110, 117, 108, 108, 0);
    else this.number();
  }

  private literal(c0: number, c1: number, c2: number, c3: number, c4: number): void {
    const b = this.b;
    const at = this.at;
    if (b[at] !== c0 || b[at + 1] !== c1 || b[at + 2] !== c2 || b[at + 3] !== c3) throw FALLBACK;
    if (c4 !== 0 && b[at + 4] !== c4) throw FALLBACK;
    this.at = at + (c4 === 0 ? 4 : 5);
  }

  private array(depth: number): void {
    if (depth > MAX_DEPTH) throw FALLBACK;
    const b = this.b;
    this.at++;
    this.ws();
    if (b[this.at] === 93) return void this.at++;
    for (;;) {
      this.value(depth);
      this.ws();
      const c = b[this.at++];
      if (c === 93) return;
      if (c !== 44) throw FALLBACK;
      this.ws();
    }
  }

  private object(depth: number): void {
    if (depth > MAX_DEPTH) throw FALLBACK;
    const b = this.b;
    this.at++;
    this.ws();
    if (b[this.at] === 125) return void this.at++;
    for (let index = 0; ; index++) {
      this.afterKey(this.key(depth, index));
      this.value(depth);
      this.ws();
      const c = b[this.at++];
      if (c === 125) return;
      if (c !== 44) throw FALLBACK;
      this.ws();
    }
  }

  /** A string, as JSON.stringify prints its decoded text: escapes it spells otherwise are rewritten. */
  private string(): void {
    const b = this.b;
    let i = this.at + 1;
    for (;;) {
      while (STOP[b[i]!] === 0) i++;
      const c = b[i];
      if (c === 34) return void (this.at = i + 1);
      if (c !== 92) throw FALLBACK; // a raw control character or the end of the bytes
      const e = b[i + 1];
      if (e === 34 || e === 92 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116) i += 2;
      else if (e === 47) this.cut(i, i + 2), this.put1(47), (i += 2);
      else if (e === 117) i = this.unicodeEscape(i);
      else throw FALLBACK;
    }
  }

  private put1(c: number): void {
    this.room(1);
    this.out[this.n++] = c;
  }

  /** The `\uXXXX` escape at `i` (and its low surrogate): kept when JSON.stringify spells it so, else rewritten; returns its end. */
  private unicodeEscape(i: number): number {
    const b = this.b;
    let u = hex4(b, i + 2);
    if (u < 32) {
      const short = SHORT_ESCAPE[u]!;
      // JSON.stringify: \b \t \n \f \r, else \u00xx in lowercase.
      if (short === 0 && (b[i + 4] === LOWER_HEX[u >> 4] && b[i + 5] === LOWER_HEX[u & 15])) return i + 6;
      this.cut(i, i + 6);
      this.room(6);
      const out = this.out;
      out[this.n++] = 92;
      if (short) out[this.n++] = short;
      else (out[this.n++] = 117), (out[this.n++] = 48), (out[this.n++] = 48), (out[this.n++] = LOWER_HEX[u >> 4]!), (out[this.n++] = LOWER_HEX[u & 15]!);
      return i + 6;
    }
    let end = i + 6;
    if (u >= 0xd800 && u <= 0xdfff) {
      // Only a high surrogate followed by an escaped low one is a character; a lone one prints escaped.
      if (u > 0xdbff || b[end] !== 92 || b[end + 1] !== 117) throw FALLBACK;
      const low = hex4(b, end + 2);
      if (low < 0xdc00 || low > 0xdfff) throw FALLBACK;
      end += 6;
      u = 0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00);
    }
    this.cut(i, end);
    this.room(4);
    const out = this.out;
    if (u === 34 || u === 92) (out[this.n++] = 92), (out[this.n++] = u);
    else if (u < 0x80) out[this.n++] = u;
    else if (u < 0x800) (out[this.n++] = 0xc0 | (u >> 6)), (out[this.n++] = 0x80 | (u & 63));
    else if (u < 0x10000) (out[this.n++] = 0xe0 | (u >> 12)), (out[this.n++] = 0x80 | ((u >> 6) & 63)), (out[this.n++] = 0x80 | (u & 63));
    else {
      out[this.n++] = 0xf0 | (u >> 18);
      out[this.n++] = 0x80 | ((u >> 12) & 63);
      out[this.n++] = 0x80 | ((u >> 6) & 63);
      out[this.n++] = 0x80 | (u & 63);
    }
    return end;
  }

  /** A number: an integer of up to 15 digits as written (`-0` as `0`), a float as Python's repr of its value. */
  private number(): void {
    const b = this.b;
    const start = this.at;
    let i = start;
    if (b[i] === 45) i++;
    let c = b[i]!;
    if (c === 48) c = b[++i]!;
    else if (c >= 49 && c <= 57) while (c >= 48 && c <= 57) c = b[++i]!;
    else throw FALLBACK;
    const intEnd = i;
    let float = false;
    if (c === 46) {
      float = true;
      c = b[++i]!;
      if (!(c >= 48 && c <= 57)) throw FALLBACK;
      while (c >= 48 && c <= 57) c = b[++i]!;
    }
    if (c === 101 || c === 69) {
      float = true;
      c = b[++i]!;
      if (c === 43 || c === 45) c = b[++i]!;
      if (!(c >= 48 && c <= 57)) throw FALLBACK;
      while (c >= 48 && c <= 57) c = b[++i]!;
    }
    this.at = i;
    if (!float) {
      const negative = b[start] === 45;
      if (intEnd - start - (negative ? 1 : 0) > 15) throw FALLBACK;
      if (negative && intEnd - start === 2 && b[start + 1] === 48) this.cut(start, i), this.put1(48);
      return;
    }
    // Floats repeat (temperature 1.0, top_p 0.95): the last one is remembered.
    const last = this.lastFloat;
    let text: Uint8Array | null;
    if (last.length === i - start && same(b, start, i, 0, last.length, last)) text = this.lastFloatText;
    else {
      const x = Number(String.fromCharCode.apply(null, b.subarray(start, i) as unknown as number[]));
      if (!Number.isFinite(x)) throw FALLBACK;
      text = encoder.encode(formatPyFloat(x));
      if (same(b, start, i, 0, text.length, text)) text = null;
      this.lastFloat = b.slice(start, i);
      this.lastFloatText = text;
    }
    if (text === null) return;
    this.cut(start, i);
    this.room(text.length);
    this.out.set(text, this.n);
    this.n += text.length;
  }
}

function hex4(b: Uint8Array, i: number): number {
  const h0 = HEX_DIGIT[b[i]!]!, h1 = HEX_DIGIT[b[i + 1]!]!, h2 = HEX_DIGIT[b[i + 2]!]!, h3 = HEX_DIGIT[b[i + 3]!]!;
  if ((h0 | h1 | h2 | h3) < 0) throw FALLBACK;
  return (h0 << 12) | (h1 << 8) | (h2 << 4) | h3;
}

/** Whether b[from, to) equals c[cFrom, cTo) (c defaults to b). */
function same(b: Uint8Array, from: number, to: number, cFrom: number, cTo: number, c: Uint8Array = b): boolean {
  const n = to - from;
  if (n !== cTo - cFrom) return false;
  for (let k = 0; k < n; k++) if (b[from + k] !== c[cFrom + k]) return false;
  return true;
}
