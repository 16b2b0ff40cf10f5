/**
 * math-verify 0.8.0's grader (grader.py): sympy_expr_eq and its helpers on the expression tree. SymPy's
 * simplify(a - b) == 0 becomes exact rational arithmetic where both sides are rational and a numeric test
 * at fixed points (complex doubles) otherwise.
 */
import { type C, cAbs, evaluate, isFiniteC } from "./evaluate.ts";
import { sameRealSet, toRealSet } from "./real-sets.ts";
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

/** SymPy's Number.round(digits): the value times 10^digits (in floating point), rounded half to even. */
function roundTo(v: number, digits: number): number {
  const r = v * 10 ** digits;
  const f = Math.floor(r);
  const diff = r - f;
  return diff > 0.5 ? f + 1 : diff < 0.5 ? f : f % 2 === 0 ? f : f + 1;
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

/** The exact binary value of a double. */
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

const bitLength = (n: bigint) => n.toString(2).length;

/** n/d rounded to 53 significant bits, half to even (mpmath's Float arithmetic at SymPy's default precision). */
function round53(n: bigint, d: bigint): [bigint, bigint] {
  if (n === 0n) return [0n, 1n];
  const negative = n < 0n;
  if (negative) n = -n;
  let e = bitLength(n) - bitLength(d) - 56; // q gets 55 to 57 bits
  const scaledN = e < 0 ? n << BigInt(-e) : n;
  const scaledD = e > 0 ? d << BigInt(e) : d;
  let q = scaledN / scaledD;
  const r = scaledN % scaledD;
  // bring q to 53 bits, rounding half to even on the dropped bits and the remainder
  let dropBits = bitLength(q) - 53;
  let rem = r;
  let den = scaledD;
  while (dropBits > 0) {
    const bit = q & 1n;
    rem = rem + bit * den;
    den *= 2n;
    q >>= 1n;
    e++;
    dropBits--;
  }
  const twice = 2n * rem;
  if (twice > den || (twice === den && (q & 1n) === 1n)) q++;
  if (q >= 1n << 53n) {
    q >>= 1n;
    e++;
  }
  let num = q;
  let dd = 1n;
  if (e >= 0) num <<= BigInt(e);
  else dd <<= BigInt(-e);
  return [negative ? -num : num, dd];
}

/** Exact value of a tree of rationals and floats ([n, d, float?]); a float operand rounds the result to 53 bits. */
function exactValue(e: Expr, floats = true): [bigint, bigint, boolean] | null {
  if (e.t === "num") return [e.n, e.d, false];
  if (e.t === "float") return floats && Number.isFinite(e.v) ? [...binaryRational(e.v), true] : null;
  if (e.t === "mul" || e.t === "add") {
    let acc: [bigint, bigint, boolean] = e.t === "mul" ? [1n, 1n, false] : [0n, 1n, false];
    for (const a of e.args) {
      const v = exactValue(a, floats);
      if (!v) return null;
      const f = acc[2] || v[2];
      // an operation with a Float works on doubles: both operands as doubles, the result rounded
      const [an, ad] = f && !acc[2] ? round53(acc[0], acc[1]) : [acc[0], acc[1]];
      const [vn, vd] = f && !v[2] ? round53(v[0], v[1]) : [v[0], v[1]];
      let n = e.t === "mul" ? an * vn : an * vd + vn * ad;
      let d = ad * vd;
      if (f) [n, d] = round53(n, d);
      acc = [n, d, f];
    }
    return acc;
  }
  if (e.t === "pow" && e.e.t === "num" && e.e.d === 1n && e.e.n >= -64n && e.e.n <= 64n) {
    const b = exactValue(e.b, floats);
    if (!b) return null;
    const k = Number(e.e.n);
    if (k < 0 && b[0] === 0n) return null;
    const [n, d] = k >= 0 ? [b[0], b[1]] : [b[1], b[0]];
    const out: [bigint, bigint] = [n ** BigInt(Math.abs(k)), d ** BigInt(Math.abs(k))];
    return b[2] ? [...round53(...out), true] : [...out, false];
  }
  return null;
}
function exactEq(a: Expr, b: Expr): boolean {
  let x = exactValue(a);
  let y = exactValue(b);
  if (!x || !y) return false;
  if (x[2] || y[2]) {
    x = [...round53(x[0], x[1]), true];
    y = [...round53(y[0], y[1]), true];
  }
  return x[0] * y[1] === y[0] * x[1];
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
  // symmetric_difference(...).is_empty: the same subset of the reals (membership by value, 1/2 in {0.5})
  if (isSet(a) && isSet(b) && (a.t !== "set" || b.t !== "set" || a.args.length !== b.args.length)) {
    const x = toRealSet(a);
    const y = toRealSet(b);
    if (x && y && sameRealSet(x, y)) return true;
  }
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
    if (proportional(diff(gold.l, gold.r), diff(pred.l, pred.r))) return true;
    const sg = solveLinear(gold);
    const sp = solveLinear(pred);
    if (sg && sp && sg[0] === sp[0]) return exprEq(sg[1], sp[1], r);
  }
  return false;
}

/** f = c·g for a constant c ≠ 0, on the same symbols, checked at fixed points. */
function proportional(f: Expr, g: Expr): boolean {
  const fs = [...freeSymbols(f)].sort();
  const gs = [...freeSymbols(g)].sort();
  if (fs.length < 2 || fs.join() !== gs.join()) return false;
  let ratio: C | null = null;
  let checked = 0;
  for (let p = 0; p < POINTS.length; p++) {
    const env = new Map<string, number>();
    fs.forEach((s, k) => env.set(s, POINTS[(p + k) % POINTS.length]! + k * 0.1129));
    const x = evaluate(f, env);
    const y = evaluate(g, env);
    if (!isFiniteC(x) || !isFiniteC(y) || cAbs(y) < 1e-9) continue;
    const q = { re: (x.re * y.re + x.im * y.im) / (y.re * y.re + y.im * y.im), im: (x.im * y.re - x.re * y.im) / (y.re * y.re + y.im * y.im) };
    if (cAbs(q) < 1e-12) return false;
    if (ratio && !close(ratio, q, 1e-9)) return false;
    ratio = q;
    checked++;
  }
  return checked >= 3;
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
