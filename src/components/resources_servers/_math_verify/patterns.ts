/**
 * math-verify 0.8.0's extraction patterns (parser.py: lazy_expr_regex, lazy_latex_regex), as JavaScript
 * regular expressions with the same meaning: Python's `(?i:…)` groups are spelled out letter by letter,
 * a `.` without DOTALL is `[^\n]`, and every pattern keeps its priority.
 */

export type TargetKind = "expr" | "latex" | "string";
export interface Pattern {
  re: RegExp;
  priority: number;
  kind: TargetKind;
  /** A literal every match contains: texts without it skip the (large) pattern. Same matches, less work. */
  needs?: RegExp;
}

const FINAL = /final answer/i;
const ANSWER = /answer/i;
const BOXED = /\\boxed\{/;
const LATEX_ENV = /\$|\\\[|\\\(|\[|\\frac\{/;

/** `(?i:text)`: each letter as a two-case class. */
function ci(text: string): string {
  let out = "";
  for (const ch of text) {
    const lo = ch.toLowerCase();
    const up = ch.toUpperCase();
    out += lo !== up ? `[${up}${lo}]` : ch === " " ? " " : ch.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }
  return out;
}

const DOT = "[^\\n]"; // Python's `.` without DOTALL
const CURRENCY = "$€£¥₹₽₪₩₫฿₡₢₣₤₥₦₧₨₩₪₫₭₮₯₰₱₲₳₴₵₶₷₸₹₺₻₼₽₾₿".replace(/[\]\\^-]/g, "\\$&");

function exprPatterns(): Pattern[] {
  const numberRe =
    "(?<![0-9])(?:" +
    "(?<integer1>-?[1-9][0-9]{0,2}(?:[ ,][0-9]{3})+)(?<decimal1>\\.[0-9]+)?|" +
    "(?<integer2>-?[0-9]+)(?<decimal2>[.,][0-9]+)|" +
    "(?<decimal3>\\.[0-9]+)|" +
    "(?<integer3>-?[0-9]+)" +
    ")(?<percent>\\s*(?:%|[Pp]ercent|\\s*[Pp]ercentage|\\s*[Pp]ct))?";
  const ops = "\\+\\-\\*×\\/\\^\\(\\)÷";
  const allExprChars = `[0-9\\.\\s${ops}]`;
  const exprRe = `(?<expr>-?\\(?-?[0-9]${allExprChars}*[${ops}]${allExprChars}+\\)?)`;
  const prefix = "(?:^|\\s|\\=)(?:\\*\\*)?";
  const suffix = "(?:\\*\\*)?(?:\\.|,|:|\\s|\\)|\\$|$)";
  const exprWithAnchors = `(?:${prefix}${exprRe}${suffix})`;
  const numberWithAnchors = `(?:${prefix}[${CURRENCY}]?${numberRe})`;
  const exprOrNumber = `(?:${exprWithAnchors}|${numberWithAnchors})`;
  const answer = ci("answer");
  const list: [string, number][] = [
    [`${ci("final answer is")}\\:?\\s*${exprOrNumber}\\.?\\s?I hope`, 0],
    [`${ci("final answer")}${DOT}{0,100}?\\s+is\\:?${exprOrNumber}`, 50],
    [`${answer}:(?:${DOT}{0,100}=\\s*|${DOT}{0,50}?)${exprOrNumber}(?!\\s*=)`, 100],
    [`${answer}(?:${DOT}{0,100}=\\s*|${DOT}{0,50}?)${exprOrNumber}(?!\\s*=)`, 200],
    [exprWithAnchors, 300],
    [numberWithAnchors, 300],
  ];
  // `(?i:final answer.{0,100}?)` keeps the lazy dot inside the case-insensitive group; same meaning.
  const needs = [FINAL, FINAL, ANSWER, ANSWER, undefined, undefined];
  return list.map(([src, priority], k) => ({ re: new RegExp(src, "g"), priority, kind: "expr" as const, needs: needs[k] }));
}

function latexEnv(prefix: string, context: "boxed" | "plain"): string {
  const percent = `(?<${prefix}percent>(?:\\\\?%|[Pp]ercent|[Pp]ercentage|[Pp]ct))`;
  let displayDollar = "(?:[^$]|\\$(?!\\$))";
  let displayBracket = "(?:[^\\\\]|\\\\(?!\\]))";
  let inlineDollar = "(?:\\\\[$]|[^\\n$])";
  let inlineParen = "(?:[^\\\\\\n]|\\\\(?!\\)))";
  let inlineBracket = "[^\\n\\]\\[]";
  if (context === "boxed") {
    const boxed = (c: string) => `${c}*?\\\\boxed\\{${c}+?\\}${c}*?`;
    displayDollar = boxed(displayDollar);
    displayBracket = boxed(displayBracket);
    inlineDollar = boxed(inlineDollar);
    inlineParen = boxed(inlineParen);
    inlineBracket = boxed(inlineBracket);
  } else {
    displayDollar += "+?";
    displayBracket += "+?";
    inlineDollar += "+?";
    inlineParen += "+?";
    inlineBracket += "+?";
  }
  const alts = [
    `(?<!\\\\)\\$\\$(?<${prefix}latexDisplayDollar>${displayDollar})(?<!\\\\)\\$\\$`,
    `(?<!\\\\)\\\\\\[(?<${prefix}latexDisplayBracket>${displayBracket})(?<!\\\\)\\\\\\]`,
    `(?<!\\\\|[0-9])\\$(?<${prefix}latexInlineDollar>${inlineDollar})(?<!\\\\)\\$`,
    `(?<!\\\\)\\\\\\((?<${prefix}latexInlineParenthesis>${inlineParen})(?<!\\\\)\\\\\\)`,
    `\\s\\[(?<${prefix}latexInlineBracket>${inlineBracket})\\]\\s`,
  ];
  if (context === "plain") {
    const simple = "-?[0-9]+(?:[.,][0-9]+)?";
    alts.push(`(?<${prefix}latexFraction>-?\\\\frac\\{${simple}\\}\\{${simple}\\})`);
  }
  return `(?:(?:${alts.join("|")})\\s*${percent}?)`;
}

function latexPatterns(boxedPriority = 50): Pattern[] {
  let next = "";
  for (let i = 1; i <= 5; i++) next += `(?:\\s*(?:,?and|,?or|,)\\s*${latexEnv(`next${i}_`, "plain")})?`;
  const envs = `(?:${latexEnv("first_", "plain")}${next})`;
  const answer = ci("answer");
  const list: [string, number][] = [
    [`${ci("final answer is")}\\:?\\s*${envs}\\.?\\s?I hope`, 0],
    [`${ci("final answer")}.{0,100}?\\s+is\\:?\\s*${envs}`, 50],
    [`${answer}:.{0,50}?${envs}`, 100],
    [`${answer}.{0,50}?${envs}`, 200],
    [envs, 300],
  ];
  let boxedNext = "";
  for (let i = 1; i <= 5; i++) boxedNext += `\\s*(?:\\s*(?:,?and|,?or|,)\\s*${latexEnv(`next${i}_`, "boxed")})?`;
  list.push([`${latexEnv("first_", "boxed")}${boxedNext}`, boxedPriority]);
  list.push(["(?<first_latexBoxed>\\\\boxed\\{.+\\})", boxedPriority]);
  const needs = [FINAL, FINAL, ANSWER, ANSWER, LATEX_ENV, BOXED, BOXED];
  return list.map(([src, priority], k) => ({ re: new RegExp(src, "gs"), priority, kind: "latex" as const, needs: needs[k] }));
}

let predPatterns: Pattern[] | undefined;
let goldPatterns: Pattern[] | undefined;

/** The prediction targets of math_with_judge: ExprExtractionConfig() then LatexExtractionConfig(). */
export function predictionPatterns(): Pattern[] {
  predPatterns ??= [...exprPatterns(), ...latexPatterns()];
  return predPatterns;
}

/** The gold target: LatexExtractionConfig(). */
export function goldPatternsList(): Pattern[] {
  goldPatterns ??= latexPatterns();
  return goldPatterns;
}
