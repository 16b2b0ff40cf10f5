/**
 * NeMo Skills' `math_equal` as NeMo Gym's imo_proofbench_judge app.py mirrors it (its own `math_equal`, on
 * math-verify 0.8.0 and latex2sympy2_extended): a single-letter (A–J) gold answer compared as math-verify strings;
 * then `_additional_normalization` (a bare percentage loses its sign, trailing `.` and `\` go), a literal match
 * after `normalize_latex(·, NormalizationConfig)` with spaces removed, a stop for two plain-text answers, and
 * math-verify's `parse(·, [LatexExtractionConfig()])` + `verify` of both (wrapped in `$…$` unless they already
 * hold a LaTeX environment or `\boxed{`). Any error is "not equal".
 */
import { parseAnswer, verifyCandidates } from "./index.ts";
import { normalizeLatexDefaults } from "./normalize.ts";
import { type Pattern, goldPatternsList } from "./patterns.ts";

const MCQ = /^[A-J]$/;
const PERCENTAGE = /^(\p{Nd}+\.?\p{Nd}*)(?:\\%|%)$/u;
const TEXT_LITERAL = /^[a-zA-Z ,]+$/;
const LATEX_ENV = /\$[\s\S]*\$|\\\([\s\S]*\\\)|\\\[[\s\S]*\\\]|\\boxed\{/;

/** Python's str.strip(). */
const strip = (s: string) => s.replace(/^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/g, "");

/** `(?i:text)` spelled out. */
const ci = (text: string) => [...text].map((c) => (c.toLowerCase() !== c.toUpperCase() ? `[${c.toUpperCase()}${c.toLowerCase()}]` : c)).join("");

let mcqPatterns: Pattern[] | undefined;
/** math-verify's lazy_string_regex for StringExtractionConfig(strings=tuple("ABCDEFGHIJ")); Python's `$` (no MULTILINE) and `.` (no DOTALL). */
export function stringPatterns(): Pattern[] {
  if (mcqPatterns) return mcqPatterns;
  const keys = "(?<string_keys>A|B|C|D|E|F|G|H|I|J)";
  const end = "(?=\\n?$)";
  const suffix = `(?:\\*\\*)?(?:\\.|,|:|\\s|${end})`;
  const answer = `(^|\\s)(?:\\*\\*)?${keys}${suffix}`;
  const list: [string, number][] = [
    [`${ci("final answer is")}\\:?\\s*${keys}\\.?\\s?I hope`, 0],
    [`${ci("final answer")}[^\\n]{0,100}?\\s+is\\:?\\s*${keys}`, 50],
    [`${ci("answer")}:[^\\n]{0,50}?${answer}`, 100],
    [`${ci("answer")}[^\\n]{0,50}?${answer}`, 200],
    [`^(?:\\*\\*)?${keys}${suffix}`, 250],
    [answer, 300],
  ];
  mcqPatterns = list.map(([src, priority]) => ({ re: new RegExp(src, "g"), priority, kind: "string" as const }));
  return mcqPatterns;
}

/** `_additional_normalization`. */
export function additionalNormalization(expr: string): string {
  const m = PERCENTAGE.exec(expr);
  if (m) expr = m[1]!;
  return expr.replace(/[.\\]+$/, "");
}

/** math_equal(gt_answer, predicted_answer); `null` gold is Python's `str(None)`. */
export function mathEqual(gtAnswer: string | null | undefined, predicted: string | null | undefined): boolean {
  if (predicted === null || predicted === undefined || predicted === "") return false;
  let gt = gtAnswer === null || gtAnswer === undefined ? "None" : String(gtAnswer);
  let pred = String(predicted);
  try {
    if (MCQ.test(strip(gt)) && verifyCandidates(parseAnswer(gt, stringPatterns()), parseAnswer(pred, stringPatterns()))) return true;
    gt = additionalNormalization(gt);
    pred = additionalNormalization(pred);
    const normalizedGt = normalizeLatexDefaults(gt);
    const normalizedPred = normalizeLatexDefaults(pred);
    if (normalizedGt.replaceAll(" ", "") === normalizedPred.replaceAll(" ", "")) return true;
    if (TEXT_LITERAL.test(normalizedGt) && TEXT_LITERAL.test(normalizedPred)) return false;
    const gtForParse = LATEX_ENV.test(gt) ? gt : `$${gt}$`;
    const predForParse = LATEX_ENV.test(pred) ? pred : `$${pred}$`;
    return verifyCandidates(parseAnswer(gtForParse, goldPatternsList()), parseAnswer(predForParse, goldPatternsList()));
  } catch {
    return false;
  }
}
