/**
 * math-verify 0.8.0 as NeMo Gym's math_with_judge calls it: parse (extraction by pattern priority, rightmost
 * match first, first candidate that parses wins, plus the first matched string), verify over the product of
 * gold and prediction candidates, and the extracted answer NeMo Gym reports.
 */
import { type Expr, PCT, mul } from "./expr.ts";
import { exprEq, setPrinter } from "./grade.ts";
import { latexToExpr } from "./latex/index.ts";
import { normalizeLatex, pyStrip } from "./normalize.ts";
import { type Pattern, goldPatternsList, predictionPatterns } from "./patterns.ts";
import { str } from "./print.ts";
import { parsePythonArithmetic } from "./python-expr.ts";

setPrinter(str);
export type Candidate = Expr | string;

const COMPLEX =
  /\\mathbb\{C\}|\\i\b|\bi\b|\\text\{i\}|\\mathrm\{i\}|\\imath\b|\\det|\\operatorname\{tr\}|\\operatorname\{rank\}|\\text\{rank\}|\\arg\{|\\Re\{|\\Im\{|\\operatorname\{Re\}|\\operatorname\{Im\}|\\text\{Re\}|\\text\{Im\}/;
const EQ_SPLIT = /(?<!\\|<|!|>)=/;

function parseLatex(latex: string): Expr {
  try {
    return latexToExpr(latex, !COMPLEX.test(latex));
  } catch (e) {
    if (!latex.includes(",") && !latex.includes(";")) {
      const parts = latex.split(new RegExp(EQ_SPLIT.source, "g"));
      if (parts.length > 2) {
        const last = parts[parts.length - 1]!;
        return latexToExpr(last, !COMPLEX.test(last));
      }
    }
    throw e;
  }
}

function extractLatex(m: RegExpExecArray): [Expr | null, string] {
  const groups = m.groups ?? {};
  const found: [string, string][] = [];
  const first = Object.entries(groups).find(([k, v]) => k.startsWith("first_latex") && v);
  if (first) found.push([first[1]!, first[0]]);
  for (let i = 1; i <= 5; i++) {
    const g = Object.entries(groups).find(([k, v]) => k.startsWith(`next${i}_latex`) && v);
    if (g) found.push([g[1]!, g[0]]);
  }
  const exprs: (Expr | null)[] = [];
  const strs: string[] = [];
  for (const [latex, name] of found) {
    const prefix = name.split("_")[0]!;
    const isPct = !!groups[`${prefix}_percent`];
    const norm = normalizeLatex(latex, name.split("_")[1] === "latexBoxed" ? "last" : "all");
    strs.push(norm);
    try {
      let v = parseLatex(norm);
      if (isPct) v = mul(v, PCT);
      exprs.push(v);
    } catch {
      exprs.push(null);
    }
  }
  if (!exprs.length) return [null, ""];
  if (exprs.length > 1 && exprs.every((e) => e !== null)) {
    const all = exprs.flatMap((e) => (e!.t === "set" ? e!.args : [e!]));
    return [{ t: "set", args: all }, strs.join(" and ")];
  }
  return [exprs[0]!, strs[0]!];
}

function extractExpr(m: RegExpExecArray): [Expr | null, string] {
  const g = m.groups ?? {};
  const expr = g.expr ?? "";
  let integer = ["integer1", "integer2", "integer3"].map((k) => g[k]).find((v) => v) ?? "";
  let decimal = ["decimal1", "decimal2", "decimal3"].map((k) => g[k]).find((v) => v) ?? "";
  if (integer || decimal) {
    integer = integer.replace(/[, ]/g, "").replace(/^0+/, "");
    if (!integer) integer = "0";
    decimal = decimal.replace(",", ".");
    const numberStr = integer + decimal;
    let v: Expr | null = numberFromString(numberStr);
    if (v && g.percent) v = mul(v, PCT);
    return [v, numberStr];
  }
  if (expr) {
    try {
      return [parsePythonArithmetic(expr.replaceAll("\n", " ").replaceAll("^", "**")), expr];
    } catch {
      /* falls through */
    }
  }
  return [null, expr];
}

/** sympy.Number(text): "-0" style integers with a sign, decimals as Float. */
function numberFromString(s: string): Expr | null {
  if (/^-?[0-9]+$/.test(s)) {
    const neg = s.startsWith("-");
    const digits = (neg ? s.slice(1) : s).replace(/^0+(?=[0-9])/, "");
    return { t: "num", n: BigInt((neg ? "-" : "") + digits), d: 1n };
  }
  if (/^-?[0-9]*\.[0-9]+$/.test(s)) return { t: "float", v: Number(s), s };
  return null;
}

function extractMatch(m: RegExpExecArray, p: Pattern): [Candidate | null, string] {
  // StringExtractionConfig (lowercase=True): the key lower-cased, the key as written as the fallback.
  if (p.kind === "string") return [m.groups!.string_keys!.toLowerCase(), m.groups!.string_keys!];
  return p.kind === "latex" ? extractLatex(m) : extractExpr(m);
}

/** parse(text, targets, fallback_mode="first_match", extraction_mode="any_match"). */
export function parseAnswer(text: string, patterns: Pattern[]): Candidate[] {
  const sorted = [...patterns].sort((a, b) => a.priority - b.priority);
  const out: Candidate[] = [];
  const fallbacks: string[] = [];
  let i = 0;
  while (i < sorted.length) {
    const prio = sorted[i]!.priority;
    const group: Pattern[] = [];
    while (i < sorted.length && sorted[i]!.priority === prio) group.push(sorted[i++]!);
    const matches: { m: RegExpExecArray; p: Pattern; order: number }[] = [];
    let order = 0;
    for (const p of group) {
      if (p.needs && !p.needs.test(text)) continue;
      p.re.lastIndex = 0;
      for (const m of text.matchAll(p.re)) matches.push({ m: m as RegExpExecArray, p, order: order++ });
    }
    matches.sort((a, b) => b.m.index + b.m[0].length - (a.m.index + a.m[0].length) || a.m.index - b.m.index || a.order - b.order);
    for (const { m, p } of matches) {
      const [value, fallback] = extractMatch(m, p);
      if (fallback) fallbacks.push(fallback);
      if (value !== null) {
        out.push(value);
        break;
      }
    }
    if (out.length) break;
  }
  if (fallbacks.length) out.push(fallbacks[0]!);
  return out;
}

function candidateEq(g: Candidate, p: Candidate): boolean {
  if (typeof g !== "string" && typeof p !== "string") {
    try {
      return exprEq(g, p, 6);
    } catch {
      return false;
    }
  }
  if (typeof g === "string" && typeof p === "string") {
    const a = pyStrip(g);
    const b = pyStrip(p);
    return a.length > 0 && b.length > 0 && a === b;
  }
  return false;
}

/** verify(gold, target): some pair of candidates is equal (float_rounding 6, strict). */
export function verifyCandidates(gold: Candidate[], pred: Candidate[]): boolean {
  return gold.some((g) => pred.some((p) => candidateEq(g, p)));
}

export const candidateText = (c: Candidate): string => (typeof c === "string" ? c : str(c));

export function stripMathDelimiters(s: string): string {
  s = pyStrip(s);
  if (s.startsWith("\\(") && s.endsWith("\\)")) s = pyStrip(s.slice(2, -2));
  if (s.startsWith("$") && s.endsWith("$") && s.length > 1) s = pyStrip(s.slice(1, -1));
  return s;
}

export interface Verdict {
  reward: number;
  extracted_answer: string | null;
}

/** _run_math_verify of NeMo Gym's math_with_judge (without the process boundary; see worker.ts). */
export function mathVerify(expectedAnswer: string, generated: string): Verdict {
  try {
    const gold = parseAnswer("\\boxed{" + stripMathDelimiters(expectedAnswer) + "}", goldPatternsList());
    if (!gold.length) return { reward: 0, extracted_answer: null };
    const pred = parseAnswer(generated, predictionPatterns());
    const reward = gold.some((g) => pred.some((p) => candidateEq(g, p))) ? 1 : 0;
    const goldStrs = gold.map(candidateText);
    const predStrs = pred.map(candidateText);
    const hit = predStrs.find((p) => goldStrs.some((g) => candidateEq(g, p)));
    return { reward, extracted_answer: hit ?? predStrs[0] ?? null };
  } catch {
    return { reward: 0, extracted_answer: null };
  }
}
