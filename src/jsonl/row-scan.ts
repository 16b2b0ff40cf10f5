/**
 * The row scanner under `rows.ts`: walks one decoded text of many JSONL lines and takes only the members a
 * shape asks for. Strings are skipped with the engine's native `indexOf` (their escapes checked, never
 * decoded), nested values by a bracket walk that still checks the JSON grammar, numbers are typed from
 * their spelling as Python types them (`1.0` → PyFloat, `1` → int). A syntax error throws `ScanError`;
 * the caller turns it into a file:line message.
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

/** What to take from an object: members parsed whole, objects descended into; other strings kept or skipped. */
export interface ObjectShape {
  /** Members parsed whole (plain JSON values, numbers as JS numbers). */
  whole?: ReadonlySet<string>;
  /** Object members read with their own shape (e.g. `response` → `usage`). */
  nested?: ReadonlyMap<string, ObjectShape>;
  /** Keep string members (default: Skipped markers; a row's long texts are never copied). */
  strings?: boolean;
  /** Parse every object or array member not in `nested` whole (a full row, typed only at this level). */
  wholeRest?: boolean;
  /** The keys seen at each member position (rows of a file share a layout): a match is reused, not re-sliced. */
  keys?: string[];
}

export class ScanError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

const HEX = new Uint8Array(128);
for (const c of "0123456789abcdefABCDEF") HEX[c.charCodeAt(0)] = 1;
const SIMPLE_ESCAPE = new Uint8Array(128);
for (const c of '"\\/bfnrt') SIMPLE_ESCAPE[c.charCodeAt(0)] = 1;

/** A scanner over one text; `at` moves as rows are read. */
export class RowScanner {
  text = "";
  at = 0;
  /** The next backslash at or after the scan position (text.length when none): kept monotonic, searched lazily. */
  private backslash = -1;
  /** Whether the last string scanned held an escape. */
  escaped = false;
  /** Whether a number just read was spelled as a float (`.`, `e`, `E`, NaN, Infinity). */
  private floatSpelled = false;

  constructor(readonly nonFinite: boolean) {}

  reset(text: string, at = 0): void {
    this.text = text;
    this.at = at;
    this.backslash = -1;
  }

  fail(message: string, at = this.at): never {
    throw new ScanError(message, at);
  }

  ws(): void {
    const s = this.text;
    let i = this.at;
    let c = s.charCodeAt(i);
    while (c === 32 || c === 9 || c === 13) c = s.charCodeAt(++i);
    this.at = i;
  }

  /** Skips the string whose quote is at `at`; sets `escaped`. */
  skipString(): void {
    const s = this.text;
    let from = this.at + 1;
    this.escaped = false;
    for (;;) {
      // Most strings are short (keys, types, ids): a few characters are looked at here before the native search.
      let q = from;
      const stop = from + 24;
      for (let c = s.charCodeAt(q); q < stop && c !== 34; c = s.charCodeAt(++q));
      if (q === stop || q >= s.length) q = s.indexOf('"', q);
      if (q === -1) this.fail("unterminated string", s.length);
      let b = this.backslash;
      if (b < from) b = this.nextBackslash(from);
      if (b > q) {
        this.at = q + 1;
        return;
      }
      this.escaped = true;
      // Walk the escapes before q; one of them may be the quote at q itself.
      let next = from;
      while (b < q) {
        const e = s.charCodeAt(b + 1);
        if (e === 117) {
          for (let k = b + 2; k < b + 6; k++) if (!HEX[s.charCodeAt(k)]) this.fail("bad \\u escape in string", b);
          next = b + 6;
        } else if (e < 128 && SIMPLE_ESCAPE[e]) next = b + 2;
        else this.fail("bad escape in string", b);
        b = this.nextBackslash(next);
      }
      if (next <= q) {
        this.at = q + 1;
        return;
      }
      from = next;
    }
  }

  private nextBackslash(from: number): number {
    const b = this.text.indexOf("\\", from);
    return (this.backslash = b === -1 ? this.text.length : b);
  }

  /** Reads the string at `at` as a JS string. */
  string(): string {
    const start = this.at;
    this.skipString();
    return this.escaped ? (JSON.parse(this.text.slice(start, this.at)) as string) : this.text.slice(start + 1, this.at - 1);
  }

