/** Python `str` semantics that leak into rewards: the whitespace set, strip/split/splitlines, code-point length, isalpha. */

// str.isspace() characters (bidi WS/B/S or category Zs). JavaScript's trim() differs at \x1c-\x1f, \x85, \ufeff.
const SPACE = new Set<number>([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680,
  0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
  0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

/** The same set as a RegExp class body (for `u`/`v` patterns). */
export const PY_SPACE_CLASS = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

/** str.isspace() for one UTF-16 code unit (every Python space is in the BMP). */
export function isPySpace(code: number): boolean {
  return code <= 0x20 ? SPACE.has(code) : code >= 0x85 && SPACE.has(code);
}

/** str.strip() / str.strip(chars). */
export function pyStrip(s: string, chars?: string): string {
  let start = 0;
  let end = s.length;
  if (chars === undefined) {
    while (start < end && isPySpace(s.charCodeAt(start))) start++;
    while (end > start && isPySpace(s.charCodeAt(end - 1))) end--;
  } else {
    while (start < end && chars.includes(s[start]!)) start++;
    while (end > start && chars.includes(s[end - 1]!)) end--;
  }
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** str.rstrip(chars). */
export function pyRstrip(s: string, chars: string): string {
  let end = s.length;
  while (end > 0 && chars.includes(s[end - 1]!)) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** str.split() with no separator: runs of Python whitespace, no empty strings. */
export function pySplit(s: string): string[] {
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i < s.length; i++) {
    if (isPySpace(s.charCodeAt(i))) {
      if (start >= 0) out.push(s.slice(start, i));
      start = -1;
    } else if (start < 0) start = i;
  }
  if (start >= 0) out.push(s.slice(start));
  return out;
}

/** `" ".join(s.split())`: trim and collapse every whitespace run to one space. */
export function pyCollapseSpace(s: string): string {
  return pySplit(s).join(" ");
}

// str.splitlines() boundaries: \n \r \r\n \v \f \x1c \x1d \x1e \x85 \u2028 \u2029.
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/** str.splitlines() (no keepends): a trailing line break does not add an empty line. */
export function pySplitlines(s: string): string[] {
  if (s === "") return [];
  const parts = s.split(LINE_BREAK);
  if (parts[parts.length - 1] === "") parts.pop();
  return parts;
}

/** len(s): code points, not UTF-16 units. */
export function pyLen(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** s[:n] in code points. */
export function pyPrefix(s: string, n: number): string {
  if (n <= 0) return "";
  let i = 0;
  let count = 0;
  while (i < s.length && count < n) {
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < s.length ? 2 : 1;
    count++;
  }
  return s.slice(0, i);
}

const ALPHA = /^\p{L}$/u;

/** str.isalpha() for a one-character string (categories Lu Ll Lt Lm Lo). */
export function pyIsAlphaChar(ch: string): boolean {
  return ALPHA.test(ch);
}
