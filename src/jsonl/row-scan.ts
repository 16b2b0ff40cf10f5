/**
 * The row scanner under `rows.ts`: walks the bytes of many JSONL lines (UTF-8, already validated in bulk by
 * the caller) and takes only the members a shape asks for. Nothing is decoded that is not kept: strings are
 * walked byte by byte (escapes and control characters checked), nested values by a bracket walk that still
 * checks the JSON grammar, numbers are typed from their spelling as Python types them (`1.0` → PyFloat,
 * `1` → int). Working on bytes, not a decoded string, is what makes it cheaper than JSON.parse: a typed-array
 * walk costs a third of a string walk and the text of a row is never built. A syntax error throws
 * `ScanError`; the caller turns it into a file:line message.
 */
import { PyFloat } from "../metrics/pyjson.ts";

type Row = Record<string, unknown>;

/** A member the shape did not ask for: only its JSON type is kept (one shared instance per type). */
export class Skipped {
  constructor(readonly type: "string" | "object" | "array") {}
  toJSON(): never {
    throw new Error(`a skipped ${this.type} was serialised: the row shape must ask for it`);
  }
}
export const SKIPPED_STRING = new Skipped("string");
export const SKIPPED_OBJECT = new Skipped("object");
export const SKIPPED_ARRAY = new Skipped("array");

/** A member asked for as bytes: where its value lies in the scanned block (`RowBatch.bytes`), checked, not built. */
export class Span {
  constructor(
    readonly start: number,
    readonly end: number,
  ) {}
  toJSON(): never {
    throw new Error("a byte span was serialised: the row shape must ask for the value");
  }
}

/** What to take from an object: members parsed whole, objects descended into; other strings kept or skipped. */
export interface ObjectShape {
  /** Members parsed whole (plain JSON values, numbers as JS numbers). */
  whole?: ReadonlySet<string>;
  /** Members given as a Span of their bytes (the value's grammar checked, nothing built). */
  spans?: ReadonlySet<string>;
  /** Object members read with their own shape (e.g. `response` → `usage`). */
  nested?: ReadonlyMap<string, ObjectShape>;
  /** Keep string members (default: Skipped markers; a row's long texts are never copied). */
  strings?: boolean;
  /** Parse every object or array member not in `nested` whole (a full row, typed only at this level). */
  wholeRest?: boolean;
  /** The keys seen at each member position (rows of a file share a layout): a match is reused, not decoded. */
  keys?: Key[];
  /** Numbers as plain JS numbers (as JSON.parse gives them): the shape of a small object parsed whole. */
  plain?: boolean;
}

/** Keys kept per member position beyond the first (a file mixing row layouts); others are decoded each time. */
const MAX_ALTERNATES = 15;

/** Objects parsed whole up to this many bytes are built by the scanner (keys and short strings reused); longer ones by JSON.parse. */
const SMALL_WHOLE = 512;

/** A key seen at a member position: its bytes, its text and what the shape does with it (looked up once). */
interface Key {
  bytes: Uint8Array;
  text: string;
  inner: ObjectShape | undefined;
  whole: boolean;
  span: boolean;
  /** The shape a small object under this key is parsed whole with (made at first use). */
  plain?: ObjectShape;
  /** Other keys seen at the same member position (files that mix row layouts), and how many the head holds. */
  next?: Key;
  alternates?: number;
  /** The last string value kept under this key, by bytes (agent names repeat on every row). */
  lastBytes?: Uint8Array;
  lastText?: string;
}

export class ScanError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

const HEX = new Uint8Array(256);
for (const c of "0123456789abcdefABCDEF") HEX[c.charCodeAt(0)] = 1;
const SIMPLE_ESCAPE = new Uint8Array(256);
for (const c of '"\\/bfnrt') SIMPLE_ESCAPE[c.charCodeAt(0)] = 1;
/** Bytes that end the plain run of a string: the quote, a backslash, control characters. */
const STRING_STOP = new Uint8Array(256);
for (let c = 0; c < 32; c++) STRING_STOP[c] = 1;
STRING_STOP[34] = STRING_STOP[92] = 1;

