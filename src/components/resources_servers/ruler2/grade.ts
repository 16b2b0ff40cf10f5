/**
 * RULER v2's two grades (NeMo Skills' `eval_ruler2` and relaxed `eval_mcq`): the soft string match
 * `max(substring, 1 - WER)` aggregated per match type, and the single letter of a multiple-choice reply.
 */
import { pySum } from "../../../metrics/numeric.ts";
import { pyCompile, pyFindall } from "../_python/re.ts";
import { pyLen, pySplit, pyStrip } from "../_python/text.ts";

const CONTROL = /[\x00-\x1f]/g;
const DOCUMENT_HEADER = pyCompile(String.raw`Document \d+:(?:.*\n)+?\n`);
const FINAL_ANSWER = pyCompile(String.raw`The final answer is (.+)$`, { multiline: true });
const LETTER_TAIL = pyCompile(String.raw`\b[A-Z]\b(?!.*\b[A-Z]\b)`, { dotAll: true });
const ANSWER_COLON = pyCompile(String.raw`(?i)[\*\_]{0,2}Answer[\*\_]{0,2}\s*:[\s\*\_]{0,2}\s*([A-Z])(?![a-zA-Z0-9])`);

/** `default_parse`: stripped, every ASCII control character a newline, stripped again. */
export const defaultParse = (prediction: string) => pyStrip(pyStrip(prediction).replace(CONTROL, "\n"));

/** Levenshtein distance between two word lists (`editdistance.eval`). */
function editDistance(a: string[], b: string[]): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/** `max(ref in pred, 1 - WER(pred, ref))`, both lower-cased; WER of a reference with no words is infinite. */
export function softMatch(pred: string, ref: string): number {
  const p = pred.toLowerCase();
  const r = ref.toLowerCase();
  const words = pySplit(r);
  const wer = words.length === 0 ? Infinity : editDistance(pySplit(p), words) / words.length;
  return Math.max(p.includes(r) ? 1 : 0, 1 - wer);
}

const mean = (pred: string, refs: string[]) => (refs.length === 0 ? 0 : (pySum(refs.map((r) => softMatch(pred, r))) as number) / refs.length);

/** The three match types: `all` (mean), `part` (max, `Document N:` blocks removed), `2steps` (mean on the last paragraph). */
export const MATCH_TYPES: Record<string, (pred: string, refs: string[]) => number> = {
  all: mean,
  part: (pred, refs) => {
    const cut = pred.replace(DOCUMENT_HEADER.global, "");
    return refs.length === 0 ? 0 : Math.max(...refs.map((r) => softMatch(cut, r)));
  },
  "2steps": (pred, refs) => mean(pred.split("\n\n").at(-1)!, refs),
};

/** Skills' `search_boxed`: the contents of the last `\boxed{…}`, braces balanced from the first `{` after it. */
export function searchBoxed(text: string): string | null {
  const at = text.lastIndexOf("\\boxed");
  if (at < 0) return null;
  let open = 0;
  for (let i = at; i < text.length; i++) {
    if (text[i] === "{") open++;
    else if (text[i] === "}" && --open === 0) {
      const boxed = text.slice(at, i + 1);
      return boxed.startsWith("\\boxed{") ? boxed.slice("\\boxed{".length, -1) : null;
    }
  }
  return null;
}

const GLYPHS: [string, string][] = [["أ", " A"], ["ب", " B"], ["ج", " C"], ["د", " D"], ["অ", " A"], ["ব", " B"], ["ড", " C"], ["ঢ", " D"], ["Ａ", " A"], ["Ｂ", " B"], ["Ｃ", " C"], ["Ｄ", " D"]];

/** Relaxed `extract_letter`: "The final answer is …", else `\boxed{}`, its one letter or last standalone capital; else "Answer: X". */
export function extractLetter(text: string): string | null {
  const finals = pyFindall(FINAL_ANSWER, text) as string[];
  let extracted = finals.length > 0 ? finals.at(-1)! : searchBoxed(text);
  if (extracted !== null) extracted = pyStrip(GLYPHS.reduce((s, [glyph, letter]) => s.replaceAll(glyph, letter), extracted));
  let letter: string | null = null;
  if (extracted !== null) {
    if (pyLen(extracted) === 1) letter = extracted.toUpperCase();
    else if (pyLen(extracted) > 1) {
      const tail = pyFindall(LETTER_TAIL, extracted) as string[];
      if (tail.length > 0) letter = pyStrip(tail.at(-1)!).toUpperCase();
    }
  }
  if (letter === null) {
    const colon = pyFindall(ANSWER_COLON, text) as string[];
    if (colon.length > 0) letter = pyStrip(colon.at(-1)!).toUpperCase();
  }
  return letter;
}
