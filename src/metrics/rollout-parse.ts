/** Fast Python-typed parse of a rollout row: only the fields statistics read (top level, response.usage) keep int/float apart. */
import { PyFloat } from "./pyjson.ts";

type Row = Record<string, unknown>;

/** Skips a JSON string starting at the quote at `i`; returns the index after its closing quote. */
function skipString(text: string, i: number): number {
  for (let j = i + 1; ; ) {
    const q = text.indexOf('"', j);
    if (q === -1) return text.length;
    if (!escaped(text, q)) return q + 1;
    j = q + 1;
  }
}

/** Whether the character at `i` is escaped (preceded by an odd number of backslashes). */
function escaped(text: string, i: number): boolean {
  let back = 0;
  for (let k = i - 1; k >= 0 && text.charCodeAt(k) === 92; k--) back++;
  return back % 2 === 1;
}

/**
 * Reports the number tokens of the direct members of the object whose `{` is at `start`; `child(key)`
 * may visit a nested object too. Returns the index after the object.
 */
interface Visitor {
  number(key: string, token: string): void;
  child?(key: string): Visitor | undefined;
}

const isNumberChar = (c: number) => (c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45; // 0-9 . e E + -

function memberTokens(text: string, start: number, visitor: Visitor): number {
  let i = start + 1;
  let key: string | null = null;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const end = skipString(text, i);
      if (key === null) key = JSON.parse(text.slice(i, end)) as string;
      else key = null; // a string value
      i = end;
    } else if (c === 125) return i + 1; // }
    else if (c === 44) (key = null), i++; // ,
    else if (c === 123 || c === 91) {
      const inner = c === 123 && key !== null ? visitor.child?.(key) : undefined;
      i = inner ? memberTokens(text, i, inner) : skipValue(text, i);
      key = null;
    } else if ((c >= 48 && c <= 57) || c === 45) {
      let j = i + 1;
      while (j < text.length && isNumberChar(text.charCodeAt(j))) j++;
      if (key !== null) visitor.number(key, text.slice(i, j));
      key = null;
      i = j;
    } else i++;
  }
  return i;
}

/** Skips an object or array starting at `i` (brackets counted outside strings). */
function skipValue(text: string, i: number): number {
  let depth = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = skipString(text, i);
      continue;
    }
    if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return i;
}

const WHOLE_FLOAT = /[.eE]/;
const FLOAT_SYNTAX = /[0-9][.eE]/;

function objectOrUndefined(v: unknown): Row | undefined {
  return v && typeof v === "object" && !Array.isArray(v) && !(v instanceof PyFloat) ? (v as Row) : undefined;
}

/** The reference walk: every direct member of the row and of `response.usage`, token by token. */
function fixByWalk(text: string, row: Row): Row {
  const usage = objectOrUndefined(objectOrUndefined(row.response)?.usage);
  const fix = (target: Row | undefined) => (key: string, token: string) => {
    if (target && WHOLE_FLOAT.test(token) && typeof target[key] === "number" && Number.isInteger(target[key])) target[key] = new PyFloat(target[key] as number);
  };
  const noop = () => {};
  memberTokens(text, text.indexOf("{"), {
    number: fix(row),
    child: (key) => (key === "response" ? { number: noop, child: (k) => (k === "usage" ? { number: fix(usage) } : undefined) } : undefined),
  });
  return row;
}

/**
 * Number tokens that may be integer-valued floats: an all-zero fraction, an exponent, or 16+ digits (past
 * double precision a fraction can round away). A token with ≤ 15 digits and a non-zero fraction never
 * parses to an integer, so every `1.0`-like token a row holds is matched here (strings may add false hits).
 */
const WHOLE_CANDIDATE = /[0-9](?:\.0+(?![0-9])|[eE])|[0-9.]{17}/g;

const isWs = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

/** Where memberKeyAt found the key's opening quote (set when it returns a key). */
let keyOpen = 0;

/**
 * The key of the member whose number token contains position `at`, if that token is spelled as a float
 * (`.`, `e`, `E`) and is a member value (`"key": token`); null when it is not one (an integer spelling,
 * inside a string, an array item); undefined when the key is spelled with escapes. Sets `keyOpen`.
 */
function memberKeyAt(text: string, at: number): string | null | undefined {
  let s = at;
  while (s > 0 && isNumberChar(text.charCodeAt(s - 1))) s--;
  let float = false;
  for (let e = s; ; e++) {
    const d = text.charCodeAt(e);
    if (d === 46 || d === 101 || d === 69) float = true;
    else if (!isNumberChar(d)) break;
  }
  if (!float) return null;
  let p = s - 1;
  while (p >= 0 && isWs(text.charCodeAt(p))) p--;
  if (text.charCodeAt(p) !== 58) return null; // :
  p--;
  while (p >= 0 && isWs(text.charCodeAt(p))) p--;
  if (text.charCodeAt(p) !== 34 || escaped(text, p)) return null;
  let open = text.lastIndexOf('"', p - 1);
  while (open > 0 && escaped(text, open)) open = text.lastIndexOf('"', open - 1);
  if (open < 0) return null;
  const key = text.slice(open + 1, p);
  if (key.includes("\\")) return undefined;
  keyOpen = open;
  return key;
}