const TRUE = [116, 114, 117, 101];
const FALSE = [102, 97, 108, 115, 101];
const NULL = [110, 117, 108, 108];
const NAN = [78, 97, 78];
const INFINITY = [73, 110, 102, 105, 110, 105, 116, 121];

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** The text of bytes `from`..`to` (valid UTF-8); ASCII runs of a key's length are built without the decoder. */
export function textOf(b: Uint8Array, from: number, to: number): string {
  if (to - from <= 24) {
    for (let i = from; i < to; i++) if (b[i]! >= 128) return decoder.decode(b.subarray(from, to));
    return String.fromCharCode.apply(null, b.subarray(from, to) as unknown as number[]);
  }
  return decoder.decode(b.subarray(from, to));
}

/** Powers of ten that are exact doubles: a decimal of at most 15 digits divided by one is correctly rounded. */
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** A scanner over one block of bytes; `at` moves as rows are read. */
export class RowScanner {
  b: Uint8Array = new Uint8Array(0);
  at = 0;
  /** Whether the last string scanned held an escape. */
  escaped = false;
  /** Whether a number just read was spelled as a float (`.`, `e`, `E`, NaN, Infinity). */
  private floatSpelled = false;

  constructor(readonly nonFinite: boolean) {}

  reset(bytes: Uint8Array, at = 0): void {
    this.b = bytes;
    this.at = at;
  }

  fail(message: string, at = this.at): never {
    throw new ScanError(message, at);
  }

  ws(): void {
    const b = this.b;
    let i = this.at;
    let c = b[i];
    while (c === 32 || c === 9 || c === 13) c = b[++i];
    this.at = i;
  }

  /** Skips the string whose quote is at `at`; sets `escaped`. */
  skipString(): void {
    const end = stringEnd(this.b, this.at);
    if (end < 0) this.stringFail(-end - 1);
    this.escaped = escapedSeen;
    this.at = end;
  }

  private stringFail(i: number): never {
    const c = this.b[i];
    this.fail(c === undefined || c === 10 ? "unterminated string" : c === 92 ? "bad escape in string" : "control character in string", i);
  }

  /** Reads the string at `at` as a JS string. */
  string(): string {
    const start = this.at;
    this.skipString();
    const text = textOf(this.b, start + 1, this.at - 1);
    return this.escaped ? (JSON.parse(`"${text}"`) as string) : text;
  }

  private word(bytes: number[]): boolean {
    const b = this.b;
    const at = this.at;
    for (let k = 0; k < bytes.length; k++) if (b[at + k] !== bytes[k]) return false;
    this.at = at + bytes.length;
    return true;
  }

  /** Scans a number token at `at` (JSON grammar, plus NaN/Infinity/-Infinity when allowed); returns its end. */
  private numberEnd(): number {
    const b = this.b;
    let i = this.at;
    let c = b[i];
    this.floatSpelled = false;
    if (c === 45) c = b[++i];
    if (c === 48) c = b[++i];
    else if (c !== undefined && c >= 49 && c <= 57) while (c !== undefined && c >= 48 && c <= 57) c = b[++i];
    else if (c === 73 && this.nonFinite) {
      const at = this.at;
      this.at = i;
      if (!this.word(INFINITY)) (this.at = at), this.fail(`unexpected ${describe(b, at)}`);
      const end = this.at;
      this.at = at;
      this.floatSpelled = true;
      return end;
    } else this.fail(c === undefined || c === 10 ? "unexpected end of line (the row is cut short)" : `unexpected ${describe(b, this.at)}`);
    if (c === 46) {
      this.floatSpelled = true;
      c = b[++i];
      if (!(c !== undefined && c >= 48 && c <= 57)) this.fail("a digit must follow the decimal point", i);
      while (c !== undefined && c >= 48 && c <= 57) c = b[++i];
    }
    if (c === 101 || c === 69) {
      this.floatSpelled = true;
      c = b[++i];
      if (c === 43 || c === 45) c = b[++i];
      if (!(c !== undefined && c >= 48 && c <= 57)) this.fail("a digit must follow the exponent", i);
      while (c !== undefined && c >= 48 && c <= 57) c = b[++i];
    }
    return i;
  }

