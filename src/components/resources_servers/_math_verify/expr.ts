/**
 * The expression tree the port works on: the shapes latex2sympy builds (SymPy objects with evaluate=False),
 * exact rationals as BigInt pairs, floats with their decimal text.
 */

export type Rel = "=" | "<" | "<=" | ">" | ">=" | "!=";
export type Expr =
  | { t: "num"; n: bigint; d: bigint } // Integer / Rational, d > 0, reduced
  | { t: "float"; v: number; s: string } // Float, s is the decimal text it came from
  | { t: "sym"; name: string }
  | { t: "const"; name: "pi" | "E" | "I" | "oo" | "-oo" | "nan" }
  | { t: "add"; args: Expr[] }
  | { t: "mul"; args: Expr[] }
  | { t: "pow"; b: Expr; e: Expr }
  | { t: "fn"; name: string; args: Expr[] }
  | { t: "set"; args: Expr[] }
  | { t: "tuple"; args: Expr[] }
  | { t: "interval"; a: Expr; b: Expr; lo: boolean; ro: boolean }
  | { t: "setop"; op: "union" | "intersection" | "complement"; args: Expr[] }
  | { t: "special"; name: "EmptySet" | "Reals" | "Integers" | "Naturals" | "Rationals" | "Complexes" }
  | { t: "rel"; op: Rel; l: Expr; r: Expr }
  | { t: "and"; args: Expr[] }
  | { t: "matrix"; rows: Expr[][] };

function gcd(a: bigint, b: bigint): bigint {
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  while (b) [a, b] = [b, a % b];
  return a;
}

export function rat(n: bigint, d: bigint = 1n): Expr {
  if (d === 0n) return n === 0n ? { t: "const", name: "nan" } : { t: "const", name: "oo" };
  if (d < 0n) [n, d] = [-n, -d];
  const g = gcd(n, d) || 1n;
  return { t: "num", n: n / g, d: d / g };
}
export const int = (n: number | bigint) => rat(BigInt(n));
export const sym = (name: string): Expr => ({ t: "sym", name });
export const add = (...args: Expr[]): Expr => ({ t: "add", args: args.flatMap((a) => (a.t === "add" ? a.args : [a])) });
export const mul = (...args: Expr[]): Expr => ({ t: "mul", args: args.flatMap((a) => (a.t === "mul" ? a.args : [a])) });
export const pow = (b: Expr, e: Expr): Expr => ({ t: "pow", b, e });
export const fn = (name: string, ...args: Expr[]): Expr => ({ t: "fn", name, args });
export const neg = (e: Expr): Expr => e.t === "const" && (e.name === "oo" || e.name === "-oo") ? { t: "const", name: e.name === "oo" ? "-oo" : "oo" } : (e.t === "num" ? rat(-e.n, e.d) : e.t === "float" ? { t: "float", v: -e.v, s: e.s.startsWith("-") ? e.s.slice(1) : "-" + e.s } : mul(int(-1), e));
export const HALF = rat(1n, 2n);
export const PCT = rat(1n, 100n);

export function isNumber(e: Expr): boolean {
  return e.t === "num" || e.t === "float";
}
/** latex2sympy writes X% as Mul(X, 1/100): math-verify's is_atomic_or_pct_atomic. */
export function isAtomicOrPct(e: Expr, kind: "number" | "float"): boolean {
  const ok = (x: Expr) => (kind === "number" ? isNumber(x) : x.t === "float");
  if (ok(e)) return true;
  return e.t === "mul" && e.args.length === 2 && e.args[1]!.t === "num" && e.args[1]!.n === 1n && e.args[1]!.d === 100n && ok(e.args[0]!);
}
export const isSet = (e: Expr) => e.t === "set" || e.t === "interval" || e.t === "setop" || e.t === "special";
export const isRelation = (e: Expr) => e.t === "rel" || (e.t === "and" && e.args.length > 0 && e.args.every((a) => a.t === "rel"));
export const isEquation = (e: Expr) => (e.t === "rel" && e.op === "=") || (e.t === "and" && e.args.length > 0 && e.args.every((a) => a.t === "rel" && a.op === "="));

/** is_expr_of_only_symbols: a symbol, or an expression built from symbols alone. */
export function onlySymbols(e: Expr): boolean {
  if (e.t === "sym") return true;
  if (e.t === "pow") return e.e.t === "num" && e.e.n === -1n && e.e.d === 1n ? onlySymbols(e.b) : onlySymbols(e.b) && onlySymbols(e.e);
  const kids = children(e);
  return kids.length > 0 && kids.every(onlySymbols);
}
export const isAssignment = (e: Expr) =>
  (e.t === "rel" && e.op === "=" && onlySymbols(e.l)) || (e.t === "and" && e.args.length > 0 && e.args.every((a) => a.t === "rel" && a.op === "=") && onlySymbols((e.args[0] as { l: Expr }).l));

export function children(e: Expr): Expr[] {
  switch (e.t) {
    case "add":
    case "mul":
    case "fn":
    case "set":
    case "tuple":
    case "setop":
    case "and":
      return e.args;
    case "pow":
      return [e.b, e.e];
    case "interval":
      return [e.a, e.b];
    case "rel":
      return [e.l, e.r];
    case "matrix":
      return e.rows.flat();
    default:
      return [];
  }
}

export function freeSymbols(e: Expr, out = new Set<string>()): Set<string> {
  if (e.t === "sym") out.add(e.name);
  for (const c of children(e)) freeSymbols(c, out);
  return out;
}

/** Structural equality (SymPy's == on unevaluated trees, up to argument order of sums, products and sets). */
export function same(a: Expr, b: Expr): boolean {
  if (a.t !== b.t) return false;
  switch (a.t) {
    case "num":
      return a.n === (b as typeof a).n && a.d === (b as typeof a).d;
    case "float":
      return a.v === (b as typeof a).v;
    case "sym":
    case "const":
    case "special":
      return a.name === (b as typeof a).name;
    case "rel":
      return a.op === (b as typeof a).op && same(a.l, (b as typeof a).l) && same(a.r, (b as typeof a).r);
    case "interval": {
      const o = b as typeof a;
      return a.lo === o.lo && a.ro === o.ro && same(a.a, o.a) && same(a.b, o.b);
    }
    case "fn":
      if (a.name !== (b as typeof a).name) return false;
      break;
    case "setop":
      if (a.op !== (b as typeof a).op) return false;
      break;
    case "matrix": {
      const o = b as typeof a;
      if (a.rows.length !== o.rows.length || a.rows.some((r, i) => r.length !== o.rows[i]!.length)) return false;
      break;
    }
  }
  const x = children(a);
  const y = children(b);
  if (x.length !== y.length) return false;
  if (a.t === "add" || a.t === "mul" || a.t === "set") {
    const used = new Array(y.length).fill(false);
    return x.every((xi) => {
      const j = y.findIndex((yj, k) => !used[k] && same(xi, yj));
      if (j < 0) return false;
      used[j] = true;
      return true;
    });
  }
  return x.every((xi, i) => same(xi, y[i]!));
}
