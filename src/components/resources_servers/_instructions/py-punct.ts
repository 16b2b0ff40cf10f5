/** `string.punctuation` and the two ways IFBench uses it: `str.translate` that deletes it, and `strip(punctuation + " ")`. */
import { pyStrip } from "../_python/text.ts";

export const PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
const PUNCT_RE = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;

/** value.translate(str.maketrans("", "", string.punctuation)). */
export const dropPunctuation = (s: string): string => s.replace(PUNCT_RE, "");
/** s.strip(string.punctuation + " "). */
export const stripPunctuation = (s: string): string => pyStrip(s, `${PUNCTUATION} `);
/** s.lstrip / s.rstrip with the same characters. */
export function lstripPunctuation(s: string): string {
  let i = 0;
  while (i < s.length && `${PUNCTUATION} `.includes(s[i]!)) i++;
  return s.slice(i);
}
export function rstripPunctuation(s: string): string {
  let i = s.length;
  while (i > 0 && `${PUNCTUATION} `.includes(s[i - 1]!)) i--;
  return s.slice(0, i);
}
