/** NLTK's `word_tokenize` (nltk 3.8): Punkt sentences, then the improved Treebank rules of `NLTKWordTokenizer` on each. */
import { punktSentenceIter, punktSentences } from "./punkt.ts";

type Rule = [RegExp, string];

const STARTING_QUOTES: Rule[] = [
  [/([«“‘„]|[`]+)/gu, " $1 "],
  [/^"/u, "``"],
  [/(``)/gu, " $1 "],
  [/([ ([{<])("|'{2})/gu, "$1 `` "],
  [/(')(?!re|ve|ll|m|t|s|d|n)([\p{L}\p{N}_])(?![\p{L}\p{N}_])/giu, "$1 $2"],
];

const ENDING_QUOTES: Rule[] = [
  [/([»”’])/gu, " $1 "],
  [/''/gu, " '' "],
  [/"/gu, " '' "],
  [/([^' ])('[sS]|'[mM]|'[dD]|') /gu, "$1 $2 "],
  [/([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) /gu, "$1 $2 "],
];

const PUNCTUATION: Rule[] = [
  [/([^.])(\.)([\])}>"'»”’ ]*)\s*$/u, "$1 $2 $3 "],
  [/([:,])([^\p{Nd}])/gu, " $1 $2"],
  [/([:,])$/u, " $1 "],
  [/\.{2,}/gu, " $& "],
  [/[;@#$%&]/gu, " $& "],
  [/([^.])(\.)([\])}>"']*)\s*$/u, "$1 $2$3 "],
  [/[?!]/gu, " $& "],
  [/([^'])' /gu, "$1 ' "],
  [/[*]/gu, " $& "],
];

const PARENS_BRACKETS: Rule = [/[\][(){}<>]/gu, " $& "];
const DOUBLE_DASHES: Rule = [/--/gu, " -- "];

const W = "[\\p{L}\\p{N}_]";
const B_START = `(?<!${W})`;
const B_END = `(?!${W})`;
const CONTRACTIONS: Rule[] = [
  ...["(can)(not)", "(d)('ye)", "(gim)(me)", "(gon)(na)", "(got)(ta)", "(lem)(me)", "(more)('n)"].map(
    (p): Rule => [new RegExp(`${B_START}${p}${B_END}`, "giu"), " $1 $2 "],
  ),
  [new RegExp(`${B_START}(wan)(na)(?=\\s)`, "giu"), " $1 $2 "],
  [new RegExp(` ('t)(is)${B_END}`, "giu"), " $1 $2 "],
  [new RegExp(` ('t)(was)${B_END}`, "giu"), " $1 $2 "],
];

function apply(text: string, rules: Rule[]): string {
  for (const [re, sub] of rules) text = text.replace(re, sub);
  return text;
}

// Rule groups run only when their trigger characters occur (the same output, much less regex work).
const HAS_QUOTE = /[«“‘„`"'»”’]/u;
const HAS_CONTRACTION = /can|d'ye|gim|gon|got|lem|more|wan|'t/i;
const cache = new Map<string, string[]>();

/** `NLTKWordTokenizer().tokenize(sentence)`. */
export function treebankTokenize(sentence: string): string[] {
  const hit = cache.get(sentence);
  if (hit) return hit;
  const quotes = HAS_QUOTE.test(sentence);
  let text = quotes ? apply(sentence, STARTING_QUOTES) : sentence;
  text = apply(text, PUNCTUATION);
  text = apply(text, [PARENS_BRACKETS, DOUBLE_DASHES]);
  text = ` ${text} `;
  if (quotes) text = apply(text, ENDING_QUOTES);
  if (HAS_CONTRACTION.test(text)) text = apply(text, CONTRACTIONS);
  const tokens = text.split(/\s+/u).filter((t) => t !== "");
  // Loose scoring re-tokenises near-identical texts: sentences repeat, so they are remembered (bounded).
  if (cache.size > 50_000) cache.clear();
  cache.set(sentence, tokens);
  return tokens;
}

/** `nltk.word_tokenize(text)`. */
export function wordTokenize(text: string): string[] {
  return punktSentences(text).flatMap(treebankTokenize);
}

/** The first `n` tokens of `nltk.word_tokenize(text)` (only as many sentences as needed are tokenised). */
export function firstWords(text: string, n: number): string[] {
  const out: string[] = [];
  for (const sentence of punktSentenceIter(text)) {
    out.push(...treebankTokenize(sentence));
    if (out.length >= n) break;
  }
  return out.slice(0, n);
}

/** `nltk.tokenize.RegexpTokenizer(r"\w+").tokenize(text)` (Python's Unicode `\w`). */
export function wordRuns(text: string): string[] {
  return text.match(/[\p{L}\p{N}_]+/gu) ?? [];
}
