/** IFEval's own rule-based sentence splitter (`instructions_util.split_into_sentences`), rule for rule. */
import { PY_SPACE_CLASS } from "../_python/text.ts";
import { pyStrip } from "../_python/text.ts";

const ALPHABETS = "([A-Za-z])";
const PREFIXES = "(Mr|St|Mrs|Ms|Dr)[.]";
const SUFFIXES = "(Inc|Ltd|Jr|Sr|Co)";
const S = `[${PY_SPACE_CLASS}]`;
const STARTERS = `(Mr|Mrs|Ms|Dr|Prof|Capt|Cpt|Lt|He${S}|She${S}|It${S}|They${S}|Their${S}|Our${S}|We${S}|But${S}|However${S}|That${S}|This${S}|Wherever)`;
const ACRONYMS = "([A-Z][.][A-Z][.](?:[A-Z][.])?)";
const WEBSITES = "[.](com|net|org|io|gov|edu|me)";
const DIGITS = "([0-9])";

const rules: [RegExp, string | ((m: string) => string)][] = [
  [new RegExp(PREFIXES, "g"), "$1<prd>"],
  [new RegExp(WEBSITES, "g"), "<prd>$1"],
  [new RegExp(`${DIGITS}[.]${DIGITS}`, "g"), "$1<prd>$2"],
  [/\.{2,}/g, (m) => "<prd>".repeat(m.length) + "<stop>"],
];

const rules2: [RegExp, string][] = [
  [new RegExp(`${S}${ALPHABETS}[.] `, "g"), " $1<prd> "],
  [new RegExp(`${ACRONYMS} ${STARTERS}`, "g"), "$1<stop> $2"],
  [new RegExp(`${ALPHABETS}[.]${ALPHABETS}[.]${ALPHABETS}[.]`, "g"), "$1<prd>$2<prd>$3<prd>"],
  [new RegExp(`${ALPHABETS}[.]${ALPHABETS}[.]`, "g"), "$1<prd>$2<prd>"],
  [new RegExp(` ${SUFFIXES}[.] ${STARTERS}`, "g"), " $1<stop> $2"],
  [new RegExp(` ${SUFFIXES}[.]`, "g"), " $1<prd>"],
  [new RegExp(` ${ALPHABETS}[.]`, "g"), " $1<prd>"],
];

/** `split_into_sentences(text)`: the sentences, stripped, without a trailing empty one. */
export function splitIntoSentences(input: string): string[] {
  let text = ` ${input}  `.replaceAll("\n", " ");
  for (const [re, sub] of rules) text = text.replace(re, sub as string);
  if (text.includes("Ph.D")) text = text.replaceAll("Ph.D.", "Ph<prd>D<prd>");
  for (const [re, sub] of rules2) text = text.replace(re, sub);
  if (text.includes("”")) text = text.replaceAll(".”", "”.");
  if (text.includes('"')) text = text.replaceAll('."', '".');
  if (text.includes("!")) text = text.replaceAll('!"', '"!');
  if (text.includes("?")) text = text.replaceAll('?"', '"?');
  text = text.replaceAll(".", ".<stop>").replaceAll("?", "?<stop>").replaceAll("!", "!<stop>").replaceAll("<prd>", ".");
  let sentences = text.split("<stop>").map((s) => pyStrip(s));
  if (sentences.length > 0 && !sentences.at(-1)) sentences = sentences.slice(0, -1);
  return sentences;
}
