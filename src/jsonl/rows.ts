/**
 * The row reader of the analysis stages: streams a JSONL file (or stdin, "-") and takes from each row only
 * the members a stage needs, with their types checked. It is faster than JSON.parse of every line because
 * the long parts of a row (prompts, outputs, tool calls) are skipped, not built.
 *
 * API
 * - `new RowReader(shape)`, then `for await (const batch of reader.batches(file))`: each `RowBatch` holds
 *   `rows[i]` (a plain object: every top-level member in file order), `lines[i]` (1-based line number),
 *   `offsets[i]`/`lengths[i]` (where the line's bytes are, without its `\n` or a final `\r`) and
 *   `text(i)` (the line's text, while the batch is current). `reader.line(text, shown, line)` reads one line.
 * - `shape.nested` objects are read member by member (`{ response: { nested: { usage: {} } } }`);
 *   `shape.whole` members are parsed whole (plain JSON, numbers as JS numbers); every other string,
 *   object or array member is a shared `Skipped` marker (`SKIPPED_STRING`, `SKIPPED_OBJECT`,
 *   `SKIPPED_ARRAY`) unless `strings: true` keeps strings and `wholeRest: true` parses the other objects and
 *   arrays whole. Scalars are always kept.
 * - Numbers keep Python's typing: a whole value spelled as a float (`1.0`, `2e3`) is a `PyFloat`, any other
 *   number a JS number (a whole one is a Python int). `NaN`, `Infinity` and `-Infinity` (what Python's
 *   `json.dumps` writes) are read as floats unless `nonFinite: false`.
 * - `shape.checks` (dotted paths: `"agent_ref.name"`) check the type of each field read: a wrong type stops
 *   with a GymError (E_INPUT_SCHEMA) naming file:line, the field, what was expected and what was found;
 *   `null: "warn"` / `required: "warn"` / `nonFinite: "warn"` count a null / missing / NaN or ±Infinity field in `reader.warnings` instead. Check kinds: `index` (a Python int ≥ 0 below
 *   2^53), `number` (int or float, not bool), `object`, `string`.
 * - Bad JSON stops with E_INPUT_JSON (or, with `badLines: "mark"`, is given as the row `UNREADABLE`) (file:line:column), a cut-off last line with E_INPUT_TRUNCATED, bytes that
 *   are not UTF-8 with E_INPUT_ENCODING naming the line and the byte offset (`text/utf8.ts`). Blank lines are skipped; CRLF
 *   endings and a UTF-8 BOM at the start of the file (or of a line: `batch.bom`) are accepted.
 */
import { GymError } from "../errors.ts";
import { formatPyFloat, PyFloat } from "../metrics/pyjson.ts";
import { readBytes } from "../runtime/files.ts";
import { locateJsonError } from "./json-error.ts";
import { issueError, type Row } from "./read.ts";
import { isAscii, isUtf8 } from "node:buffer";
import { type ObjectShape, RowScanner, ScanError, SKIPPED_OBJECT, Skipped, textOf } from "./row-scan.ts";
import { firstInvalidByte, invalidUtf8 } from "../text/utf8.ts";

export { parseSpan, SKIPPED_ARRAY, SKIPPED_OBJECT, SKIPPED_STRING, Skipped, Span } from "./row-scan.ts";

export interface FieldCheck {
  type: "index" | "number" | "object" | "string";
  /** A missing field is an error (true), a counted warning ("warn"), or allowed (default). */
  required?: boolean | "warn";
  /** What a null is: an error (default), allowed, or a counted warning. */
  null?: "error" | "allow" | "warn";
  /** A NaN or ±Infinity (Python's json writes them) in a `number` field: allowed (default) or a counted warning. */
  nonFinite?: "allow" | "warn";
}

