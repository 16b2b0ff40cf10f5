/** string_match's grading cascade: normalisations tried in order, a 0.98 soft-numeric partial score (verifiers.md §6.2). */
import { pyFloatRepr, pyParseFloat } from "../_python/number.ts";
import { pyCompile } from "../_python/re.ts";
import { pyLen, pyRstrip, pySplit, pyStrip } from "../_python/text.ts";

/** Drops one pair of matching outer quotes. */
function stripOuterQuotes(text: string): string {
  if (pyLen(text) >= 2 && text[0] === text[text.length - 1] && (text[0] === '"' || text[0] === "'")) return text.slice(1, -1);
  return text;
}

function stripTrailingPunctuation(text: string): string {
  return pyRstrip(text, ".!?") || text;
}

/** str(float(x)) after removing `\%`, `\$`, `$`; text that does not parse stays as it was. */
function normalizeFloat(text: string): string {
  const cleaned = pyStrip(text.replaceAll("\\%", "").replaceAll("\\$", "").replaceAll("$", ""));
  const value = pyParseFloat(cleaned);
  return value === undefined ? text : pyFloatRepr(value);
}

// `(\d+),(\d+)` with Python's Unicode \d; re.sub scans left to right without overlap ("1,000,000" → "1000,000").
const THOUSANDS = pyCompile(String.raw`(\d+),(\d+)`);

function normalizeNumbers(text: string): string {
  return text.replace(THOUSANDS.global, "$1$2").replaceAll("\\%", "%");
}

/** `,` `;` and the substrings "and"/"or" (even inside words) become spaces, unless that shrinks the text below 90 %. */
function normalizeLists(text: string): string {
  const original = text;
  const before = pyLen(text);
  text = text.replaceAll(",", " ").replaceAll(";", " ").replaceAll("and", " ").replaceAll("or", " ");
  if (pyLen(text) < 0.9 * before) return original;
  return pySplit(text).join(" ");
}

const LATEX_COMMANDS = ["\\boxed", "\\text", "\\textbf", "\\textit", "\\texttt", "\\mathrm", "\\mathbf", "\\mathit", "\\mathsf", "\\mathbb", "\\mathcal", "\\emph", "\\url"];

/** Removes `cmd{…}` wrappers, keeping their contents (brace-balanced); an unbalanced one loses only `cmd{`. */
function removeLatexCommand(cmd: string, text: string): string {
  const open = `${cmd}{`;
  while (text.includes(open)) {
    const at = text.indexOf(open);
    const prefix = text.slice(0, at);
    const suffix = text.slice(at + open.length);
    let depth = 1;
    let i = 0;
    for (; i < suffix.length; i++) {
      if (suffix[i] === "{") depth++;
      else if (suffix[i] === "}") depth--;
      if (depth === 0) break;
    }
    text = depth === 0 ? prefix + suffix.slice(0, i) + suffix.slice(i + 1) : prefix + suffix;
  }
  return text;
}

function normalizeLatex(text: string): string {
  for (const cmd of LATEX_COMMANDS) text = removeLatexCommand(cmd, text);
  for (const token of ["\\(", "\\)", "\\[", "\\]", "$"]) text = text.replaceAll(token, "");
  return pySplit(text).join(" ");
}

// Multi-word names first: plain substring replacement, in this order.
const STATES: [string, string][] = Object.entries({
  "district of columbia": "DC", "new hampshire": "NH", "new jersey": "NJ", "new mexico": "NM", "new york": "NY",
  "north carolina": "NC", "north dakota": "ND", "rhode island": "RI", "south carolina": "SC", "south dakota": "SD",
  "west virginia": "WV", alabama: "AL", alaska: "AK", arizona: "AZ", arkansas: "AR", california: "CA", colorado: "CO",
  connecticut: "CT", delaware: "DE", florida: "FL", georgia: "GA", hawaii: "HI", idaho: "ID", illinois: "IL",
  indiana: "IN", iowa: "IA", kansas: "KS", kentucky: "KY", louisiana: "LA", maine: "ME", maryland: "MD",
  massachusetts: "MA", michigan: "MI", minnesota: "MN", mississippi: "MS", missouri: "MO", montana: "MT",
  nebraska: "NE", nevada: "NV", ohio: "OH", oklahoma: "OK", oregon: "OR", pennsylvania: "PA", tennessee: "TN",
  texas: "TX", utah: "UT", vermont: "VT", virginia: "VA", washington: "WA", wisconsin: "WI", wyoming: "WY",
});

