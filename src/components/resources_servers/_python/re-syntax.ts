/** Character-level pieces of the Python → JavaScript regex translation: escaping, Python's \d \s \w sets, flags. */
import { PY_SPACE_CLASS } from "./text.ts";

export interface Flags {
  ignoreCase: boolean;
  multiline: boolean;
  dotAll: boolean;
  verbose: boolean;
  ascii: boolean;
}

export const SYNTAX_OUTSIDE = new Set("^$\\.*+?()[]{}|/");
export const SYNTAX_IN_CLASS = new Set("^$\\.*+?()[]{}|/&-!#%,:;<=>@`~");
export const WORD_U = "\\p{L}\\p{N}_";
export const WORD_A = "A-Za-z0-9_";

export function hex(cp: number): string {
  return `\\u{${cp.toString(16)}}`;
}

export function litOutside(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (SYNTAX_OUTSIDE.has(ch)) return `\\${ch}`;
  return cp < 0x21 || cp === 0x7f || (cp >= 0x80 && cp <= 0xa0) || cp === 0x2028 || cp === 0x2029 ? hex(cp) : ch;
}

export function litInClass(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (SYNTAX_IN_CLASS.has(ch)) return `\\${ch}`;
  return cp < 0x21 || cp === 0x7f || (cp >= 0x80 && cp <= 0xa0) || cp === 0x2028 || cp === 0x2029 ? hex(cp) : ch;
}

export function wordClass(f: Flags): string {
  return f.ascii ? WORD_A : WORD_U;
}

/** Class-set items (v-mode) for \d \D \s \S \w \W. */
export function setEscape(c: string, f: Flags): string | undefined {
  const space = f.ascii ? " \\t\\n\\r\\f\\v" : PY_SPACE_CLASS;
  switch (c) {
    case "d":
      return f.ascii ? "[0-9]" : "\\p{Nd}";
    case "D":
      return f.ascii ? "[^0-9]" : "\\P{Nd}";
    case "s":
      return `[${space}]`;
    case "S":
      return `[^${space}]`;
    case "w":
      return `[${wordClass(f)}]`;
    case "W":
      return `[^${wordClass(f)}]`;
  }
  return undefined;
}

export const SIMPLE_ESCAPES: Record<string, number> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };

