/**
 * LaTeX → expression tree, following latex2sympy2_extended 1.10.2 (PS.g4 and its converter): the same
 * top-level choice (set relation / elements / relation), implicit products, mixed fractions, \pm, intervals
 * versus tuples, lower-cased symbols, `d<x>` differentials, `\log` in base 10, degrees ignored.
 */
import { type Expr, HALF, PCT, add, fn, int, mul, neg, pow, rat, sym } from "./expr.ts";
import { GREEK, type Tok, tokenize } from "./lexer.ts";

export class ParseError extends Error {}
/** What the parser throws while it backtracks: not an Error, so no stack is captured on every failed alternative. */
class Backtrack {
  constructor(readonly message: string) {}
}
const fail = (m: string): never => {
  throw new Backtrack(m);
};

const CLOSE: Record<string, string> = { LP: "RP", LK: "RK", LB: "RB", LBV: "RBV", LBC: "RBC", LKC: "RKC", LG: "RG", LPV: "RPV" };
const TRIG = new Set(["sin", "cos", "tan", "csc", "sec", "cot"]);
const HYP = new Set(["sinh", "cosh", "tanh"]);

function parseNumber(text: string): Expr {
  const t = text.replace(/,/g, "");
  if (/^[0-9]+$/.test(t)) return int(BigInt(t));
  if (/E/.test(t)) {
    const [m, e] = t.split("E") as [string, string];
    return floatOf(`${m}e${e}`);
  }
  return floatOf(t);
}
function floatOf(s: string): Expr {
  return { t: "float", v: Number(s), s };
}

/** Names as get_symbol makes them: greek spelled out, lower-cased; `pi` is π. A complex context marks the symbol. */
function symbolOf(text: string, real: boolean): Expr {
  let s = text.trim();
  if (s.startsWith("\\")) s = s.slice(1);
  s = s.toLowerCase();
  if (s === "pi") return { t: "const", name: "pi" };
  return sym(real ? s : s + "#c");
}

class Parser {
  i = 0;
  constructor(
    readonly toks: Tok[],
    readonly real: boolean,
  ) {}
  peek(o = 0): Tok | undefined {
    return this.toks[this.i + o];
  }
  is(k: string, o = 0): boolean {
    return this.toks[this.i + o]?.k === k;
  }
  eat(k: string): Tok {
    const t = this.toks[this.i];
    if (!t || t.k !== k) fail(`expected ${k} at ${this.i}`);
    this.i++;
    return t!;
  }
  atEnd(): boolean {
    return this.i >= this.toks.length;
  }
  attempt<T>(f: () => T): T | undefined {
    const save = this.i;
    try {
      return f();
    } catch (e) {
      if (!(e instanceof Backtrack)) throw e;
      this.i = save;
      return undefined;
    }
  }

  // ------------------------------------------------------------ top level (math rule)
  math(): Expr {
    const alts: (() => Expr)[] = [() => this.setElementsRelation(), () => this.setElements(), () => this.setRelation()];
    for (const alt of alts) {
      const r = this.attempt(() => {
        const v = alt();
        if (!this.atEnd()) fail("trailing input");
        return v;
      });
      if (r !== undefined) return r;
    }
    return fail("Nothing matched");
  }

  atomExprList(): Expr[] {
    if (this.is("LP")) {
      return (
        this.attempt(() => {
          this.eat("LP");
          const xs = [this.atomExpr()];
          while (this.is("COMMA")) {
            this.i++;
            xs.push(this.atomExpr());
          }
          this.eat("RP");
          return xs;
        }) ?? fail("atom list")
      );
    }
    return [this.atomExpr()];
  }
  atomList(xs: Expr[]): Expr {
    return xs.length === 1 ? xs[0]! : { t: "tuple", args: xs };
  }