  /** Scans a number token at `at` (JSON grammar, plus NaN/Infinity/-Infinity when allowed); returns its end. */
  private numberEnd(): number {
    const s = this.text;
    let i = this.at;
    let c = s.charCodeAt(i);
    this.floatSpelled = false;
    if (c === 45) c = s.charCodeAt(++i);
    if (c === 48) c = s.charCodeAt(++i);
    else if (c >= 49 && c <= 57) while (c >= 48 && c <= 57) c = s.charCodeAt(++i);
    else if (c === 73 && this.nonFinite && s.startsWith("Infinity", i)) return (this.floatSpelled = true), i + 8;
    else this.fail(`unexpected ${describe(s, this.at)}`);
    if (c === 46) {
      this.floatSpelled = true;
      c = s.charCodeAt(++i);
      if (!(c >= 48 && c <= 57)) this.fail("a digit must follow the decimal point", i);
      while (c >= 48 && c <= 57) c = s.charCodeAt(++i);
    }
    if (c === 101 || c === 69) {
      this.floatSpelled = true;
      c = s.charCodeAt(++i);
      if (c === 43 || c === 45) c = s.charCodeAt(++i);
      if (!(c >= 48 && c <= 57)) this.fail("a digit must follow the exponent", i);
      while (c >= 48 && c <= 57) c = s.charCodeAt(++i);
    }
    return i;
  }

  /** A number as Python types it: a whole value spelled as a float is a PyFloat, else a JS number. */
  number(): number | PyFloat {
    const s = this.text;
    const start = this.at;
    // Short integers (indices, token counts) are summed here: no slice, no Number().
    let i = start;
    let c = s.charCodeAt(i);
    if (c >= 49 && c <= 57) {
      let v = c - 48;
      c = s.charCodeAt(++i);
      while (c >= 48 && c <= 57 && i - start < 15) (v = v * 10 + c - 48), (c = s.charCodeAt(++i));
      if (!(c >= 48 && c <= 57) && c !== 46 && c !== 101 && c !== 69) return (this.at = i), v;
    }
    if (c === 78) return this.nan();
    const end = this.numberEnd();
    this.at = end;
    const v = Number(this.text.slice(start, end));
    return this.floatSpelled && Number.isInteger(v) ? new PyFloat(v) : v;
  }

  private nan(): number {
    if (!this.nonFinite || !this.text.startsWith("NaN", this.at)) this.fail(`unexpected ${describe(this.text, this.at)}`);
    this.at += 3;
    return NaN;
  }

  private literal(word: string): void {
    if (!this.text.startsWith(word, this.at)) this.fail(`unexpected ${describe(this.text, this.at)}`);
    this.at += word.length;
  }

  /** Any scalar, or a Skipped marker for a string (unless `keepStrings`), object or array (skipped whole). */
  value(keepStrings: boolean): unknown {
    const c = this.text.charCodeAt(this.at);
    if (c === 34) {
      if (keepStrings) return this.string();
      this.skipString();
      return SKIPPED_STRING;
    }
    if (c === 123) return this.skipComposite(), SKIPPED_OBJECT;
    if (c === 91) return this.skipComposite(), SKIPPED_ARRAY;
    if (c === 116) return this.literal("true"), true;
    if (c === 102) return this.literal("false"), false;
    if (c === 110) return this.literal("null"), null;
    if (c !== c) this.fail("unexpected end of line (the row is cut short)");
    return this.number();
  }