function normalizeStates(text: string): string {
  for (const [name, code] of STATES) text = text.replaceAll(name, code);
  return normalizeLists(text).toLowerCase();
}

const UNICODE_MATH: [string, string][] = [
  ["°", "^\\circ"], ["²", "^2"], ["³", "^3"], ["⁴", "^4"], ["⁵", "^5"], ["⁶", "^6"], ["⁷", "^7"], ["⁸", "^8"], ["⁹", "^9"],
  ["√", "\\sqrt"], ["﹣", "-"], ["﹢", "+"], ["﹦", "="], ["﹤", "<"], ["﹥", ">"], ["：", ":"], ["π", "\\pi"],
];

function normalizeUnicodeMath(text: string): string {
  for (const [from, to] of UNICODE_MATH) text = text.replaceAll(from, to);
  return text;
}

// A bare "m" anywhere is a unit here, as in NeMo Gym.
const MATH_UNITS = pyCompile(String.raw`\^\{?\\circ\}?|\\circ|°|cm[²³]?|mm|km|m[²³]?|kg`);

function stripUnits(text: string): string {
  return text.replace(MATH_UNITS.global, "");
}

function stripNumeric(text: string): string {
  for (const ch of "$£€%,") text = text.replaceAll(ch, "");
  return pyStrip(stripUnits(normalizeUnicodeMath(text)).replaceAll("\\%", "").replaceAll("\\$", ""));
}

/** (max(0, 1 − relative error))², or 0 when either side is not a number. */
export function softNumericGrade(gt: string, pred: string): number {
  const p = pyParseFloat(stripNumeric(pred));
  const g = pyParseFloat(stripNumeric(gt));
  if (p === undefined || g === undefined) return 0;
  // Python's max(a, b) keeps a unless b > a, so a NaN never wins (Math.max would return NaN).
  const denominator = 1e-9 > Math.abs(g) ? 1e-9 : Math.abs(g);
  const rest = 1 - Math.abs(p - g) / denominator;
  const base = rest > 0 ? rest : 0;
  return base * base;
}

/** NeMo RL's string-match grade of a prediction against the ground truth: 1.0, 0.98 or 0.0. */
export function gradeStringMatch(gt: string, pred: string): number {
  pred = stripTrailingPunctuation(stripOuterQuotes(pred.normalize("NFKC")).toLowerCase());
  gt = stripTrailingPunctuation(stripOuterQuotes(gt.normalize("NFKC")).toLowerCase());
  if (pred === gt) return 1;
  for (const normalize of [normalizeFloat, normalizeNumbers, normalizeLatex, normalizeLists, normalizeStates]) {
    if (normalize(pred) === normalize(gt)) return 1;
  }
  if (softNumericGrade(gt, pred) > 0.98) return 0.98;
  const predStripped = pyStrip(stripUnits(normalizeUnicodeMath(normalizeLatex(pred))));
  const gtStripped = pyStrip(stripUnits(normalizeUnicodeMath(normalizeLatex(gt))));
  if (predStripped === gtStripped) return 1;
  if (softNumericGrade(gtStripped, predStripped) > 0.98) return 0.98;
  return 0;
}

/** Case-sensitive: trimmed equality; otherwise the graded cascade. */
export function answersMatch(extracted: string, expected: string, caseSensitive: boolean): number {
  if (caseSensitive) return pyStrip(extracted) === pyStrip(expected) ? 1 : 0;
  return gradeStringMatch(expected, extracted);
}