  /** A number as Python types it: a whole value spelled as a float is a PyFloat, else a JS number. */
  number(): number | PyFloat {
    const b = this.b;
    const start = this.at;
    // Short integers (indices, token counts) are summed here: no text, no Number().
    let i = start;
    let c = b[i]!;
    if (c >= 49 && c <= 57) {
      let v = c - 48;
      c = b[++i]!;
      while (c >= 48 && c <= 57 && i - start < 15) (v = v * 10 + c - 48), (c = b[++i]!);
      if (!(c >= 48 && c <= 57) && c !== 46 && c !== 101 && c !== 69) return (this.at = i), v;
    }
    if (c === 78 && this.at === i) return this.nan();
    // A plain decimal (`0.25`, `-1.0`, 15 digits at most): exact digits over an exact power of ten.
    if (c === 46 || ((c === 48 || c === 45) && i === start)) {
      const fast = this.decimal(start);
      if (fast !== undefined) return fast;
    }
    const end = this.numberEnd();
    this.at = end;
    const v = Number(textOf(b, start, end));
    return this.floatSpelled && Number.isInteger(v) ? new PyFloat(v) : v;
  }

  /** `-?digits.digits` of at most 15 digits with no exponent, or undefined (then the general path reads it). */
  private decimal(start: number): number | PyFloat | undefined {
    const b = this.b;
    let i = start;
    const negative = b[i] === 45;
    if (negative) i++;
    let c = b[i]!;
    if (!(c >= 48 && c <= 57) || (c === 48 && b[i + 1]! >= 48 && b[i + 1]! <= 57)) return undefined;
    let m = 0;
    let digits = 0;
    while (c >= 48 && c <= 57) (m = m * 10 + c - 48), digits++, (c = b[++i]!);
    if (c !== 46) return undefined;
    c = b[++i]!;
    let scale = 0;
    while (c >= 48 && c <= 57) (m = m * 10 + c - 48), digits++, scale++, (c = b[++i]!);
    if (scale === 0 || digits > 15 || c === 101 || c === 69) return undefined;
    this.at = i;
    let v = m / POW10[scale]!;
    if (negative) v = -v;
    return Number.isInteger(v) ? new PyFloat(v) : v;
  }

  private nan(): number {
    if (!this.nonFinite || !this.word(NAN)) this.fail(`unexpected ${describe(this.b, this.at)}`);
    return NaN;
  }

  private literal(bytes: number[]): void {
    if (!this.word(bytes)) this.fail(this.at >= this.b.length || this.b[this.at] === 10 ? "unexpected end of line (the row is cut short)" : `unexpected ${describe(this.b, this.at)}`);
  }

  /** Any scalar, or a Skipped marker for a string (unless `keepStrings`), object or array (skipped whole). */
  value(keepStrings: boolean): unknown {
    const c = this.b[this.at];
    if (c === 34) {
      if (keepStrings) return this.string();
      this.skipString();
      return SKIPPED_STRING;
    }
    if (c === 123) return this.skipComposite(), SKIPPED_OBJECT;
    if (c === 91) return this.skipComposite(), SKIPPED_ARRAY;
    if (c === 116) return this.literal(TRUE), true;
    if (c === 102) return this.literal(FALSE), false;
    if (c === 110) return this.literal(NULL), null;
    if (c === undefined || c === 10) this.fail("unexpected end of line (the row is cut short)");
    return this.number();
  }

  /**
   * Parses the value at `at` whole, as JSON.parse gives it (its own walk when it holds NaN/Infinity). A small
   * object (an agent_ref, a status) is built by this scanner with `plain`, its keys and short strings reused.
   */
  whole(plain?: ObjectShape): unknown {
    const start = this.at;
    const c = this.b[start];
    // Scalars as JSON.parse gives them (a float-spelled whole number is a plain number here).
    if (c !== 123 && c !== 91) {
      const v = this.value(true);
      return v instanceof PyFloat ? v.value : v;
    }
    this.skipComposite();
    if (plain !== undefined && c === 123 && this.at - start <= SMALL_WHOLE) {
      const end = this.at;
      this.at = start;
      const v = this.object(plain);
      if (this.at !== end) this.fail("the object was read twice differently");
      return v;
    }
    const slice = textOf(this.b, start, this.at);
    try {
      return JSON.parse(slice);
    } catch (error) {
      if (!this.nonFinite) throw error;
      return JSON.parse(slice.replace(/("(?:[^"\\]|\\.)*")|-?Infinity|NaN/g, (m, str) => str ?? `"\\u0000${m}"`), (_k, v) =>
        typeof v === "string" && v.charCodeAt(0) === 0 ? (v === "\u0000NaN" ? NaN : v === "\u0000Infinity" ? Infinity : -Infinity) : v,
      );
    }
  }

  /** Open brackets of skipComposite (1 object, 2 array), reused. */
  private stack = new Uint8Array(256);