export interface RowShape {
  whole?: string[];
  /** Members given as a `Span` of their bytes in `RowBatch.bytes` (checked JSON, nothing built). */
  spans?: string[];
  nested?: Record<string, RowShape>;
  strings?: boolean;
  wholeRest?: boolean;
  checks?: Record<string, FieldCheck>;
  nonFinite?: boolean;
  /** "mark": a line that is not a JSON object is given as the row UNREADABLE instead of stopping the read. */
  badLines?: "throw" | "mark";
  /**
   * Rows as JSON.parse gives them (every member, plain numbers, no markers), each line parsed natively: cheaper
   * than the scanner when a stage keeps most of a short row. A line JSON.parse refuses (NaN, a BOM, an error)
   * is read by the scanner (same values, same errors). Not with `checks`, `nested`, `whole`, `strings`, `wholeRest`.
   */
  json?: boolean;
}

/** The row of a line that is not a JSON object, when `badLines: "mark"`. */
export const UNREADABLE: Row = Object.freeze({});

export interface RowBatch {
  rows: Row[];
  lines: number[];
  offsets: number[];
  lengths: number[];
  /** Some row of the batch began with a BOM (the bytes keep it; the row was read without it). */
  bom: boolean;
  /** The block the rows were read from (`Span`s point into it; valid while the batch is current). */
  bytes: Uint8Array;
  text(i: number): string;
}

interface Check {
  path: string[];
  name: string;
  check: FieldCheck;
  missing: string;
  isNull: string;
  test: (v: unknown) => boolean;
}

function compile(shape: RowShape, checks: Record<string, FieldCheck>): ObjectShape {
  const nested = new Map<string, ObjectShape>();
  for (const [k, inner] of Object.entries(shape.nested ?? {})) nested.set(k, compile(inner, {}));
  // A check below the top level needs its parents read, and a string check its strings kept.
  for (const [path, check] of Object.entries(checks)) {
    const parts = path.split(".");
    let level: { nested?: ReadonlyMap<string, ObjectShape>; strings?: boolean } = { nested };
    for (const part of parts.slice(0, -1)) {
      const map = level.nested as Map<string, ObjectShape>;
      let next = map.get(part);
      // A level made for a check reads as its parent does (a full row keeps every member of agent_ref).
      if (!next) map.set(part, (next = { nested: new Map(), strings: shape.strings === true, wholeRest: shape.wholeRest === true }));
      level = next;
    }
    if (check.type === "string") (level as { strings?: boolean }).strings = true;
  }
  return { whole: new Set(shape.whole ?? []), spans: shape.spans ? new Set(shape.spans) : undefined, nested, strings: shape.strings === true, wholeRest: shape.wholeRest === true };
}

const encoder = new TextEncoder();
const blockDecoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** A line's text for messages, without a final `\r`. */
function lineText(bytes: Uint8Array, start: number, end: number): string {
  return textOf(bytes, start, bytes[end - 1] === 13 ? end - 1 : end);
}

export class RowReader {
  /** Counted warnings (a null where `null: "warn"`): message → rows. */
  readonly warnings = new Map<string, number>();
  private readonly shape: ObjectShape;
  private readonly checks: Check[];
  private readonly scanner: RowScanner;
  private nextLine = 1;
  private readonly markBad: boolean;

  constructor(shape: RowShape = {}) {
    this.checks = Object.entries(shape.checks ?? {}).map(([name, check]) => ({ name, path: name.split("."), check, missing: `${name} is missing`, isNull: `${name} is null`, test: PASSES[check.type] }));
    this.json = shape.json === true;
    if (this.json && (this.checks.length > 0 || shape.nested || shape.whole || shape.spans || shape.strings || shape.wholeRest)) throw new Error("RowReader: json rows take no checks and no projection");
    this.shape = this.json ? { strings: true, wholeRest: true, plain: true } : compile(shape, shape.checks ?? {});
    this.scanner = new RowScanner(shape.nonFinite !== false);
    this.markBad = shape.badLines === "mark";
  }

  private readonly json: boolean;

  /** Reads one line (without its newline) as a row; undefined for a blank line. */
  line(text: string, shown: string, line: number, terminated = true): Row | undefined {
    return this.scan(encoder.encode(text), 0, shown, line, terminated).rows[0];
  }

