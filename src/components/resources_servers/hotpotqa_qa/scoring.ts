/**
 * HotpotQA scoring as NeMo Gym's `hotpotqa_qa/scoring.py` (itself NeMo Skills' hotpotqa metrics): the answer read
 * from the last JSON object with an "answer" key, SQuAD exact match and token F1, and the alternative-aware substring
 * matches (lenient and strict) over the ground truth's surface forms, with the unreliable-ground-truth flag.
 */
import { pyRepr } from "../_python/errors.ts";
import { pyJsonLoads } from "../_python/values.ts";
import { pyCompile } from "../_python/re.ts";
import { WORD_U } from "../_python/re-syntax.ts";
import { pyCollapseSpace, pyLen, pySplit, pyStrip } from "../_python/text.ts";
import { pyIsUpper } from "../_nlp/pystr.ts";

const PUNCTUATION = new Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~");
const ARTICLES = pyCompile(String.raw`\b(a|an|the)\b`);

/** The official HotpotQA / SQuAD normalization: lower case, ASCII punctuation and articles removed, spaces collapsed. */
export function normalizeAnswer(s: string): string {
  const noPunct = Array.from(s.toLowerCase()).filter((ch) => !PUNCTUATION.has(ch)).join("");
  return pyCollapseSpace(noPunct.replace(ARTICLES.global, " "));
}

/** Token-overlap F1 (with precision and recall); yes / no / noanswer must match exactly. */
export function answerF1(prediction: string, groundTruth: string): [number, number, number] {
  const pred = normalizeAnswer(prediction);
  const gold = normalizeAnswer(groundTruth);
  const special = ["yes", "no", "noanswer"];
  if ((special.includes(pred) || special.includes(gold)) && pred !== gold) return [0, 0, 0];
  const predTokens = pySplit(pred);
  const goldTokens = pySplit(gold);
  const counts = new Map<string, number>();
  for (const t of goldTokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of predTokens) {
    const left = counts.get(t) ?? 0;
    if (left > 0) {
      same += 1;
      counts.set(t, left - 1);
    }
  }
  if (same === 0) return [0, 0, 0];
  const precision = same / predTokens.length;
  const recall = same / goldTokens.length;
  return [(2 * precision * recall) / (precision + recall), precision, recall];
}

export const answerExactMatch = (prediction: string, groundTruth: string): number => (normalizeAnswer(prediction) === normalizeAnswer(groundTruth) ? 1 : 0);

/** `str(parsed["answer"])` of a JSON object with an "answer" key, else null. */
function answerOf(text: string): string | null {
  let parsed: unknown;
  try {
    parsed = pyJsonLoads(text);
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed) || !Object.hasOwn(parsed, "answer")) return null;
  const answer = (parsed as Record<string, unknown>).answer;
  return typeof answer === "string" ? answer : pyRepr(answer);
}

/** Every balanced `{…}` span, left to right, resuming after each; an unclosed brace ends the scan. */
function jsonCandidates(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] !== "{") {
      i += 1;
      continue;
    }
    let depth = 0;
    let end = -1;
    for (let j = i; j < text.length; j++) {
      if (text[j] === "{") depth += 1;
      else if (text[j] === "}") depth -= 1;
      if (depth === 0) {
        end = j;
        break;
      }
    }
    if (end < 0) break;
    out.push(text.slice(i, end + 1));
    i = end + 1;
  }
  return out;
}

const FENCED_JSON = pyCompile("```(?:json)?\\s*(\\{.*?\\})\\s*```", { dotAll: true });

/** The predicted answer: the last fenced JSON answer, else the last brace-delimited one, else the whole (stripped) text. */
export function parseGeneration(generation: string): string {
  if (!generation) return "";
  const text = pyStrip(generation);
  const fenced = [...text.matchAll(FENCED_JSON.global)].map((m) => m[1]!);
  for (const candidate of [...fenced.reverse(), ...jsonCandidates(text).reverse()]) {
    const answer = answerOf(candidate);
    if (answer !== null) return answer;
  }
  return text;
}

const NUM_WORDS: Record<string, string> = {
  one: "1", two: "2", three: "3", four: "4", five: "5", six: "6", seven: "7", eight: "8", nine: "9", ten: "10",
  eleven: "11", twelve: "12", thirteen: "13", fourteen: "14", fifteen: "15", sixteen: "16", seventeen: "17",
  eighteen: "18", nineteen: "19", twenty: "20", first: "1st", second: "2nd", third: "3rd", fourth: "4th", fifth: "5th",
  nineteenth: "19th", twentieth: "20th", "twenty-first": "21st",
};
const NUM_DIGITS = Object.fromEntries(Object.entries(NUM_WORDS).map(([k, v]) => [v, k]));
const STOPWORDS = new Set(
  "the a an of in on at for and or to by is was are were be been with from that this it its his her my our their no not but if as into about than then".split(" "),
);
const ARTICLE_PREFIXES = ["the ", "a ", "an "];
const SPACES = pyCompile(String.raw`\s+`);
const PARENS = pyCompile(String.raw`\s*\([^)]*\)\s*`);
const PAREN_INNER = pyCompile(String.raw`\(([^)]+)\)`);
const NUMBER_COMMA = pyCompile(String.raw`(\d),(\d{3})`);
const ABBREV_DOT = pyCompile(String.raw`(?<!\d)\.(?!\d)`);
const DIGITS = /^\p{Nd}+$/u;

