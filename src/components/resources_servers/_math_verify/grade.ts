/**
 * math-verify 0.8.0's grader (grader.py): sympy_expr_eq and its helpers on the expression tree. SymPy's
 * simplify(a - b) == 0 becomes exact rational arithmetic where both sides are rational and a numeric test
 * at fixed points (complex doubles) otherwise.
 */
import { type C, cAbs, evaluate, isFiniteC } from "./evaluate.ts";
import {
  type Expr,
  add,
  freeSymbols,
  int,
  isAssignment,
  isAtomicOrPct,
  isEquation,
  isNumber,
  isRelation,
  isSet,
  mul,
  same,
} from "./expr.ts";

const INVERSE: Record<string, string> = { ">=": "<=", "<=": ">=", ">": "<", "<": ">", "=": "=", "!=": "!=" };
const POINTS = [0.7133, 1.3187, 2.2771, -0.6173, 3.1031];

function lastRel(e: Expr): Extract<Expr, { t: "rel" }> {
  return (e.t === "and" ? lastRel(e.args[e.args.length - 1]!) : e) as Extract<Expr, { t: "rel" }>;
}
function firstRel(e: Expr): Extract<Expr, { t: "rel" }> {
  return (e.t === "and" ? e.args[0]! : e) as Extract<Expr, { t: "rel" }>;
}

function close(a: C, b: C, rel = 1e-12): boolean {
  const d = cAbs({ re: a.re - b.re, im: a.im - b.im });
  return d <= rel * Math.max(1, cAbs(a), cAbs(b));
}

/** Round half to even at `digits` decimals, as SymPy's Number.round does on the value. */
function roundTo(v: number, digits: number): number {
  return Number(v.toFixed(digits));
}

function numericEq(a: Expr, b: Expr, rounding: number): boolean {
  if (a.t === "matrix" && b.t === "matrix") {
    if (a.rows.length !== b.rows.length || a.rows[0]!.length !== b.rows[0]!.length) return false;
    return a.rows.flat().every((x, i) => numericEq(x, b.rows.flat()[i]!, rounding) || symbolicEq(x, b.rows.flat()[i]!));
  }
  if (isAtomicOrPct(a, "number") || isAtomicOrPct(b, "number")) {
    if (isAtomicOrPct(a, "float") || isAtomicOrPct(b, "float")) {
      // Integer.round stays an Integer, which never equals a Float in SymPy 1.14
      const isInt = (e: Expr) => { const v = exactValue(e, false); return !!v && v[1] === 1n; };
      if (isInt(a) || isInt(b)) return false;
      const x = evaluate(a);
      const y = evaluate(b);
      if (x.im !== 0 || y.im !== 0 || !Number.isFinite(x.re) || !Number.isFinite(y.re)) return false;
      return roundTo(x.re, rounding) === roundTo(y.re, rounding);
    }
    return exactEq(a, b);
  }
  if (freeSymbols(a).size === 0 && freeSymbols(b).size === 0) {
    const x = evaluate(a);
    const y = evaluate(b);
    return isFiniteC(x) && isFiniteC(y) && close(x, y, 1e-14);
  }
  return false;
}

/** The exact binary value of a double (SymPy's Float arithmetic is exact on it before rounding). */
function binaryRational(v: number): [bigint, bigint] {
  if (v === 0) return [0n, 1n];
  let d = 1n;
  let x = v;
  while (!Number.isInteger(x)) {
    x *= 2;
    d *= 2n;
  }
  return [BigInt(x), d];
}

/** Exact value of a tree of rationals (and floats, taken at their binary value), or null. */
function exactValue(e: Expr, floats = true): [bigint, bigint] | null {
  if (e.t === "num") return [e.n, e.d];
  if (e.t === "float" && floats && Number.isFinite(e.v)) return binaryRational(e.v);
  if (e.t === "mul" || e.t === "add") {
    let acc: [bigint, bigint] = e.t === "mul" ? [1n, 1n] : [0n, 1n];
    for (const a of e.args) {
      const v = exactValue(a, floats);
      if (!v) return null;
      acc = e.t === "mul" ? [acc[0] * v[0], acc[1] * v[1]] : [acc[0] * v[1] + v[0] * acc[1], acc[1] * v[1]];
    }
    return acc;
  }
  if (e.t === "pow" && e.e.t === "num" && e.e.d === 1n && e.e.n >= -64n && e.e.n <= 64n) {
    const b = exactValue(e.b, floats);
    if (!b) return null;
    const k = Number(e.e.n);
    if (k < 0 && b[0] === 0n) return null;
    const [n, d] = k >= 0 ? b : [b[1], b[0]];
    return [n ** BigInt(Math.abs(k)), d ** BigInt(Math.abs(k))];
  }
  return null;
}
function exactEq(a: Expr, b: Expr): boolean {
  const x = exactValue(a);
  const y = exactValue(b);
  return !!x && !!y && x[0] * y[1] === y[0] * x[1];
}