  /** The rows of a file in batches (one per ~1 MB read). `onBytes` sees every chunk as read (to hash it). */
  async *batches(file: string, options: { shown?: string; onBytes?: (chunk: Uint8Array) => void } = {}): AsyncGenerator<RowBatch> {
    const shown = options.shown ?? (file === "-" ? "<stdin>" : file);
    let line = 1;
    for await (const block of readBlocks(file, options.onBytes)) {
      // UTF-8 is checked for the whole block at once (natively); the scan then reads bytes, never text.
      if (!isUtf8(block.bytes)) throw notUtf8(shown, block.bytes, block.start, line);
      const batch = this.json ? this.parseLines(block.bytes, block.start, shown, line, block.terminated) : this.scan(block.bytes, block.start, shown, line, block.terminated);
      line = this.nextLine;
      if (batch.rows.length > 0) yield batch;
    }
  }

  /** Scans `bytes` (whole lines of valid UTF-8); `base`: their offset in the file. Sets `nextLine`. */
  private scan(bytes: Uint8Array, base: number, shown: string, firstLine: number, terminated: boolean): RowBatch {
    const sc = this.scanner;
    sc.reset(bytes, base === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0);
    const rows: Row[] = [];
    const lines: number[] = [];
    const offsets: number[] = [];
    const lengths: number[] = [];
    let bom = false;
    const n = bytes.length;
    let line = firstLine;
    while (sc.at < n) {
      const start = sc.at;
      sc.ws();
      let c = bytes[sc.at];
      if (c === 10 || sc.at >= n) {
        sc.at++;
        line++;
        continue;
      }
      if (c === 0xef && bytes[sc.at + 1] === 0xbb && bytes[sc.at + 2] === 0xbf) (bom = true), (sc.at += 3), sc.ws(), (c = bytes[sc.at]);
      let row: Row;
      try {
        if (c !== 123) sc.fail("not an object");
        row = sc.object(this.shape);
        sc.ws();
        c = bytes[sc.at];
        if (c !== 10 && sc.at < n) sc.fail("after the value");
      } catch (error) {
        if (!(error instanceof ScanError) && !(error instanceof SyntaxError)) throw error;
        let end = bytes.indexOf(10, start);
        if (end === -1) end = n;
        if (!this.markBad) throw badLine(shown, line, lineText(bytes, start, end), end < n || terminated);
        sc.at = end;
        row = UNREADABLE;
      }
      const end = sc.at;
      const cr = bytes[end - 1] === 13 ? 1 : 0;
      rows.push(row);
      lines.push(line);
      offsets.push(base + start);
      lengths.push(end - cr - start);
      if (this.checks.length > 0 && row !== UNREADABLE) this.check(row, shown, line, bytes, start, end);
      sc.at++;
      line++;
    }
    this.nextLine = line;
    return { rows, lines, offsets, lengths, bom, bytes, text: (i) => textOf(bytes, offsets[i]! - base, offsets[i]! - base + lengths[i]!) };
  }

  /** `scan` for json rows: JSON.parse of each line's text (decoded once per block), the scanner for a line it refuses. */
  private parseLines(bytes: Uint8Array, base: number, shown: string, firstLine: number, terminated: boolean): RowBatch {
    const rows: Row[] = [];
    const lines: number[] = [];
    const offsets: number[] = [];
    const lengths: number[] = [];
    let bom = false;
    const text = blockDecoder.decode(bytes);
    // Byte offsets are character offsets while the block is ASCII; otherwise each line's UTF-8 length is counted.
    const ascii = isAscii(bytes);
    let at = base === 0 && text.charCodeAt(0) === 0xfeff ? 1 : 0;
    let byte = at * 3;
    let line = firstLine;
    while (at < text.length) {
      let nl = text.indexOf("\n", at);
      if (nl === -1) nl = text.length;
      const cr = nl > at && text.charCodeAt(nl - 1) === 13 ? 1 : 0;
      const lineText = text.slice(at, nl - cr);
      const byteLength = ascii ? nl - at : Buffer.byteLength(lineText) + cr;
      let row: unknown;
      try {
        row = JSON.parse(lineText);
      } catch {
        row = undefined;
      }
      if (row !== null && typeof row === "object" && !Array.isArray(row)) {
        rows.push(row as Row);
        lines.push(line);
        offsets.push(base + byte);
        lengths.push(byteLength - cr);
      } else {
        // Blank lines, NaN, a BOM, errors: the scanner decides, on this line's bytes.
        const one = this.scan(bytes.subarray(byte, Math.min(byte + byteLength + 1, bytes.length)), base + byte, shown, line, nl < text.length || terminated);
        if (one.rows.length > 0) rows.push(one.rows[0]!), lines.push(line), offsets.push(one.offsets[0]!), lengths.push(one.lengths[0]!);
        bom ||= one.bom;
      }
      at = nl + 1;
      byte += byteLength + 1;
      line++;
    }
    this.nextLine = line;
    return { rows, lines, offsets, lengths, bom, bytes, text: (i) => textOf(bytes, offsets[i]! - base, offsets[i]! - base + lengths[i]!) };
  }