/** The ground truth's accepted surface forms (always itself), as NeMo Gym's `_gt_alternatives` builds them. */
export function gtAlternatives(gt: string): string[] {
  const alts = new Set([gt]);
  const lower = gt.toLowerCase();
  const prefix = ARTICLE_PREFIXES.find((p) => lower.startsWith(p));
  if (prefix) alts.add(sliceCodePoints(gt, prefix.length));
  const unquoted = pyStrip(gt.replaceAll('"', "").replaceAll("\u201c", "").replaceAll("\u201d", ""));
  if (unquoted && unquoted !== gt) alts.add(unquoted);
  if (gt.includes("(")) {
    const noParens = pyStrip(gt.replace(PARENS.global, " ")).replace(SPACES.global, " ");
    if (noParens && noParens !== gt) alts.add(noParens);
    for (const m of gt.matchAll(PAREN_INNER.global)) {
      const inner = pyStrip(m[1]!);
      if (pyLen(inner) > 1) alts.add(inner);
    }
  }
  const gtLow = pyStrip(lower);
  if (Object.hasOwn(NUM_WORDS, gtLow)) alts.add(NUM_WORDS[gtLow]!);
  if (Object.hasOwn(NUM_DIGITS, gtLow)) alts.add(NUM_DIGITS[gtLow]!);
  let noCommas = gt.replace(NUMBER_COMMA.global, "$1$2");
  while (noCommas !== gt && NUMBER_COMMA.search.test(noCommas)) noCommas = noCommas.replace(NUMBER_COMMA.global, "$1$2");
  if (noCommas !== gt) alts.add(noCommas);
  if (gt && ".,;:!?".includes(gt.at(-1)!)) alts.add(pyRstripSpace(gt.slice(0, -1)));
  if (gt.includes(".")) {
    const noDots = gt.replace(ABBREV_DOT.global, "");
    if (noDots && pyLen(noDots) > 1 && noDots !== gt) alts.add(noDots);
  }
  if (gt.includes("-") && !gt.startsWith("-")) {
    const noHyphen = pyStrip(gt.replaceAll("-", " ").replace(SPACES.global, " "));
    if (noHyphen !== gt) alts.add(noHyphen);
  }
  if (gt.includes(" & ")) alts.add(gt.replaceAll(" & ", " and "));
  const andAt = lower.indexOf(" and ");
  if (andAt >= 0) alts.add(`${gt.slice(0, andAt)} & ${gt.slice(andAt + 5)}`);
  for (const alt of [...alts]) {
    const p = ARTICLE_PREFIXES.find((q) => alt.toLowerCase().startsWith(q));
    if (p) alts.add(sliceCodePoints(alt, p.length));
  }
  const kept = new Set<string>();
  for (const a of alts) {
    const s = pyStrip(a).replace(SPACES.global, " ");
    if (s && (pyLen(s) >= 3 || s === pyStrip(gt) || DIGITS.test(s))) kept.add(s);
  }
  return [...kept];
}

const sliceCodePoints = (s: string, n: number) => Array.from(s).slice(n).join("");
const pyRstripSpace = (s: string) => s.replace(/[\s\x1c-\x1f\x85]+$/u, "");

/** A ground truth unreliable for substring matching: longer than 40 characters, or a multi-word proper name. */
export function shouldRemove(gt: string): [boolean, string] {
  if (pyLen(gt) > 40) return [true, "gt_too_long"];
  const parts = pySplit(pyStrip(gt).replace(/\.+$/, ""));
  const capital = (p: string) => pyIsUpper(Array.from(p)[0]!);
  const named = (p: string) => capital(p) && !STOPWORDS.has(p.toLowerCase());
  if (parts.length === 3 || parts.length === 4) {
    if (parts.every(capital) && parts.every((p) => !STOPWORDS.has(p.toLowerCase()))) return [true, "multi_word_name"];
  } else if ((parts.length === 5 || parts.length === 6) && parts.filter(named).length >= 3) return [true, "multi_word_name"];
  return [false, ""];
}

/** Spaces, dashes and quotes unified, runs of spaces collapsed, stripped. */
function normalizeUnicode(s: string): string {
  let out = s.replace(/[\u202f\u00a0\u2009\u200a\u2002\u2003]/g, " ").replace(/[\u2010-\u2015]/g, "-");
  out = out.replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"');
  while (out.includes("  ")) out = out.replaceAll("  ", " ");
  return pyStrip(out);
}

/** Lenient: some alternative is a substring of the model's answer. */
export function isCorrect(alternatives: string[], answer: string): boolean {
  const ans = normalizeUnicode(answer.toLowerCase());
  return alternatives.some((alt) => ans.includes(normalizeUnicode(alt.toLowerCase())));
}

const escapeRegExp = (s: string) => s.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");

/** Strict: short alternatives (≤ 4 characters) only at word boundaries; in a long answer (> 80) only within its first 40. */
export function isCorrectStrict(alternatives: string[], answer: string): boolean {
  const ans = normalizeUnicode(answer.toLowerCase());
  for (const alt of alternatives) {
    const norm = normalizeUnicode(alt.toLowerCase());
    if (!norm || !ans.includes(norm)) continue;
    if (pyLen(norm) <= 4 && !new RegExp(`(?<![${WORD_U}])${escapeRegExp(norm)}(?![${WORD_U}])`, "u").test(ans)) continue;
    if (pyLen(ans) > 80 && pyLen(ans.slice(0, ans.indexOf(norm))) > 40) continue;
    return true;
  }
  return false;
}
