/** Python `str` predicates the instruction checkers lean on: isupper/islower/isalpha/isdigit over code points, and `[::-1]`. */

const UPPER = /\p{Uppercase}/u;
const LOWER = /\p{Lowercase}/u;
const TITLE = /\p{Lt}/u;

/** str.isupper(): at least one cased character and none lowercase or titlecase. */
export function pyIsUpper(s: string): boolean {
  let cased = false;
  for (const ch of s) {
    if (LOWER.test(ch) || TITLE.test(ch)) return false;
    if (UPPER.test(ch)) cased = true;
  }
  return cased;
}

/** str.islower(): at least one cased character and none uppercase or titlecase. */
export function pyIsLower(s: string): boolean {
  let cased = false;
  for (const ch of s) {
    if (UPPER.test(ch) || TITLE.test(ch)) return false;
    if (LOWER.test(ch)) cased = true;
  }
  return cased;
}

/** str.istitle(): cased runs start with an upper/titlecase character and continue lowercase. */
export function pyIsTitle(s: string): boolean {
  let cased = false;
  let previousCased = false;
  for (const ch of s) {
    if (UPPER.test(ch) || TITLE.test(ch)) {
      if (previousCased) return false;
      previousCased = true;
      cased = true;
    } else if (LOWER.test(ch)) {
      if (!previousCased) return false;
      previousCased = true;
      cased = true;
    } else previousCased = false;
  }
  return cased;
}

const ALPHA = /^[\p{Lu}\p{Ll}\p{Lt}\p{Lm}\p{Lo}]+$/u;
const DIGITS = /^[\p{Nd}\u00b2\u00b3\u00b9\u2070-\u2079\u2080-\u2089\u2460-\u2468\u2474-\u247c\u2488-\u2490\u24ea\u24f5-\u24fd\u24ff\u2776-\u277e\u2780-\u2788\u278a-\u2792]+$/u;
const ALNUM = /^[\p{Lu}\p{Ll}\p{Lt}\p{Lm}\p{Lo}\p{N}]+$/u;

/** str.isalpha(). */
export const pyIsAlpha = (s: string): boolean => ALPHA.test(s);
/** str.isdigit() (decimal digits plus the superscript/circled digits Python counts). */
export const pyIsDigit = (s: string): boolean => DIGITS.test(s);
/** str.isalnum() (approximated by letters and every numeric category). */
export const pyIsAlnum = (s: string): boolean => ALNUM.test(s);

/** s[::-1] by code point. */
export function pyReverse(s: string): string {
  return Array.from(s).reverse().join("");
}

/** str.lower() / str.upper() (JavaScript's full case mapping; Python agrees outside a few special casings). */
export const pyLower = (s: string): string => s.toLowerCase();

/** str.title(): every cased run capitalised after a non-cased character. */
export function pyTitle(s: string): string {
  let out = "";
  let previousCased = false;
  for (const ch of s) {
    const cased = UPPER.test(ch) || LOWER.test(ch) || TITLE.test(ch);
    out += cased ? (previousCased ? ch.toLowerCase() : ch.toUpperCase()) : ch;
    previousCased = cased;
  }
  return out;
}

/** str.capitalize(): first character upper, the rest lower. */
export function pyCapitalize(s: string): string {
  const first = s.codePointAt(0);
  if (first === undefined) return s;
  const head = String.fromCodePoint(first);
  return head.toUpperCase() + s.slice(head.length).toLowerCase();
}
