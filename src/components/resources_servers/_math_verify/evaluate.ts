/** Numeric evaluation of an expression tree in complex double precision (the stand-in for SymPy's evalf). */
import type { Expr } from "./expr.ts";

export interface C {
  re: number;
  im: number;
}
const c = (re: number, im = 0): C => ({ re, im });
const NAN = c(NaN, NaN);

const cadd = (a: C, b: C) => c(a.re + b.re, a.im + b.im);
const cmul = (a: C, b: C) => (a.im === 0 && b.im === 0 ? c(a.re * b.re) : c(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re));
function cdiv(a: C, b: C): C {
  if (b.im === 0 && a.im === 0) return c(a.re / b.re);
  const d = b.re * b.re + b.im * b.im;
  return c((a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d);
}
const cabs = (a: C) => Math.hypot(a.re, a.im);
function clog(a: C): C {
  if (a.im === 0 && a.re > 0) return c(Math.log(a.re));
  return c(Math.log(cabs(a)), Math.atan2(a.im, a.re));
}
function cexp(a: C): C {
  const m = Math.exp(a.re);
  return a.im === 0 ? c(m) : c(m * Math.cos(a.im), m * Math.sin(a.im));
}
function cpow(a: C, b: C): C {
  if (a.im === 0 && b.im === 0) {
    if (a.re >= 0 || Number.isInteger(b.re)) return c(Math.pow(a.re, b.re));
    // principal branch of a negative base (SymPy: (-8)**(1/3) is complex)
  }
  if (a.re === 0 && a.im === 0) return b.re > 0 ? c(0) : NAN;
  if (b.im === 0 && Number.isInteger(b.re) && Math.abs(b.re) <= 64) {
    let r = c(1);
    for (let k = 0; k < Math.abs(b.re); k++) r = cmul(r, a);
    return b.re < 0 ? cdiv(c(1), r) : r;
  }
  return cexp(cmul(b, clog(a)));
}
function csin(a: C): C {
  return a.im === 0 ? c(Math.sin(a.re)) : c(Math.sin(a.re) * Math.cosh(a.im), Math.cos(a.re) * Math.sinh(a.im));
}
function ccos(a: C): C {
  return a.im === 0 ? c(Math.cos(a.re)) : c(Math.cos(a.re) * Math.cosh(a.im), -Math.sin(a.re) * Math.sinh(a.im));
}
function real1(f: (x: number) => number): (a: C) => C {
  return (a) => (a.im === 0 ? c(f(a.re)) : NAN);
}
function gamma(x: number): number {
  if (Number.isInteger(x) && x > 0 && x < 171) {
    let r = 1;
    for (let k = 2; k < x; k++) r *= k;
    return r;
  }
  if (x < 0.5) return Math.PI / (Math.sin(Math.PI * x) * gamma(1 - x));
  x -= 1;
  const g = 7;
  const p = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61571963747, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  let s = p[0]!;
  for (let i = 1; i < g + 2; i++) s += p[i]! / (x + i);
  const t = x + g + 0.5;
  return Math.sqrt(2 * Math.PI) * Math.pow(t, x + 0.5) * Math.exp(-t) * s;
}

const FUNCS: Record<string, (args: C[]) => C> = {
  sin: ([a]) => csin(a!),
  cos: ([a]) => ccos(a!),
  tan: ([a]) => cdiv(csin(a!), ccos(a!)),
  cot: ([a]) => cdiv(ccos(a!), csin(a!)),
  sec: ([a]) => cdiv(c(1), ccos(a!)),
  csc: ([a]) => cdiv(c(1), csin(a!)),
  asin: ([a]) => real1(Math.asin)(a!),
  acos: ([a]) => real1(Math.acos)(a!),
  atan: ([a]) => real1(Math.atan)(a!),
  acot: ([a]) => real1((x) => Math.atan(1 / x))(a!),
  sinh: ([a]) => real1(Math.sinh)(a!),
  cosh: ([a]) => real1(Math.cosh)(a!),
  tanh: ([a]) => real1(Math.tanh)(a!),
  exp: ([a]) => cexp(a!),
  log: (args) => (args.length === 2 ? cdiv(clog(args[0]!), clog(args[1]!)) : clog(args[0]!)),
  Abs: ([a]) => c(cabs(a!)),
  factorial: ([a]) => real1((x) => (x < 0 && Number.isInteger(x) ? NaN : gamma(x + 1)))(a!),
  binomial: ([n, k]) => c(gamma(n!.re + 1) / (gamma(k!.re + 1) * gamma(n!.re - k!.re + 1))),
  floor: ([a]) => real1(Math.floor)(a!),
  ceiling: ([a]) => real1(Math.ceil)(a!),
  re: ([a]) => c(a!.re),
  im: ([a]) => c(a!.im),
  conjugate: ([a]) => c(a!.re, -a!.im),
  arg: ([a]) => c(Math.atan2(a!.im, a!.re)),
  sign: ([a]) => real1(Math.sign)(a!),
  Max: (args) => (args.every((x) => x.im === 0) ? c(Math.max(...args.map((x) => x.re))) : NAN),
  Min: (args) => (args.every((x) => x.im === 0) ? c(Math.min(...args.map((x) => x.re))) : NAN),
  gcd: (args) => c(args.map((x) => Math.abs(x.re)).reduce((p, q) => { while (q) [p, q] = [q, p % q]; return p; })),
  lcm: (args) => c(args.map((x) => Math.abs(x.re)).reduce((p, q) => { let a = p, b = q; while (b) [a, b] = [b, a % b]; return (p / a) * q; })),
};

/** The value of `e` with symbols bound by `env`; NaN parts when it has no number (sets, relations, unknown functions). */
export function evaluate(e: Expr, env: Map<string, number> = new Map()): C {
  switch (e.t) {
    case "num":
      return c(Number(e.n) / Number(e.d));
    case "float":
      return c(e.v);
    case "sym": {
      const v = env.get(e.name);
      return v === undefined ? NAN : c(v);
    }
    case "const":
      return e.name === "pi" ? c(Math.PI) : e.name === "E" ? c(Math.E) : e.name === "I" ? c(0, 1) : e.name === "oo" ? c(Infinity) : e.name === "-oo" ? c(-Infinity) : NAN;
    case "add":
      return e.args.reduce((s, a) => cadd(s, evaluate(a, env)), c(0));
    case "mul":
      return e.args.reduce((s, a) => cmul(s, evaluate(a, env)), c(1));
    case "pow":
      return cpow(evaluate(e.b, env), evaluate(e.e, env));
    case "fn": {
      const f = FUNCS[e.name];
      return f ? f(e.args.map((a) => evaluate(a, env))) : NAN;
    }
    default:
      return NAN;
  }
}

export const isFiniteC = (v: C) => Number.isFinite(v.re) && Number.isFinite(v.im);
export const cAbs = cabs;