  private warn(message: string): void {
    this.warnings.set(message, (this.warnings.get(message) ?? 0) + 1);
  }

  /** The counted warnings as sentences (`file: 3 row(s) where reward is null`), then forgets them (call once per file). */
  takeWarnings(shown: string): string[] {
    const lines = [...this.warnings].map(([message, rows]) => `${shown}: ${rows} row(s) where ${message}`);
    this.warnings.clear();
    return lines;
  }

  private check(row: Row, shown: string, line: number, bytes: Uint8Array, start: number, end: number): void {
    const checks = this.checks;
    for (let c = 0; c < checks.length; c++) {
      const { path, name, check, missing, isNull, test } = checks[c]!;
      let v: unknown = row[path[0]!];
      for (let p = 1; p < path.length && v !== undefined; p++) v = v !== null && typeof v === "object" && !(v instanceof Skipped) && !(v instanceof PyFloat) ? (v as Row)[path[p]!] : undefined;
      // The common case first: a value of the right type.
      if (v !== undefined && v !== null && test(v)) {
        if (check.nonFinite === "warn") {
          const x = v instanceof PyFloat ? v.value : (v as number);
          if (!Number.isFinite(x)) this.warn(`${name} is ${Number.isNaN(x) ? "NaN" : x > 0 ? "Infinity" : "-Infinity"}`);
        }
        continue;
      }
      if (v === undefined) {
        if (check.required === "warn") this.warn(missing);
        else if (check.required) throw fieldError(shown, line, name, check, "nothing (the field is missing)");
        continue;
      }
      if (v === null) {
        const policy = check.null ?? "error";
        if (policy === "warn") this.warn(isNull);
        else if (policy === "error") throw fieldError(shown, line, name, check, "null");
        continue;
      }
      throw fieldError(shown, line, name, check, received(lineText(bytes, start, end), path, v));
    }
  }
}

const MAX_INDEX = Number.MAX_SAFE_INTEGER;
/** Whether a value (not undefined, not null) has the type a check asks for, one function per type. */
const PASSES: Record<FieldCheck["type"], (v: unknown) => boolean> = {
  index: (v) => typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= MAX_INDEX,
  number: (v) => typeof v === "number" || v instanceof PyFloat,
  object: (v) => v === SKIPPED_OBJECT || (typeof v === "object" && v !== null && !(v instanceof Skipped) && !(v instanceof PyFloat) && !Array.isArray(v)),
  string: (v) => typeof v === "string",
};

const EXPECTED: Record<FieldCheck["type"], string> = {
  index: "a non-negative integer below 2^53 (a Python int)",
  number: "a number (int or float)",
  object: "a JSON object",
  string: "a string",
};