  /** Skips the object or array at `at`, checking its grammar (keys, colons, commas, values); one loop over local indices. */
  skipComposite(): void {
    const b = this.b;
    let stack = this.stack;
    let depth = 0;
    let i = this.at;
    let c = b[i];
    for (;;) {
      // `i` is on the start of a value
      if (c === 34) {
        i = stringEnd(b, i);
        if (i < 0) this.stringFail(-i - 1);
      } else if (c === 123 || c === 91) {
        if (depth === stack.length) (stack = new Uint8Array(depth * 2)).set(this.stack), (this.stack = stack);
        const object = c === 123;
        stack[depth++] = object ? 1 : 2;
        c = b[++i];
        while (c === 32 || c === 9 || c === 13) c = b[++i];
        if (c === (object ? 125 : 93)) {
          i++;
          depth--;
        } else {
          if (object) (i = this.keyAt(i)), (c = b[i]);
          continue;
        }
      } else if (c === 116 && b[i + 1] === 114 && b[i + 2] === 117 && b[i + 3] === 101) i += 4;
      else if (c === 102 && b[i + 1] === 97 && b[i + 2] === 108 && b[i + 3] === 115 && b[i + 4] === 101) i += 5;
      else if (c === 110 && b[i + 1] === 117 && b[i + 2] === 108 && b[i + 3] === 108) i += 4;
      else {
        this.at = i;
        if (c === 78) this.nan();
        else if (c === 116) this.literal(TRUE);
        else if (c === 102) this.literal(FALSE);
        else if (c === 110) this.literal(NULL);
        else if (c === undefined || c === 10) this.fail("unexpected end of line (the row is cut short)");
        else this.at = this.numberEnd();
        i = this.at;
      }
      // after a value: a comma or the closing bracket of the innermost container
      for (;;) {
        if (depth === 0) {
          this.at = i;
          return;
        }
        c = b[i];
        while (c === 32 || c === 9 || c === 13) c = b[++i];
        const top = stack[depth - 1]!;
        if (c === 44) {
          c = b[++i];
          while (c === 32 || c === 9 || c === 13) c = b[++i];
          if (top === 1) (i = this.keyAt(i)), (c = b[i]);
          break;
        }
        if (c === (top === 1 ? 125 : 93)) {
          i++;
          depth--;
          continue;
        }
        this.at = i;
        this.fail(c === undefined || c === 10 ? "unexpected end of line (the row is cut short)" : `expected ',' or '${top === 1 ? "}" : "]"}', found ${describe(b, i)}`);
      }
    }
  }

  /** Inside an object at `i`: a key and its colon; returns where its value starts. */
  private keyAt(i: number): number {
    const b = this.b;
    if (b[i] !== 34) {
      this.at = i;
      this.fail(this.atEnd() ? "unexpected end of line (the row is cut short)" : `expected a quoted key, found ${describe(b, i)}`);
    }
    i = stringEnd(b, i);
    if (i < 0) this.stringFail(-i - 1);
    let c = b[i];
    while (c === 32 || c === 9 || c === 13) c = b[++i];
    if (c !== 58) {
      this.at = i;
      this.fail(`expected ':' after key, found ${describe(b, i)}`);
    }
    c = b[++i];
    while (c === 32 || c === 9 || c === 13) c = b[++i];
    return i;
  }

  private atEnd(): boolean {
    const c = this.b[this.at];
    return c === undefined || c === 10;
  }