/**
 * How deeply the position `at` (outside any string) is nested: 1 for a member of the top-level object.
 * Walks from whichever end of the line is nearer, skipping strings whole.
 */
function depthAt(text: string, at: number): number {
  let depth = 0;
  if (text.length - at < at) {
    for (let i = text.length - 1; i > at; i--) {
      const c = text.charCodeAt(i);
      if (c === 125 || c === 93) depth++;
      else if (c === 123 || c === 91) depth--;
      else if (c === 34) {
        let open = text.lastIndexOf('"', i - 1);
        while (open > 0 && escaped(text, open)) open = text.lastIndexOf('"', open - 1);
        i = open;
      }
    }
    return depth;
  }
  for (let i = 0; i < at; i++) {
    const c = text.charCodeAt(i);
    if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) depth--;
    else if (c === 34) i = skipString(text, i) - 1;
  }
  return depth;
}

/**
 * JSON.parse of one rollout line, then whole-valued floats (`1.0`) among the top-level fields and
 * `response.usage` turned into PyFloat — all that NeMo Gym's statistics look at — at a fraction of
 * the cost of a full Python-typed parse. Nested values keep plain JS numbers.
 *
 * Fast path: one regex pass finds the `1.0`-like tokens; a token whose key is an integer-valued top-level
 * field is checked for being a top-level member by its nesting depth. Anything rarer (a usage field spelled
 * `10.0`, a key spelled with escapes) takes the token walk, which is exact.
 */
export function parseRolloutLine(text: string): Row {
  return typeRolloutRow(text, JSON.parse(text) as Row);
}

/** The typing step of parseRolloutLine, for a caller that parsed `text` itself (and checked it is an object). */
export function typeRolloutRow(text: string, row: Row): Row {
  const hints = oneLine;
  hints.keys.length = hints.flags.length = 0;
  hints.starts.length = 1;
  hints.add(text);
  return hints.apply(text, row, 0);
}

/** Hints of one line at a time, for typeRolloutRow. */
let oneLine: TypingHints;

/** A hint's flags: the member is a top-level one; or the row needs the exact token walk. */
const TOP = 1;
const WALK = 2;

/**
 * typeRolloutRow in two halves, so the text half can run on another thread: `add(text)` notes a line's
 * float-spelled member tokens (key, top-level or not); `apply` then types the parsed row from them.
 * Hints of many lines sit in three flat lists (keys, flags, where each line's hints start).
 */
export class TypingHints {
  keys: string[] = [];
  flags: number[] = [];
  /** starts[i]: index of line i's first hint; one more entry than lines. */
  starts: number[] = [0];

  /** Hints noted on another thread (keys, flags and starts as `add` left them). */
  static from(keys: string[], flags: ArrayLike<number>, starts: ArrayLike<number>): TypingHints {
    const hints = new TypingHints();
    hints.keys = keys;
    hints.flags = flags as number[];
    hints.starts = starts as number[];
    return hints;
  }

  /** Notes the hints of the next line. */
  add(text: string): void {
    WHOLE_CANDIDATE.lastIndex = 0;
    for (let m = WHOLE_CANDIDATE.exec(text); m !== null; m = WHOLE_CANDIDATE.exec(text)) {
      const key = memberKeyAt(text, m.index);
      if (key === null) continue;
      if (key === undefined) {
        this.keys.push("");
        this.flags.push(WALK);
        break;
      }
      this.keys.push(key);
      this.flags.push(depthAt(text, keyOpen) === 1 ? TOP : 0);
    }
    this.starts.push(this.keys.length);
  }

  /** Types `row` (JSON.parse of `text`, line `line` of the hints) from its hints. */
  apply(text: string, row: Row, line: number): Row {
    const end = this.starts[line + 1]!;
    // response.usage, looked up once a row and only if a float-spelled member needs it (null: not yet).
    let usage: Row | undefined | null = null;
    for (let h = this.starts[line]!; h < end; h++) {
      const flags = this.flags[h]!;
      if (flags & WALK) return fixByWalk(text, row);
      const key = this.keys[h]!;
      const top = row[key];
      if (flags & TOP && typeof top === "number" && Number.isInteger(top) && Object.hasOwn(row, key)) row[key] = new PyFloat(top);
      if (usage === null) usage = objectOrUndefined(objectOrUndefined(row.response)?.usage);
      const inUsage = usage?.[key];
      if (typeof inUsage === "number" && Number.isInteger(inUsage) && Object.hasOwn(usage!, key)) return fixByWalk(text, row);
    }
    return row;
  }
}
oneLine = new TypingHints();

/** The exact token walk alone (reference for tests and the fallback of `parseRolloutLine`). */
export function parseRolloutLineByWalk(text: string): Row {
  const row = JSON.parse(text) as Row;
  if (!FLOAT_SYNTAX.test(text)) return row;
  return fixByWalk(text, row);
}
