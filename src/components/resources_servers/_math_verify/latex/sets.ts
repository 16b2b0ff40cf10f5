/** The top level (PS.g4's math rule): set relations, set elements, intervals and tuples over relations. */
import { type Expr, add, neg } from "../expr.ts";
import { fail } from "./cursor.ts";
import { ExprParser } from "./exprs.ts";
import { CLOSE, asSet, numericValue, toSetOrTuple } from "./terms.ts";

export class Parser extends ExprParser {
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
    this.eat(CLOSE[open!]!);
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

}
