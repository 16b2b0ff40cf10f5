/** Python's `html.unescape`: numeric and named character references (WHATWG's table, longest-prefix for names without `;`). */
import table from "./html-entities.json" with { type: "json" };

const named = table.named as Record<string, string>;
const invalidCharrefs = table.invalid_charrefs as Record<string, string>;
const invalidCodepoints = new Set(table.invalid_codepoints as number[]);
const CHARREF = /&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)/gu;

function replaceCharref(s: string): string {
  if (s[0] === "#") {
    const num = s[1] === "x" || s[1] === "X" ? Number.parseInt(s.slice(2).replace(/;$/, ""), 16) : Number.parseInt(s.slice(1).replace(/;$/, ""), 10);
    if (Object.hasOwn(invalidCharrefs, String(num))) return invalidCharrefs[String(num)]!;
    if ((num >= 0xd800 && num <= 0xdfff) || num > 0x10ffff) return "\ufffd";
    if (invalidCodepoints.has(num)) return "";
    return String.fromCodePoint(num);
  }
  if (Object.hasOwn(named, s)) return named[s]!;
  // A name without its `;`: the longest known prefix (of at least two characters), the rest kept.
  for (let x = s.length - 1; x > 1; x--) if (Object.hasOwn(named, s.slice(0, x))) return named[s.slice(0, x)]! + s.slice(x);
  return `&${s}`;
}

/** Every character reference of `s` replaced as Python's html.unescape replaces it. */
export function htmlUnescape(s: string): string {
  return s.includes("&") ? s.replace(CHARREF, (_, ref: string) => replaceCharref(ref)) : s;
}