  /**
   * Reads the object at `at` by `shape`: every member in order, scalars as values (numbers Python-typed),
   * nested shapes read, whole members parsed, the rest as Skipped markers. Keys spelled with escapes are decoded.
   */
  object(shape: ObjectShape): Row {
    const b = this.b;
    const row: Row = {};
    this.at++;
    this.ws();
    if (b[this.at] === 125) return this.at++, row;
    const keepStrings = shape.strings === true;
    const wholeRest = shape.wholeRest === true;
    const plain = shape.plain === true;
    const keys = (shape.keys ??= []);
    for (let member = 0; ; member++) {
      if (b[this.at] !== 34) this.fail(this.atEnd() ? "unexpected end of line (the row is cut short)" : `expected a quoted key, found ${describe(b, this.at)}`);
      const head = keys[member];
      let k: Key | undefined = head;
      if (k !== undefined && !sameBytes(b, this.at + 1, k.bytes)) {
        // Rows of several layouts (published rollouts of several servers): the other keys seen here.
        k = k.next;
        while (k !== undefined && !sameBytes(b, this.at + 1, k.bytes)) k = k.next;
      }
      if (k === undefined) {
        const from = this.at + 1;
        const text = this.string();
        k = { bytes: b.slice(from, this.at - 1), text, inner: shape.nested?.get(text), whole: shape.whole?.has(text) === true, span: shape.spans?.has(text) === true };
        // Only keys without escapes: their bytes are their text.
        if (!this.escaped && member < 64) {
          if (head === undefined) keys[member] = k;
          else if ((head.alternates ?? 0) < MAX_ALTERNATES) (k.next = head.next), (head.next = k), (head.alternates = (head.alternates ?? 0) + 1);
        }
      } else this.at += k.bytes.length + 2;
      this.ws();
      if (b[this.at] !== 58) this.fail(`expected ':' after key, found ${describe(b, this.at)}`);
      this.at++;
      this.ws();
      let v: unknown;
      const c = b[this.at];
      if (k.span) {
        const start = this.at;
        this.value(false);
        v = new Span(start, this.at);
      } else if (c === 34 && keepStrings) {
        const last = k.lastBytes;
        if (last !== undefined && sameBytes(b, this.at + 1, last)) (v = k.lastText), (this.at += last.length + 2);
        else {
          const from = this.at + 1;
          v = this.string();
          if (!this.escaped && this.at - from <= 65) (k.lastBytes = b.slice(from, this.at - 1)), (k.lastText = v as string);
        }
      } else if (k.inner !== undefined && c === 123) v = this.object(k.inner);
      else if (k.whole || (wholeRest && (c === 123 || c === 91))) v = this.whole((k.plain ??= PLAIN()));
      else {
        v = this.value(keepStrings);
        if (plain && v instanceof PyFloat) v = v.value;
      }
      if (k.text === "__proto__") Object.defineProperty(row, k.text, { value: v, enumerable: true, writable: true, configurable: true });
      else row[k.text] = v;
      this.ws();
      const d = b[this.at];
      if (d === 44) {
        this.at++;
        this.ws();
        continue;
      }
      if (d === 125) return this.at++, row;
      this.fail(d === undefined || d === 10 ? "unexpected end of line (the row is cut short)" : `expected ',' or '}', found ${describe(b, this.at)}`);
    }
  }
}

/** The value of bytes [start, end) (valid JSON, NaN and Infinity allowed), as `RowScanner.whole` gives it. */
export function parseSpan(bytes: Uint8Array, span: Span): unknown {
  const scanner = new RowScanner(true);
  scanner.reset(bytes.subarray(0, span.end), span.start);
  return scanner.whole();
}

/** A fresh shape for an object parsed whole: every member kept, numbers plain (each key position its own key cache). */
const PLAIN = (): ObjectShape => ({ strings: true, wholeRest: true, plain: true });

/** Whether the last string walked by stringEnd held an escape. */
let escapedSeen = false;

/**
 * The index just past the string whose quote is at `i` (sets escapedSeen), or -(index of the bad byte) - 1:
 * a control character, a bad escape, the end of the line.
 */
function stringEnd(b: Uint8Array, i: number): number {
  i++;
  escapedSeen = false;
  for (;;) {
    while (STRING_STOP[b[i]!] === 0) i++;
    const c = b[i];
    if (c === 34) return i + 1;
    if (c !== 92) return -i - 1;
    escapedSeen = true;
    const e = b[i + 1]!;
    if (e === 117) {
      if (HEX[b[i + 2]!] !== 1 || HEX[b[i + 3]!] !== 1 || HEX[b[i + 4]!] !== 1 || HEX[b[i + 5]!] !== 1) return -i - 1;
      i += 6;
    } else if (SIMPLE_ESCAPE[e] === 1) i += 2;
    else return -i - 1;
  }
}

/** Whether `b` holds `key` and then a quote at `at`. */
function sameBytes(b: Uint8Array, at: number, key: Uint8Array): boolean {
  const n = key.length;
  for (let i = 0; i < n; i++) if (b[at + i] !== key[i]) return false;
  return b[at + n] === 34;
}

export function describe(b: Uint8Array, i: number): string {
  if (i >= b.length || b[i] === 10) return "end of line";
  let end = i;
  while (end < b.length && end < i + 12 && b[end] !== 10) end++;
  return `'${decoder.decode(b.subarray(i, end))}${end < b.length && b[end] !== 10 ? "…" : ""}'`;
}
