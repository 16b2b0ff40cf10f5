/** SymPy's str() of the tree, for `extracted_answer` (the common shapes: numbers, radicals, π, sums, products, sets). */
import type { Expr } from "./expr.ts";

/** Float: SymPy prints 15 significant digits (mpmath's to_str). */
function floatStr(v: number): string {
  if (v === 0) return "0";
  const s = v.toPrecision(15);
  if (/e/.test(s)) {
    const [m, e] = s.split("e") as [string, string];
    return `${m.replace(/\.?0+$/, (x) => (x.startsWith(".") ? "" : x))}e${e.replace("+", "+")}`;
  }
  return s.includes(".") ? s : s + ".";
}

const PREC: Record<string, number> = { add: 1, mul: 2, pow: 3 };
function prec(e: Expr): number {
  if (e.t === "num" && e.d !== 1n) return 2;
  if ((e.t === "num" && e.n < 0n) || (e.t === "float" && e.v < 0)) return 1.5;
  if (e.t === "mul" && e.args[0]?.t === "num" && e.args[0].n < 0n) return 1.5;
  return PREC[e.t] ?? 4;
}
function paren(e: Expr, level: number): string {
  const s = str(e);
  return prec(e) < level ? `(${s})` : s;
}

export function str(e: Expr): string {
  switch (e.t) {
    case "num":
      return e.d === 1n ? e.n.toString() : `${e.n}/${e.d}`;
    case "float":
      return floatStr(e.v);
    case "sym":
      return e.name.replace(/#c$/, "");
    case "const":
      return { pi: "pi", E: "E", I: "I", oo: "oo", "-oo": "-oo", nan: "nan" }[e.name];
    case "add": {
      let out = "";
      e.args.forEach((a, k) => {
        let s = str(a);
        if (k === 0) out = s;
        else if (s.startsWith("-")) out += ` - ${s.slice(1)}`;
        else out += ` + ${s}`;
      });
      return out;
    }
    case "mul": {
      const args = e.args;
      if (args.length === 2 && args[0]!.t === "num" && args[0]!.n === -1n && args[0]!.d === 1n) return `-${paren(args[1]!, 2)}`;
      const num: string[] = [];
      const den: string[] = [];
      for (const a of args) {
        if (a.t === "pow" && a.e.t === "num" && a.e.n === -1n && a.e.d === 1n) den.push(paren(a.b, 3));
        else if (a.t === "num" && a.d !== 1n && a.n === 1n) den.push(a.d.toString());
        else num.push(paren(a, 2));
      }
      const n = num.length ? num.join("*") : "1";
      return den.length ? `${n}/${den.length > 1 ? `(${den.join("*")})` : den[0]}` : n;
    }
    case "pow": {
      if (e.e.t === "num" && e.e.n === 1n && e.e.d === 2n) return `sqrt(${str(e.b)})`;
      if (e.e.t === "num" && e.e.n === -1n && e.e.d === 1n) return `1/${paren(e.b, 3)}`;
      const ex = e.e.t === "num" && e.e.d !== 1n ? `(${str(e.e)})` : paren(e.e, 3.5);
      return `${paren(e.b, 3.5)}**${ex}`;
    }
    case "fn":
      return `${e.name.startsWith("F:") ? e.name.slice(2) : e.name}(${e.args.map(str).join(", ")})`;
    case "set":
      return `{${e.args.map(str).join(", ")}}`;
    case "tuple":
      return `(${e.args.map(str).join(", ")})`;
    case "interval":
      return `Interval${e.lo && e.ro ? ".open" : e.lo ? ".Lopen" : e.ro ? ".Ropen" : ""}(${str(e.a)}, ${str(e.b)})`;
    case "setop":
      return `${{ union: "Union", intersection: "Intersection", complement: "Complement" }[e.op]}(${e.args.map(str).join(", ")})`;
    case "special":
      return e.name;
    case "rel":
      return e.op === "=" ? `Eq(${str(e.l)}, ${str(e.r)})` : e.op === "!=" ? `Ne(${str(e.l)}, ${str(e.r)})` : `${str(e.l)} ${e.op} ${str(e.r)}`;
    case "and":
      return e.args.map((a) => `(${str(a)})`).join(" & ");
    case "matrix":
      return `Matrix([${e.rows.map((r) => `[${r.map(str).join(", ")}]`).join(", ")}])`;
  }
}