/** What a failed field holds, in words, with its JSON text (taken from the line: skipped values were not kept). */
function received(text: string, path: string[], v: unknown): string {
  let actual: unknown = v;
  if (v instanceof Skipped) {
    try {
      actual = path.reduce<unknown>((o, p) => (o as Row)?.[p], JSON.parse(text));
    } catch {}
  }
  const json = JSON.stringify(actual instanceof PyFloat ? actual.value : actual);
  const shown = json === undefined ? String(actual) : json.length > 60 ? `${json.slice(0, 57)}…` : json;
  if (typeof actual === "string") return `the string ${shown}`;
  if (typeof actual === "boolean") return `the bool ${shown}`;
  if (Array.isArray(actual) || (v instanceof Skipped && v.type === "array")) return `an array ${shown}`;
  if (v instanceof Skipped && v.type === "object") return `an object ${shown}`;
  if (actual instanceof PyFloat) return `the float ${formatPyFloat(actual.value)}`;
  if (typeof actual === "number") {
    if (!Number.isInteger(actual)) return `the float ${actual}`;
    if (actual < 0) return `the negative number ${actual}`;
    return `the number ${actual} (too large)`;
  }
  return shown;
}

function fieldError(shown: string, line: number, name: string, check: FieldCheck, got: string): GymError {
  return new GymError("E_INPUT_SCHEMA", `${shown}:${line}: field '${name}' must be ${EXPECTED[check.type]}${check.null === "allow" ? " or null" : ""}, but it is ${got}`, {
    hint: `Fix that row's '${name}' (files written by gym eval run or NeMo Gym have the right types).`,
  });
}

function badLine(shown: string, line: number, text: string, terminated: boolean): GymError {
  let value: unknown;
  let parsed = false;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    parsed = true;
  } catch {}
  if (parsed && (typeof value !== "object" || value === null || Array.isArray(value))) {
    return issueError({ source: shown, line, column: 1, kind: "not-an-object", message: `expected a JSON object, found ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}` });
  }
  const problem = locateJsonError(text) ?? { column: 1, message: "invalid JSON" };
  const cutShort = problem.column > text.length || problem.message.startsWith("unexpected end") || problem.message === "unterminated string";
  if (!terminated && cutShort) {
    return issueError({ source: shown, line, column: problem.column, kind: "truncated", message: `the last line is cut off (${text.length} characters, no final newline): a writer was probably killed mid-row` });
  }
  return issueError({ source: shown, line, column: problem.column, kind: "invalid-json", message: `invalid JSON: ${problem.message}` });
}

/** A block (whole lines from `firstLine`, at offset `base` of the file) that a fatal decoder refused. */
function notUtf8(shown: string, bytes: Uint8Array, base: number, firstLine: number): GymError {
  return invalidUtf8(shown, bytes, firstInvalidByte(bytes), firstLine, base, true);
}

interface Block {
  bytes: Uint8Array;
  /** Offset of bytes[0] in the file. */
  start: number;
  /** Whether the block ends with a newline (all but a last line without one). */
  terminated: boolean;
}

/** A file's bytes in blocks of whole lines (a line longer than a chunk is joined from its pieces). */
async function* readBlocks(file: string, onBytes?: (chunk: Uint8Array) => void): AsyncGenerator<Block> {
  let carry: Uint8Array[] = [];
  let carryBytes = 0;
  let base = 0;
  for await (const chunk of readBytes(file, { reuseBuffer: true })) {
    onBytes?.(chunk);
    let from = 0;
    if (carryBytes > 0) {
      // The line begun in earlier chunks: only its bytes are joined.
      const nl = chunk.indexOf(10);
      if (nl === -1) {
        carry.push(chunk.slice());
        carryBytes += chunk.length;
        continue;
      }
      carry.push(chunk.subarray(0, nl + 1));
      const bytes = concat(carry, carryBytes + nl + 1);
      yield { bytes, start: base, terminated: true };
      base += bytes.length;
      carry = [];
      carryBytes = 0;
      from = nl + 1;
    }
    const last = chunk.lastIndexOf(10);
    if (last >= from) {
      yield { bytes: chunk.subarray(from, last + 1), start: base, terminated: true };
      base += last + 1 - from;
      from = last + 1;
    }
    if (from < chunk.length) {
      carry.push(chunk.slice(from));
      carryBytes += chunk.length - from;
    }
  }
  if (carryBytes > 0) yield { bytes: concat(carry, carryBytes), start: base, terminated: false };
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) out.set(p, at), (at += p.length);
  return out;
}