  setElementsRelation(): Expr {
    const left = this.atomList(this.atomExprList());
    if (!this.is("IN") && !this.is("ASSIGN")) fail("no relation");
    this.i++;
    const elements = this.semicolonElements(false);
    return { t: "rel", op: "=", l: left, r: toSetOrTuple(elements) };
  }
  setElements(): Expr {
    return toSetOrTuple(this.semicolonElements(true));
  }
  setRelation(): Expr {
    const rel = this.attempt(() => {
      const left = this.atomList(this.atomExprList());
      const op = this.peek()?.k;
      if (op !== "IN" && op !== "NOTIN" && op !== "ASSIGN") fail("no set relation");
      this.i++;
      const right = this.setRelation();
      if (op === "NOTIN") fail("not in");
      return { t: "rel", op: "=", l: left, r: right } as Expr;
    });
    if (rel) return rel;
    return this.minusExpr();
  }
  minusExpr(): Expr {
    let left = this.unionExpr();
    while (this.is("SETMINUS")) {
      this.i++;
      left = { t: "setop", op: "complement", args: [left, this.unionExpr()] };
    }
    return left;
  }
  unionExpr(): Expr {
    let left = this.interExpr();
    while (this.is("UNION")) {
      this.i++;
      left = { t: "setop", op: "union", args: [asSet(left), asSet(this.interExpr())] };
    }
    return left;
  }
  interExpr(): Expr {
    let left = this.setGroup();
    while (this.is("INTER")) {
      this.i++;
      left = { t: "setop", op: "intersection", args: [asSet(left), asSet(this.setGroup())] };
    }
    return left;
  }
  setGroup(): Expr {
    const atom = this.attempt(() => this.setAtom());
    if (atom) return atom;
    this.eat("LP");
    const v = this.minusExpr();
    this.eat("RP");
    return v;
  }
  setAtom(): Expr {
    const alts: (() => Expr)[] = [() => this.interval(), () => this.literalSet(), () => this.orderedTuple(), () => this.finiteSet()];
    for (const alt of alts) {
      const r = this.attempt(alt);
      if (r !== undefined) return r;
    }
    return fail("set atom");
  }
  interval(): Expr {
    const open = this.peek()?.k;
    if (!open || !["LK", "LP", "LPV", "LKC", "LG"].includes(open)) fail("interval");
    this.i++;
    const a = this.expr();
    this.eat("COMMA");
    const b = this.expr();
    const close = this.peek()?.k;
    if (!close || !["RK", "RP", "RPV", "RKC", "RG"].includes(close)) fail("interval close");
    this.i++;
    const lo = open === "LP" || open === "LG" || open === "LPV";
    const ro = close === "RP" || close === "RG" || close === "RPV";
    const d = numericValue(b) - numericValue(a);
    if (!Number.isNaN(d) && ((lo && ro && d <= 0) || (!lo && !ro && d < 0))) return { t: "tuple", args: [a, b] };
    // SymPy's Interval never includes an infinite end point
    const inf = (x: Expr, name: string) => x.t === "const" && x.name === name;
    return { t: "interval", a, b, lo: lo || inf(a, "-oo"), ro: ro || inf(b, "oo") };
  }
  literalSet(): Expr {
    const k = this.peek()?.k;
    const map: Record<string, Expr["t"] extends never ? never : string> = { NATURALS: "Naturals", INTEGERS: "Integers", RATIONALS: "Rationals", REALS: "Reals", COMPLEXES: "Complexes", EMPTY: "EmptySet" };
    if (k && map[k]) {
      this.i++;
      return { t: "special", name: map[k] as "Reals" };
    }
    if (this.is("LB") && this.is("RB", 1)) {
      this.i += 2;
      return { t: "special", name: "EmptySet" };
    }
    return fail("literal set");
  }
  orderedTuple(): Expr {
    const open = this.peek()?.k;
    if (open !== "LP" && open !== "LPV" && open !== "LK") fail("tuple");
    this.i++;
    const els = this.semicolonElements(true);
    this.eat(CLOSE[open!]!);
    if (els.length === 1 && els[0]!.length === 1) return els[0]![0]!;
    return { t: "tuple", args: els.flat() };
  }
  finiteSet(): Expr {
    const open = this.peek()?.k;
    if (open === "BOXED") {
      this.i++;
      this.eat("LB");
      const els = this.semicolonElements(true);
      this.eat("RB");
      return toSetOrTuple(els);
    }
    if (open !== "LB" && open !== "LBV") fail("set");
    this.i++;
    const els = this.semicolonElements(true);
    this.eat(CLOSE[open]!);
    return { t: "set", args: els.flat() };
  }
  semicolonElements(withRelation: boolean): Expr[][] {
    const rows = [this.commaElements(withRelation)];
    while (this.is("SEMI")) {
      this.i++;
      rows.push(this.commaElements(withRelation));
    }
    return rows;
  }
  commaElements(withRelation: boolean): Expr[] {
    const out = this.element(withRelation);
    while (this.is("COMMA")) {
      this.i++;
      out.push(...this.element(withRelation));
    }
    return out;
  }
  element(withRelation: boolean): Expr[] {
    // plus_minus_expr | set_atom | relation (or expr)
    const pm = this.attempt(() => {
      if (this.is("PM")) {
        this.i++;
        const e = this.expr();
        return [neg(e), e];
      }
      const l = this.expr();
      this.eat("PM");
      const r = this.expr();
      return [add(l, r), add(l, neg(r))];
    });
    if (pm && this.elementEnds()) return pm;
    if (pm) this.i -= 0; // fall through: the rest did not end the element
    const save = this.i;
    const atom = this.attempt(() => this.setAtom());
    if (atom && this.elementEnds()) return [atom];
    this.i = save;
    return [withRelation ? this.relation() : this.expr()];
  }
  elementEnds(): boolean {
    const k = this.peek()?.k;
    return k === undefined || k === "COMMA" || k === "SEMI" || k === "RB" || k === "RBV" || k === "RP" || k === "RK" || k === "RPV";
  }

