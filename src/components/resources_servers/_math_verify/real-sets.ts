/**
 * Subsets of the reals as sorted disjoint intervals, for SymPy's `symmetric_difference(...).is_empty` on
 * intervals, unions, complements and finite sets of numbers (`\mathbb{R} \setminus [3,4]` = (-∞,3) ∪ (4,∞)).
 */
import { evaluate } from "./evaluate.ts";
import type { Expr } from "./expr.ts";

interface Piece {
  a: number;
  b: number;
  lo: boolean; // open at a
  ro: boolean; // open at b
}
type RealSet = Piece[];

function value(e: Expr): number | null {
  const v = evaluate(e);
  return v.im === 0 && !Number.isNaN(v.re) ? v.re : null;
}

function normalize(ps: RealSet): RealSet {
  const sorted = ps.filter((p) => p.a < p.b || (p.a === p.b && !p.lo && !p.ro)).sort((x, y) => x.a - y.a || Number(x.lo) - Number(y.lo));
  const out: RealSet = [];
  for (const p of sorted) {
    const last = out[out.length - 1];
    if (last && (p.a < last.b || (p.a === last.b && !(p.lo && last.ro)))) {
      if (p.b > last.b || (p.b === last.b && !p.ro)) {
        last.ro = p.b > last.b ? p.ro : last.ro && p.ro;
        last.b = Math.max(last.b, p.b);
      }
    } else out.push({ ...p });
  }
  return out;
}

function complement(s: RealSet): RealSet {
  const out: RealSet = [];
  let a = -Infinity;
  let lo = true;
  for (const p of s) {
    out.push({ a, b: p.a, lo, ro: !p.lo });
    a = p.b;
    lo = !p.ro;
  }
  out.push({ a, b: Infinity, lo, ro: true });
  return normalize(out);
}

/** The set as intervals, or null when it is not a set of reals this can describe. */
export function toRealSet(e: Expr): RealSet | null {
  switch (e.t) {
    case "interval": {
      const a = value(e.a);
      const b = value(e.b);
      return a === null || b === null ? null : normalize([{ a, b, lo: e.lo, ro: e.ro }]);
    }
    case "set": {
      const pts: RealSet = [];
      for (const x of e.args) {
        const v = value(x);
        if (v === null || !Number.isFinite(v)) return null;
        pts.push({ a: v, b: v, lo: false, ro: false });
      }
      return normalize(pts);
    }
    case "special":
      return e.name === "Reals" ? [{ a: -Infinity, b: Infinity, lo: true, ro: true }] : e.name === "EmptySet" ? [] : null;
    case "setop": {
      const parts = e.args.map(toRealSet);
      if (parts.some((p) => p === null)) return null;
      const [first, ...rest] = parts as RealSet[];
      if (e.op === "union") return normalize([first!, ...rest].flat());
      if (e.op === "intersection") return complement(normalize([first!, ...rest].map(complement).flat()));
      return complement(normalize([complement(first!), ...rest].flat()));
    }
    default:
      return null;
  }
}

export function sameRealSet(a: RealSet, b: RealSet): boolean {
  const eq = (x: number, y: number) => x === y || Math.abs(x - y) <= 1e-12 * Math.max(1, Math.abs(x), Math.abs(y));
  return a.length === b.length && a.every((p, i) => eq(p.a, b[i]!.a) && eq(p.b, b[i]!.b) && p.lo === b[i]!.lo && p.ro === b[i]!.ro);
}