  /** Parses the value at `at` whole (plain JSON.parse; its own walk when it holds NaN/Infinity). */
  whole(): unknown {
    const start = this.at;
    const c = this.text.charCodeAt(start);
    if (c === 123 || c === 91) this.skipComposite();
    else this.value(true);
    const slice = this.text.slice(start, this.at);
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

  /** Skips the object or array at `at`, checking its grammar (keys, colons, commas, values). */
  skipComposite(): void {
    const s = this.text;
    let stack = this.stack;
    let depth = 0;
    let c = s.charCodeAt(this.at);
    for (;;) {
      // `at` is on the start of a value
      if (c === 123 || c === 91) {
        this.at++;
        if (depth === stack.length) (stack = new Uint8Array(depth * 2)).set(this.stack), (this.stack = stack);
        const top = (stack[depth++] = c === 123 ? 1 : 2);
        this.ws();
        c = s.charCodeAt(this.at);
        if (c === (top === 1 ? 125 : 93)) {
          this.at++;
          depth--;
        } else {
          if (top === 1) this.key(), (c = s.charCodeAt(this.at));
          continue;
        }
      } else if (c === 34) this.skipString();
      else if (c === 116) this.literal("true");
      else if (c === 102) this.literal("false");
      else if (c === 110) this.literal("null");
      else if (c === 78) this.nan();
      else if (c !== c) this.fail("unexpected end of line (the row is cut short)");
      else this.at = this.numberEnd();
      // after a value: a comma or the closing bracket of the innermost container
      for (;;) {
        if (depth === 0) return;
        this.ws();
        c = s.charCodeAt(this.at);
        const top = stack[depth - 1]!;
        if (c === 44) {
          this.at++;
          this.ws();
          if (top === 1) this.key();
          c = s.charCodeAt(this.at);
          break;
        }
        if (c === (top === 1 ? 125 : 93)) {
          this.at++;
          depth--;
          continue;
        }
        this.fail(c !== c ? "unexpected end of line (the row is cut short)" : `expected ',' or '${top === 1 ? "}" : "]"}', found ${describe(s, this.at)}`);
      }
    }
  }

  /** Inside an object: a key and its colon, leaving `at` on the value. */
  private key(): void {
    const s = this.text;
    if (s.charCodeAt(this.at) !== 34) this.fail(this.at >= s.length ? "unexpected end of line (the row is cut short)" : `expected a quoted key, found ${describe(s, this.at)}`);
    this.skipString();
    this.ws();
    if (s.charCodeAt(this.at) !== 58) this.fail(`expected ':' after key, found ${describe(s, this.at)}`);
    this.at++;
    this.ws();
  }

  /**
   * Reads the object at `at` by `shape`: every member in order, scalars as values (numbers Python-typed),
   * nested shapes read, whole members parsed, the rest as Skipped markers. `onMember` sees each key first
   * (for a stage's checks). Keys spelled with escapes are decoded.
   */
  object(shape: ObjectShape): Row {
    const s = this.text;
    const row: Row = {};
    this.at++;
    this.ws();
    if (s.charCodeAt(this.at) === 125) return this.at++, row;
    const keepStrings = shape.strings === true;
    const whole = shape.whole;
    const nested = shape.nested;
    const wholeRest = shape.wholeRest === true;
    const keys = (shape.keys ??= []);
    for (let member = 0; ; member++) {
      if (s.charCodeAt(this.at) !== 34) this.fail(this.at >= s.length ? "unexpected end of line (the row is cut short)" : `expected a quoted key, found ${describe(s, this.at)}`);
      let k = keys[member];
      if (k !== undefined && sameText(s, this.at + 1, k)) this.at += k.length + 2;
      else {
        k = this.string();
        // Only keys without quotes or backslashes: their raw text is their value.
        if (!this.escaped && member < 64) keys[member] = k;
      }
      this.ws();
      if (s.charCodeAt(this.at) !== 58) this.fail(`expected ':' after key, found ${describe(s, this.at)}`);
      this.at++;
      this.ws();
      let v: unknown;
      const inner = nested?.get(k);
      if (inner !== undefined && s.charCodeAt(this.at) === 123) v = this.object(inner);
      else if (whole?.has(k) || (wholeRest && (s.charCodeAt(this.at) | 32) === 123)) v = this.whole();
      else v = this.value(keepStrings);
      if (k === "__proto__") Object.defineProperty(row, k, { value: v, enumerable: true, writable: true, configurable: true });
      else row[k] = v;
      this.ws();
      const c = s.charCodeAt(this.at);
      if (c === 44) {
        this.at++;
        this.ws();
        continue;
      }
      if (c === 125) return this.at++, row;
      this.fail(c !== c ? "unexpected end of line (the row is cut short)" : `expected ',' or '}', found ${describe(s, this.at)}`);
    }
  }
}

/** Whether `text` holds `key` and then a quote at `at` (a short loop beats a startsWith call on keys). */
function sameText(text: string, at: number, key: string): boolean {
  const n = key.length;
  for (let i = 0; i < n; i++) if (text.charCodeAt(at + i) !== key.charCodeAt(i)) return false;
  return text.charCodeAt(at + n) === 34;
}

export function describe(text: string, i: number): string {
  if (i >= text.length) return "end of line";
  const snippet = text.slice(i, i + 12);
  return `'${snippet}${text.length > i + 12 ? "…" : ""}'`;
}