  // ------------------------------------------------------------ relations and arithmetic
  relation(): Expr {
    let left: Expr = this.expr();
    const ops: Record<string, "=" | "<" | "<=" | ">" | ">=" | "!="> = { ASSIGN: "=", EQUAL: "=", LT: "<", LTE: "<=", GT: ">", GTE: ">=", NE: "!=" };
    for (;;) {
      const k = this.peek()?.k;
      if (k === "APPROX") {
        this.i++;
        const r = this.expr();
        left = left.t === "sym" || onlySyms(left) ? r : left;
        continue;
      }
      if (k === "IN") fail("Unrecognized relation");
      const op = k ? ops[k] : undefined;
      if (!op) return left;
      this.i++;
      const r = this.expr();
      if (left.t === "and") left = { t: "and", args: [...left.args, { t: "rel", op, l: (left.args[left.args.length - 1] as { r: Expr }).r, r }] };
      else if (left.t === "rel") left = { t: "and", args: [left, { t: "rel", op, l: left.r, r }] };
      else left = { t: "rel", op, l: left, r };
    }
  }
  expr(): Expr {
    let left = this.mp(false);
    for (;;) {
      if (this.is("ADD")) {
        this.i++;
        left = add(left, this.mp(false));
      } else if (this.is("SUB")) {
        this.i++;
        const r = this.mp(false);
        left = add(left, isNumberLike(r) ? neg(r) : mul(int(-1), r));
      } else return left;
    }
  }
  mp(nofunc: boolean): Expr {
    let left = this.unary(nofunc);
    for (;;) {
      const k = this.peek()?.k;
      if (k === "MUL") {
        this.i++;
        left = mul(left, this.unary(nofunc));
      } else if (k === "DIV") {
        this.i++;
        const r = this.unary(nofunc);
        left = left.t === "num" && left.d === 1n && r.t === "num" && r.d === 1n ? rat(left.n, r.n) : { t: "mul", args: [left, pow(r, int(-1))] };
      } else if (k === "MOD") {
        this.i++;
        left = fn("Mod", left, this.unary(nofunc));
      } else return left;
    }
  }
  unary(nofunc: boolean): Expr {
    if (this.is("ADD")) {
      this.i++;
      return this.unary(nofunc);
    }
    if (this.is("SUB")) {
      this.i++;
      const v = this.unary(nofunc);
      return isNumberLike(v) ? neg(v) : mul(int(-1), v);
    }
    // unary_nofunc: postfix postfix_nofunc* (the first may be a function, `\\ln e^3`)
    const items: Expr[] = [this.postfix(false)];
    for (;;) {
      const save = this.i;
      const next = this.attempt(() => this.postfix(nofunc, true));
      if (next === undefined || this.i === save) break;
      items.push(next);
    }
    return postfixList(items);
  }
  postfix(nofunc: boolean, tail = false): Expr {
    let e = this.exp(nofunc);
    for (;;) {
      const k = this.peek()?.k;
      if (k === "BANG") {
        this.i++;
        e = fn("factorial", e);
      } else if (k === "DEGREE" || k === "TRANSPOSE") this.i++;
      else return e;
    }
  }
  exp(nofunc: boolean): Expr {
    let base = this.comp(nofunc);
    while (this.is("CARET")) {
      this.i++;
      const e = this.supArg();
      base = pow(base, e);
      if (this.is("UNDER")) this.subexpr();
    }
    return base;
  }
  supArg(): Expr {
    if (this.is("LB")) {
      this.i++;
      const e = this.expr();
      this.eat("RB");
      return e;
    }
    return this.atom();
  }
  subexpr(): Expr {
    this.eat("UNDER");
    if (this.is("LB")) {
      this.i++;
      const e = this.expr();
      this.eat("RB");
      return e;
    }
    return this.atom();
  }
  group(): Expr | undefined {
    const k = this.peek()?.k;
    if (!k || !CLOSE[k] || k === "LPV") return undefined;
    return this.attempt(() => {
      this.i++;
      const e = this.expr();
      this.eat(CLOSE[k]!);
      return e;
    });
  }
  comp(nofunc: boolean): Expr {
    const k = this.peek()?.k;
    const g = this.group();
    if (g) return g;
    if (k === "PHANTOM" || k === "BOXED") {
      this.i++;
      this.eat("LB");
      const e = this.expr();
      this.eat("RB");
      return e;
    }
    if (k === "BAR" || k === "LVERT" || k === "VERT") {
      const close = k === "LVERT" ? "RVERT" : k;
      this.i++;
      const e = this.expr();
      this.eat(close);
      return fn("Abs", e);
    }
    if (k === "LFLOOR" || k === "LCEIL") {
      this.i++;
      const e = this.expr();
      this.eat(k === "LFLOOR" ? "RFLOOR" : "RCEIL");
      return fn(k === "LFLOOR" ? "floor" : "ceiling", e);
    }
    if (!nofunc) {
      const f = this.attempt(() => this.func());
      if (f) return f;
    }
    if (k === "FRAC") {
      this.i++;
      this.eat("LB");
      const top = this.expr();
      this.eat("RB");
      this.eat("LB");
      const bot = this.expr();
      this.eat("RB");
      if (top.t === "num" && top.d === 1n && bot.t === "num" && bot.d === 1n) return rat(top.n, bot.n);
      return { t: "mul", args: [top, pow(bot, int(-1))] };
    }
    if (k === "BINOM") {
      this.i++;
      this.eat("LB");
      const top = this.expr();
      this.eat("RB");
      this.eat("LB");
      const bot = this.expr();
      this.eat("RB");
      return fn("binomial", top, bot);
    }
    if (k === "LB" && this.attempt(() => {
      this.i++;
      this.expr();
      this.eat("CHOOSE");
      return true;
    })) fail("choose");
    if (k === "MSTART") return this.matrix();
    return this.atom();
  }
  matrix(): Expr {
    this.eat("MSTART");
    const rows: Expr[][] = [];
    let row: Expr[] = [this.expr()];
    for (;;) {
      const k = this.peek()?.k;
      if (k === "AMP") {
        this.i++;
        row.push(this.expr());
      } else if (k === "ROW") {
        this.i++;
        rows.push(row);
        if (this.is("MEND")) {
          row = [];
          break;
        }
        row = [this.expr()];
      } else break;
    }
    if (row.length) rows.push(row);
    this.eat("MEND");
    if (rows.some((r) => r.length !== rows[0]!.length)) fail("ragged matrix");
    return { t: "matrix", rows };
  }
  func(): Expr {
    const k = this.peek()?.k;
    if (k === "FUNC" || k === "MFUNC") {
      const name = this.peek()!.v.slice(1);
      this.i++;
      let sub: Expr | undefined;
      let sup: Expr | undefined;
      for (let n = 0; n < 2; n++) {
        if (this.is("UNDER") && !sub) sub = this.subexpr();
        else if (this.is("CARET") && !sup) {
          this.i++;
          sup = this.supArg();
        }
      }
      let arg: Expr;
      let args: Expr[] = [];
      if (this.is("LP")) {
        this.i++;
        arg = this.expr();
        args = [arg];
        while (k === "MFUNC" && this.is("COMMA")) {
          this.i++;
          args.push(this.expr());
        }
        this.eat("RP");
      } else {
        arg = this.mp(true);
        args = [arg];
      }
      let e: Expr;
      let power = sup;
      if (name === "log" || name === "ln") e = fn("log", arg, sub ?? (name === "log" ? int(10) : { t: "const", name: "E" }));
      else if (name === "exp") e = fn("exp", arg);
      else if (name === "floor" || name === "ceil") e = fn(name === "floor" ? "floor" : "ceiling", arg);
      else if (TRIG.has(name) || HYP.has(name)) {
        let n = name;
        if (power && power.t === "num" && power.n === -1n && power.d === 1n) {
          n = "a" + name;
          power = undefined;
        }
        e = fn(n, arg);
      } else if (name.startsWith("arc")) e = fn("a" + name.slice(3), arg);
      else if (name === "max" || name === "min") e = fn(name === "max" ? "Max" : "Min", ...args);
      else if (name === "gcd" || name === "lcm") e = fn(name, ...args);
      else e = fn(name, ...args);
      return power ? pow(e, power) : e;
    }
    if (k === "SQRT") {
      this.i++;
      let root: Expr | undefined;
      if (this.is("LK")) {
        this.i++;
        root = this.expr();
        this.eat("RK");
      }
      this.eat("LB");
      const base = this.expr();
      this.eat("RB");
      if (!root) return pow(base, HALF);
      return pow(base, root.t === "num" ? rat(root.d, root.n) : pow(root, int(-1)));
    }
    if (k === "EXP_E") {
      this.i++;
      if (this.is("CARET")) {
        this.i++;
        return fn("exp", this.supArg());
      }
      return { t: "const", name: "E" };
    }
    if (k === "LETTER" || k === "GREEK" || k === "OTHER" || k === "ACCENT") {
      // f(x): an undefined function applied to arguments
      const save = this.i;
      const head = this.atomExpr(true);
      let power: Expr | undefined;
      if (this.is("CARET")) {
        this.i++;
        power = this.supArg();
      }
      if (!this.is("LP") && !this.is("LK")) {
        this.i = save;
        fail("not a function");
      }
      const close = this.is("LP") ? "RP" : "RK";
      this.i++;
      const argStart = this.i;
      const args = [this.expr()];
      while (this.is("COMMA")) {
        this.i++;
        args.push(this.expr());
      }
      // func_common_args: one argument only when it is a single atom
      if (args.length === 1 && this.i - argStart !== 1) fail("not a function call");
      this.eat(close);
      const name = head.t === "sym" ? head.name.replace(/#c$/, "") : head.t === "const" ? head.name : "f";
      const e = fn("F:" + name, ...args);
      return power ? pow(e, power) : e;
    }
    return fail("func");
  }

  atomExpr(noSup = false): Expr {
    const t = this.peek();
    if (!t) return fail("eof");
    let text: string;
    if (t.k === "LETTER") {
      this.i++;
      if (t.v === "I") return { t: "const", name: "I" };
      text = t.v;
    } else if (t.k === "GREEK") {
      this.i++;
      const g = t.v.trim();
      text = g.startsWith("\\") ? g.slice(1) : ({ α: "alpha", β: "beta", γ: "gamma", δ: "delta", ε: "epsilon", θ: "theta", λ: "lambda", π: "pi", σ: "sigma", φ: "phi", ω: "omega" } as Record<string, string>)[g] ?? g;
      if (!GREEK.includes(text) && !/^[a-z]+$/i.test(text)) text = g;
    } else if (t.k === "OTHER") {
      this.i++;
      text = t.v.trim();
    } else if (t.k === "ACCENT") {
      this.i++;
      const open = t.v.indexOf("{");
      const name = t.v.slice(1, open).trim();
      let inner = t.v.slice(open + 1, -1).replace(/ /g, "");
      if (name.includes("text") || name.includes("mbox")) {
        inner = inner.replace(/[()]/g, "");
        text = inner;
      } else if (name === "mathrm" || name === "mathbf" || name === "mathit" || name === "boldsymbol" || name === "bm") text = inner;
      else text = `${name}{${inner}}`;
    } else return fail("atom expr");
    let subText = "";
    let sup: Expr | undefined;
    for (let n = 0; n < 2; n++) {
      if (this.is("UNDER") && !subText) {
        this.i++;
        if (this.is("LB")) {
          this.i++;
          const start = this.i;
          let depth = 1;
          while (!this.atEnd() && depth > 0) {
            const k = this.peek()!.k;
            if (k === "LB") depth++;
            if (k === "RB") depth--;
            this.i++;
          }
          const inner = this.toks.slice(start, this.i - 1).map((x) => x.v).join("");
          subText = inner.length > 1 ? `_{${inner}}` : `_${inner}`;
        } else {
          const a = this.peek();
          if (!a) fail("subscript");
          this.i++;
          subText = `_${a!.v}`;
        }
      } else if (this.is("CARET") && !sup && !noSup) {
        this.i++;
        sup = this.supArg();
      }
    }
    const s = symbolOf(text + subText, this.real);
    return sup ? pow(s, sup) : s;
  }
  atom(): Expr {
    const t = this.peek();
    if (!t) return fail("eof");
    switch (t.k) {
      case "LETTER":
      case "GREEK":
      case "OTHER":
      case "ACCENT":
        return this.atomExpr();
      case "INFTY":
        this.i++;
        return { t: "const", name: "oo" };
      case "NUMBER": {
        this.i++;
        const v = parseNumber(t.v);
        if (this.is("UNDER")) this.subexpr();
        return v;
      }
      case "ENOT":
        this.i++;
        return parseNumber(t.v);
      case "PCTNUM": {
        this.i++;
        return mul(parseNumber(t.v.replace(/\\?%/, "").trim()), PCT);
      }
      case "E_SYM":
        this.i++;
        return symbolOf("E", this.real);
      case "DIFF": {
        this.i++;
        const v = t.v.slice(1).trim();
        return sym("d" + symbolName(v));
      }
    }
    return fail(`unexpected ${t.k}`);
  }
}

/** SymPy's `is_Number` on the class: numbers and the infinities negate in place. */
function isNumberLike(e: Expr): boolean {
  return e.t === "num" || e.t === "float" || (e.t === "const" && (e.name === "oo" || e.name === "-oo"));
}

function symbolName(v: string): string {
  const s = v.startsWith("\\") ? v.slice(1) : v;
  return s.toLowerCase();
}
function onlySyms(e: Expr): boolean {
  return e.t === "sym" || (e.t === "mul" && e.args.every(onlySyms));
}
function isAtomLike(_e: Expr): boolean {
  return true;
}

/** convert_postfix_list: implicit products, with `2 \frac{1}{2}` read as a mixed number. */
function postfixList(items: Expr[]): Expr {
  if (items.length === 1) return items[0]!;
  const res = items[0]!;
  const rh = postfixList(items.slice(1));
  if (res.t === "num" && res.d === 1n && rh.t === "num" && rh.n > 0n && rh.d > 0n) {
    return res.n < 0n ? rat(res.n * rh.d - rh.n, rh.d) : rat(res.n * rh.d + rh.n, rh.d);
  }
  return mul(res, rh);
}

function toSetOrTuple(elements: Expr[][]): Expr {
  if (elements.length === 1) {
    if (elements[0]!.length === 1) return elements[0]![0]!;
    return { t: "set", args: elements[0]! };
  }
  if (elements.every((e) => e.length === 1)) return { t: "set", args: elements.map((e) => e[0]!) };
  return { t: "set", args: elements.map((e) => ({ t: "tuple", args: e }) as Expr) };
}
function asSet(e: Expr): Expr {
  return e.t === "tuple" ? { t: "set", args: e.args } : e;
}
function numericValue(e: Expr): number {
  if (e.t === "num") return Number(e.n) / Number(e.d);
  if (e.t === "float") return e.v;
  if (e.t === "const" && e.name === "oo") return Infinity;
  if (e.t === "const" && e.name === "pi") return Math.PI;
  if (e.t === "mul" && e.args.length === 2 && e.args[0]!.t === "num" && e.args[0]!.n === -1n) return -numericValue(e.args[1]!);
  return NaN;
}

const COMMA_NUMBER = /^\s*-?[0-9]{1,3}(,[0-9]{3})+(\.[0-9]+)?\s*$/;

/** latex2sympy(latex, is_real=…): throws ParseError / LexError when latex2sympy would fail. */
export function latexToExpr(latex: string, real: boolean): Expr {
  const p = new Parser(tokenize(latex), real);
  let v: Expr;
  try {
    v = p.math();
  } catch (e) {
    if (e instanceof Backtrack) throw new ParseError(e.message);
    throw e;
  }
  if (v.t === "set" && COMMA_NUMBER.test(latex)) {
    const integer = latex.replace(/[, ]/g, "").replace(/^(-?)0+(?=[0-9])/, "$1");
    return parseNumber(integer);
  }
  return v;
}