/** simplify(a - b) is zero: exact where rational, numeric at fixed points otherwise. */
export function symbolicEq(a: Expr, b: Expr): boolean {
  if (isSet(a) || isSet(b) || a.t === "tuple" || b.t === "tuple" || isRelation(a) || isRelation(b)) return false;
  if (a.t === "matrix" || b.t === "matrix") return false;
  if (exactValue(a) && exactValue(b)) return exactEq(a, b);
  const syms = [...new Set([...freeSymbols(a), ...freeSymbols(b)])];
  if (syms.length === 0) {
    const x = evaluate(a);
    const y = evaluate(b);
    return isFiniteC(x) && isFiniteC(y) && close(x, y, 1e-11);
  }
  let checked = 0;
  for (let p = 0; p < POINTS.length; p++) {
    const env = new Map<string, number>();
    syms.forEach((s, k) => env.set(s, POINTS[(p + k) % POINTS.length]! + k * 0.1129));
    const x = evaluate(a, env);
    const y = evaluate(b, env);
    if (!isFiniteC(x) || !isFiniteC(y)) continue;
    if (!close(x, y, 1e-9)) return false;
    checked++;
  }
  return checked >= 2;
}

function sortKey(e: Expr): number {
  const u = isAssignment(e) ? lastRel(e).r : e;
  const v = evaluate(u);
  return Number.isFinite(v.re) ? v.re : Infinity;
}

function deepCompareSetTuple(gold: Expr & { args: Expr[] }, pred: Expr & { args: Expr[] }, r: number): boolean {
  if (gold.args.length !== pred.args.length) return false;
  let g = gold.args;
  let p = pred.args;
  if (gold.t === "set") {
    g = [...g].sort((x, y) => sortKey(x) - sortKey(y));
    p = [...p].sort((x, y) => sortKey(x) - sortKey(y));
  } else if (gold.t === "tuple" && pred.t === "set") {
    // pred kept in its written order
  } else if (pred.t === "set") p = [...p].sort((x, y) => sortKey(x) - sortKey(y));
  return g.every((x, i) => exprEq(x, p[i]!, r));
}

function compareSets(gold: Expr, pred: Expr, r: number): boolean {
  const a = isSet(gold) || gold.t === "tuple" ? gold : ({ t: "set", args: [gold] } as Expr);
  const b = isSet(pred) || pred.t === "tuple" ? pred : ({ t: "set", args: [pred] } as Expr);
  if (a.t === "interval" && b.t === "interval")
    return a.lo === b.lo && a.ro === b.ro && exprEq(a.a, b.a, r) && exprEq(a.b, b.b, r);
  if (same(a, b)) return true;
  if ((a.t === "set" || a.t === "tuple") && (b.t === "set" || b.t === "tuple")) return deepCompareSetTuple(a, b, r);
  if (a.t === "interval" && (b.t === "set" || b.t === "tuple") && a.lo && a.ro && b.args.length === 2)
    return deepCompareSetTuple({ t: "tuple", args: [a.a, a.b] }, b, r);
  if (b.t === "interval" && (a.t === "set" || a.t === "tuple") && b.lo && b.ro && a.args.length === 2)
    return deepCompareSetTuple(a, { t: "tuple", args: [b.a, b.b] }, r);
  if (a.t === "setop" && b.t === "setop" && a.op === b.op && a.op === "union" && a.args.length === b.args.length) {
    const used = new Array(b.args.length).fill(false);
    return a.args.every((x) => {
      const j = b.args.findIndex((y, k) => !used[k] && compareSets(x, y, r));
      if (j < 0) return false;
      used[j] = true;
      return true;
    });
  }
  return false;
}

function compareRelational(gold: Expr, pred: Expr, r: number): boolean {
  if (gold.t === "and" && pred.t === "and") {
    if (gold.args.length !== pred.args.length) return false;
    return gold.args.every((g, i) => compareRelational(g, pred.args[i]!, r));
  }
  if (gold.t !== "rel" || pred.t !== "rel") return false;
  const diff = (x: Expr, y: Expr) => add(x, mul(int(-1), y));
  if (gold.op === pred.op && exprEq(diff(gold.l, gold.r), diff(pred.l, pred.r), r)) return true;
  if (INVERSE[gold.op] === pred.op && exprEq(diff(gold.l, gold.r), diff(pred.r, pred.l), r)) return true;
  // sympy_solve_and_compare: linear equations in one symbol solved exactly
  if (gold.op === "=" && pred.op === "=") {
    const sg = solveLinear(gold);
    const sp = solveLinear(pred);
    if (sg && sp && sg[0] === sp[0]) return exprEq(sg[1], sp[1], r);
  }
  return false;
}

