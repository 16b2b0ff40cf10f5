/**
 * SymPy's parse_expr(text, evaluate=False) on what math-verify's expression pattern admits: numbers, + - * /
 * ** and parentheses (× and ÷ are not Python and fail). `2.` is a Float, `1/2` is Mul(1, Pow(2, -1)).
 */
import { type Expr, int, mul, neg, pow } from "./expr.ts";

export function parsePythonArithmetic(src: string): Expr {
  const toks = src.match(/\*\*|[0-9]+\.?[0-9]*|\.[0-9]+|[-+*/()]|\S/g) ?? [];
  let i = 0;
  const peek = () => toks[i];
  const fail = (): never => {
    throw new Error(`invalid syntax: ${src}`);
  };
  const expr = (): Expr => {
    let left = term();
    while (peek() === "+" || peek() === "-") {
      const op = toks[i++];
      const r = term();
      left = { t: "add", args: [...(left.t === "add" ? left.args : [left]), op === "-" ? (r.t === "num" || r.t === "float" ? neg(r) : mul(int(-1), r)) : r] };
    }
    return left;
  };
  const term = (): Expr => {
    let left = factor();
    while (peek() === "*" || peek() === "/") {
      const op = toks[i++];
      const r = factor();
      left = { t: "mul", args: [...(left.t === "mul" ? left.args : [left]), op === "/" ? pow(r, int(-1)) : r] };
    }
    return left;
  };
  const factor = (): Expr => {
    if (peek() === "-") {
      i++;
      const v = factor();
      return v.t === "num" || v.t === "float" ? neg(v) : mul(int(-1), v);
    }
    if (peek() === "+") {
      i++;
      return factor();
    }
    const base = atom();
    if (peek() === "**") {
      i++;
      return pow(base, factor());
    }
    return base;
  };
  const atom = (): Expr => {
    const t = toks[i++];
    if (t === undefined) return fail();
    if (t === "(") {
      const v = expr();
      if (toks[i++] !== ")") fail();
      return v;
    }
    if (/^[0-9]+$/.test(t)) {
      if (t.length > 1 && t.startsWith("0") && /[1-9]/.test(t)) fail(); // Python 3: no leading zeros
      return int(BigInt(t));
    }
    if (/^(?:[0-9]+\.[0-9]*|\.[0-9]+)$/.test(t)) return { t: "float", v: Number(t), s: t };
    return fail();
  };
  const v = expr();
  if (i !== toks.length) fail();
  return v;
}