/** The root of a relation linear in its only symbol: [symbol, value]. */
function solveLinear(rel: Extract<Expr, { t: "rel" }>): [string, Expr] | null {
  const f = add(rel.l, mul(int(-1), rel.r));
  const syms = [...freeSymbols(f)];
  if (syms.length !== 1) return null;
  const s = syms[0]!;
  const at = (x: number) => evaluate(f, new Map([[s, x]]));
  const f0 = at(0);
  const f1 = at(1);
  const f2 = at(2);
  if (!isFiniteC(f0) || !isFiniteC(f1) || f0.im || f1.im || !isFiniteC(f2)) return null;
  const slope = f1.re - f0.re;
  if (Math.abs(f2.re - f0.re - 2 * slope) > 1e-9 * Math.max(1, Math.abs(slope)) || slope === 0) return null;
  return [s, { t: "float", v: -f0.re / slope, s: String(-f0.re / slope) }];
}

/** sympy_expr_eq(gold, pred, float_rounding, numeric_precision=15, strict=True). */
export function exprEq(gold: Expr, pred: Expr, r: number): boolean {
  const ga = isAssignment(gold);
  const pa = isAssignment(pred);
  const ge = isEquation(gold);
  const pe = isEquation(pred);
  if (ga) gold = { t: "rel", op: "=", l: firstRel(gold).l, r: lastRel(gold).r };
  if (pa) pred = { t: "rel", op: "=", l: firstRel(pred).l, r: lastRel(pred).r };
  if (pe && !ge) pred = lastRel(pred).r;
  else if (ga && !pe) gold = lastRel(gold).r;
  if (isRelation(gold) && isSet(pred)) gold = relationAsSet(gold) ?? gold;
  if (same(gold, pred)) return true;
  if (isRelation(gold) && isRelation(pred)) return compareRelational(gold, pred, r);
  if (isSet(gold) || gold.t === "tuple" || isSet(pred) || pred.t === "tuple") return compareSets(gold, pred, r);
  if (gold.t === "sym" || pred.t === "sym") return compareSymbols(gold, pred);
  if (numericEq(gold, pred, r)) return true;
  return symbolicEq(gold, pred);
}

/** A relation in one symbol as the interval (union) it describes. */
function relationAsSet(e: Expr): Expr | null {
  const rels = e.t === "and" ? e.args : [e];
  let lo: Expr = { t: "const", name: "-oo" };
  let hi: Expr = { t: "const", name: "oo" };
  let lopen = true;
  let hopen = true;
  let name: string | null = null;
  for (const x of rels) {
    if (x.t !== "rel") return null;
    let { op, l, r } = x;
    if (l.t !== "sym") {
      if (r.t !== "sym") return null;
      [l, r] = [r, l];
      op = INVERSE[op] as typeof op;
    }
    if (name !== null && (l as { name: string }).name !== name) return null;
    name = (l as { name: string }).name;
    if (freeSymbols(r).size) return null;
    if (op === ">" || op === ">=") [lo, lopen] = [r, op === ">"];
    else if (op === "<" || op === "<=") [hi, hopen] = [r, op === "<"];
    else return null;
  }
  return { t: "interval", a: lo, b: hi, lo: lopen, ro: hopen };
}

function compareSymbols(gold: Expr, pred: Expr): boolean {
  const nm = (e: Expr) => (e.t === "sym" ? e.name.replace(/#c$/, "") : "");
  if (gold.t === "sym" && nm(gold).toLowerCase() === "e" && pred.t === "const" && pred.name === "E") return true;
  if (pred.t === "sym" && nm(pred).toLowerCase() === "e" && gold.t === "const" && gold.name === "E") return true;
  const concat = (m: Expr) =>
    m.t === "mul" && m.args.every((a) => a.t === "sym" || (a.t === "const" && a.name === "E"))
      ? m.args.map((a) => (a.t === "sym" ? nm(a) : "e")).join("")
      : null;
  if (gold.t === "sym" && pred.t === "mul") {
    const c = concat(pred);
    if (c !== null) return nm(gold).toLowerCase() === c.toLowerCase();
  }
  if (pred.t === "sym" && gold.t === "mul") {
    const c = concat(gold);
    if (c !== null) return nm(pred).toLowerCase() === c.toLowerCase();
  }
  if (gold.t === "sym" && pred.t === "sym") {
    let g = nm(gold);
    let p = nm(pred);
    if (p.length > 1) p = p.toLowerCase();
    if (g.length > 1) g = g.toLowerCase();
    return g === p && gold.name.endsWith("#c") === pred.name.endsWith("#c");
  }
  return strOf(gold) === strOf(pred);
}

let printer: ((e: Expr) => string) | undefined;
export function setPrinter(p: (e: Expr) => string): void {
  printer = p;
}
function strOf(e: Expr): string {
  return printer ? printer(e) : JSON.stringify(e, (_k, v) => (typeof v === "bigint" ? v.toString() : v));
}
/** SymPy orders a product's symbols by name (E sorts as a number, first). */
function sortedArgs(args: Expr[]): Expr[] {
  return [...args].sort((a, b) => {
    const ka = a.t === "sym" ? a.name : "";
    const kb = b.t === "sym" ? b.name : "";
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
}
export { isNumber };
