/** The Python `re` → JavaScript `v`-mode RegExp translator: a recursive-descent parser that emits JS and checks Python's rules. */
import { PyException } from "./errors.ts";
import { litInClass, litOutside, setEscape, SIMPLE_ESCAPES, wordClass, type Flags } from "./re-syntax.ts";

/** re.error: the pattern is invalid in Python. */
export function reError(message: string): PyException {
  return new PyException("error", message);
}

/** A construct Python accepts but this translator does not (atomic groups, possessive repeats, conditionals, \N{…}). */
export class PyRegexUnsupported extends Error {}

interface Node {
  js: string;
  min: number;
  max: number;
  /** "at": anchors (Python cannot repeat them); "look": lookarounds (JS cannot repeat them bare). */
  kind: "atom" | "at" | "look";
  quantified?: boolean;
}


/** One pattern's translation; `groups` counts capturing groups as Python numbers them. */
export class Translator {
  private readonly cps: string[];
  private pos = 0;
  groups = 0;
  private readonly open = new Set<number>();
  private readonly widths = new Map<number, [number, number]>();
  private readonly names = new Map<string, number>();

  constructor(pattern: string) {
    this.cps = Array.from(pattern);
  }

  private peek(offset = 0): string | undefined {
    return this.cps[this.pos + offset];
  }

  private error(message: string): PyException {
    return reError(`${message} at position ${this.pos}`);
  }

  /** Leading `(?aimsx)` groups set the global flags (Python 3.11+ allows them only at the start). */
  globalFlags(f: Flags): void {
    while (this.peek() === "(" && this.peek(1) === "?") {
      let i = 2;
      while (this.peek(i) !== undefined && "aiLmsux".includes(this.peek(i)!)) i++;
      if (i === 2 || this.peek(i) !== ")") return;
      for (let k = 2; k < i; k++) this.applyFlag(f, this.peek(k)!, true);
      this.pos += i + 1;
    }
  }

  private applyFlag(f: Flags, c: string, on: boolean): void {
    if (c === "i") f.ignoreCase = on;
    else if (c === "m") f.multiline = on;
    else if (c === "s") f.dotAll = on;
    else if (c === "x") f.verbose = on;
    else if (c === "a") f.ascii = on;
    else if (c === "L") throw this.error("bad inline flag: cannot use 'L' flag with a str pattern");
  }

  parseAlternation(f: Flags): Node {
    const branches: Node[] = [this.parseSequence(f)];
    while (this.peek() === "|") {
      this.pos++;
      branches.push(this.parseSequence(f));
    }
    if (branches.length === 1) return branches[0]!;
    return {
      js: branches.map((b) => b.js).join("|"),
      min: Math.min(...branches.map((b) => b.min)),
      max: Math.max(...branches.map((b) => b.max)),
      kind: "atom",
    };
  }

  private skipVerbose(f: Flags): void {
    if (!f.verbose) return;
    for (;;) {
      const c = this.peek();
      if (c !== undefined && /\s/.test(c)) this.pos++;
      else if (c === "#") {
        while (this.peek() !== undefined && this.peek() !== "\n") this.pos++;
      } else return;
    }
  }

  private parseSequence(f: Flags): Node {
    const items: Node[] = [];
    for (;;) {
      this.skipVerbose(f);
      const c = this.peek();
      if (c === undefined || c === "|" || c === ")") break;
      if (c === "*" || c === "+" || c === "?" || (c === "{" && this.quantifierAhead())) {
        const last = items[items.length - 1];
        if (!last || last.kind === "at") throw this.error("nothing to repeat");
        if (last.quantified) throw this.error("multiple repeat");
        items[items.length - 1] = this.parseQuantifier(last);
        continue;
      }
      items.push(this.parseAtom(f));
    }
    let min = 0;
    let max = 0;
    for (const n of items) {
      min += n.min;
      max += n.max;
    }
    return { js: items.map((n) => n.js).join(""), min, max, kind: "atom" };
  }

  /** `{m}`, `{m,}`, `{,n}`, `{m,n}`; anything else makes `{` a literal in Python. */
  private quantifierAhead(): boolean {
    let i = 1;
    while (this.peek(i) !== undefined && /[0-9]/.test(this.peek(i)!)) i++;
    if (this.peek(i) === ",") {
      i++;
      while (this.peek(i) !== undefined && /[0-9]/.test(this.peek(i)!)) i++;
    }
    // "{}" is a literal; "{,}" is {0,} in Python.
    return this.peek(i) === "}" && i > 1;
  }

  private parseQuantifier(atom: Node): Node {
    const c = this.cps[this.pos++]!;
    let lo = 0;
    let hi = Infinity;
    let js: string;
    if (c === "*") js = "*";
    else if (c === "+") {
      lo = 1;
      js = "+";
    } else if (c === "?") {
      hi = 1;
      js = "?";
    } else {
      let text = "";
      while (this.peek() !== "}") text += this.cps[this.pos++];
      this.pos++;
      const [a, b] = text.split(",") as [string, string | undefined];
      lo = a === "" ? 0 : Number(a);
      hi = b === undefined ? lo : b === "" ? Infinity : Number(b);
      if (lo > 4294967295 || (hi !== Infinity && hi > 4294967295)) throw this.error("the repetition number is too large");
      if (hi < lo) throw this.error("min repeat greater than max repeat");
      js = b === undefined ? `{${lo}}` : `{${lo},${hi === Infinity ? "" : hi}}`;
    }
    if (this.peek() === "?") {
      this.pos++;
      js += "?";
    } else if (this.peek() === "+") {
      throw new PyRegexUnsupported("possessive repeats (*+, ++, ?+, {m,n}+) are not supported");
    }
    const base = atom.kind === "look" ? `(?:${atom.js})` : atom.js;
    return { js: base + js, min: atom.min * lo, max: hi === 0 ? 0 : atom.max * hi, kind: "atom", quantified: true };
  }

  private parseAtom(f: Flags): Node {
    const c = this.cps[this.pos++]!;
    switch (c) {
      case "(":
        return this.parseGroup(f);
      case "[":
        return { js: this.parseClass(f), min: 1, max: 1, kind: "atom" };
      case ".":
        return { js: f.dotAll ? "[\\s\\S]" : "[^\\n]", min: 1, max: 1, kind: "atom" };
      case "^":
        // Python: start of string, or after any "\n" with MULTILINE (JS `m` would also accept \r, \u2028, \u2029).
        return { js: f.multiline ? "(?<![^\\n])" : "(?<![\\s\\S])", min: 0, max: 0, kind: "at" };
      case "$":
        // Python: end of string or before a final "\n"; with MULTILINE before any "\n".
        return { js: f.multiline ? "(?![^\\n])" : "(?=\\n?(?![\\s\\S]))", min: 0, max: 0, kind: "at" };
      case "\\":
        return this.parseEscape(f);
      case ")":
        throw this.error("unbalanced parenthesis");
      default:
        return { js: litOutside(c), min: 1, max: 1, kind: "atom" };
    }
  }

  private parseEscape(f: Flags): Node {
    const c = this.cps[this.pos++];
    if (c === undefined) throw this.error("bad escape (end of pattern)");
    const set = setEscape(c, f);
    if (set !== undefined) return { js: set.startsWith("[") ? set : `[${set}]`, min: 1, max: 1, kind: "atom" };
    const w = `[${wordClass(f)}]`;
    switch (c) {
      case "A":
        return { js: "(?<![\\s\\S])", min: 0, max: 0, kind: "at" };
      case "Z":
        return { js: "(?![\\s\\S])", min: 0, max: 0, kind: "at" };
      case "b":
        return { js: `(?:(?<=${w})(?!${w})|(?<!${w})(?=${w}))`, min: 0, max: 0, kind: "at" };
      case "B":
        return { js: `(?:(?<=${w})(?=${w})|(?<!${w})(?!${w}))`, min: 0, max: 0, kind: "at" };
    }
    if (/[1-9]/.test(c)) {
      // \NNN with three octal digits is a character; otherwise up to two digits name a group.
      const d2 = this.peek();
      const d3 = this.peek(1);
      if (/[0-7]/.test(c) && d2 !== undefined && /[0-7]/.test(d2) && d3 !== undefined && /[0-7]/.test(d3)) {
        this.pos += 2;
        return this.charNode(this.octal(c + d2 + d3));
      }
      let num = c;
      if (d2 !== undefined && /[0-9]/.test(d2)) {
        num += d2;
        this.pos++;
      }
      return this.groupRef(Number(num));
    }
    return this.charNode(this.escapedChar(c, false));
  }

  private groupRef(n: number): Node {
    if (n > this.groups) throw this.error(`invalid group reference ${n}`);
    if (this.open.has(n)) throw this.error("cannot refer to an open group");
    const [min, max] = this.widths.get(n) ?? [0, Infinity];
    return { js: `(?:\\${n})`, min, max, kind: "atom" };
  }

  private octal(digits: string): number {
    const v = parseInt(digits, 8);
    if (v > 0o377) throw this.error(`octal escape value \\${digits} outside of range 0-0o377`);
    return v;
  }

  private charNode(cp: number): Node {
    return { js: litOutside(String.fromCodePoint(cp)), min: 1, max: 1, kind: "atom" };
  }

  /** The code point of an escape that denotes one character (shared by both contexts). */
  private escapedChar(c: string, inClass: boolean): number {
    if (c in SIMPLE_ESCAPES) return SIMPLE_ESCAPES[c]!;
    if (inClass && c === "b") return 8;
    if (c === "0") {
      let digits = "0";
      while (digits.length < 3 && this.peek() !== undefined && /[0-7]/.test(this.peek()!)) digits += this.cps[this.pos++];
      return this.octal(digits);
    }
    if (c === "x" || c === "u" || c === "U") {
      const len = c === "x" ? 2 : c === "u" ? 4 : 8;
      const digits = this.cps.slice(this.pos, this.pos + len).join("");
      if (digits.length < len || !/^[0-9a-fA-F]+$/.test(digits)) throw this.error(`incomplete escape \\${c}${digits}`);
      this.pos += len;
      const v = parseInt(digits, 16);
      if (v > 0x10ffff) throw this.error(`bad escape \\${c}${digits}`);
      return v;
    }
    if (c === "N") throw new PyRegexUnsupported("named character escapes \\N{...} are not supported");
    if (/[A-Za-z0-9]/.test(c)) throw this.error(`bad escape \\${c}`);
    return c.codePointAt(0)!;
  }

  private parseGroup(f: Flags): Node {
    const start = this.pos - 1;
    if (this.peek() !== "?") return this.capture(f, undefined);
    this.pos++;
    const c = this.cps[this.pos++];
    if (c === ":") return this.wrap(f, "(?:", false);
    if (c === "=" || c === "!") return this.wrap(f, `(?${c}`, false, true);
    if (c === "<" && (this.peek() === "=" || this.peek() === "!")) {
      const kind = this.cps[this.pos++]!;
      return this.wrap(f, `(?<${kind}`, true, true);
    }
    if (c === "P" && this.peek() === "<") {
      this.pos++;
      return this.capture(f, this.readName(">"));
    }
    if (c === "P" && this.peek() === "=") {
      this.pos++;
      const name = this.readName(")");
      const n = this.names.get(name);
      if (n === undefined) throw this.error(`unknown group name '${name}'`);
      return this.groupRef(n);
    }
    if (c === "#") {
      while (this.peek() !== undefined && this.peek() !== ")") this.pos++;
      if (this.peek() === undefined) throw this.error("missing ), unterminated comment");
      this.pos++;
      return { js: "", min: 0, max: 0, kind: "atom" };
    }
    if (c === ">" || c === "(") throw new PyRegexUnsupported("atomic groups and conditional groups are not supported");
    if (c !== undefined && "aiLmsux-".includes(c)) return this.scopedFlags(f, c, start);
    throw this.error(`unknown extension ?${c ?? ""}`);
  }

  private readName(end: string): string {
    let name = "";
    while (this.peek() !== undefined && this.peek() !== end) name += this.cps[this.pos++];
    if (this.peek() !== end) throw this.error(`missing ${end}, unterminated name`);
    this.pos++;
    if (!/^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u.test(name)) throw this.error(`bad character in group name '${name}'`);
    return name;
  }

  private capture(f: Flags, name: string | undefined): Node {
    const n = ++this.groups;
    if (name !== undefined) {
      if (this.names.has(name)) throw this.error(`redefinition of group name '${name}'`);
      this.names.set(name, n);
    }
    this.open.add(n);
    const node = this.wrap(f, name === undefined ? "(" : `(?<${name}>`, false);
    this.open.delete(n);
    this.widths.set(n, [node.min, node.max]);
    return node;
  }

  private wrap(f: Flags, opener: string, lookbehind: boolean, look = false): Node {
    const inner = this.parseAlternation(f);
    if (this.peek() !== ")") throw this.error("missing ), unterminated subpattern");
    this.pos++;
    if (lookbehind && inner.min !== inner.max) throw this.error("look-behind requires fixed-width pattern");
    const node: Node = { js: `${opener}${inner.js})`, min: inner.min, max: inner.max, kind: "atom" };
    if (look) return { ...node, min: 0, max: 0, kind: "look" };
    return node;
  }

  private scopedFlags(f: Flags, first: string, start: number): Node {
    const local: Flags = { ...f };
    let on = true;
    let c: string | undefined = first;
    let js = "";
    let jsOff = "";
    for (;;) {
      if (c === "-") on = false;
      else if (c === ":") break;
      else if (c === ")") {
        throw reError(`global flags not at the start of the expression at position ${start}`);
      } else if (c !== undefined && "aiLmsux".includes(c)) {
        this.applyFlag(local, c, on);
        if (c === "i") on ? (js += "i") : (jsOff += "i");
      } else throw this.error(`unknown flag`);
      c = this.cps[this.pos++];
      if (c === undefined) throw this.error("missing -, : or )");
    }
    const opener = js || jsOff ? `(?${js}${jsOff ? `-${jsOff}` : ""}:` : "(?:";
    return this.wrap(local, opener, false);
  }

  private parseClass(f: Flags): string {
    let negate = false;
    if (this.peek() === "^") {
      negate = true;
      this.pos++;
    }
    const items: string[] = [];
    let first = true;
    for (;;) {
      const c = this.cps[this.pos++];
      if (c === undefined) throw this.error("unterminated character set");
      if (c === "]" && !first) break;
      first = false;
      let lo: number | string;
      if (c === "\\") lo = this.classEscape(f);
      else lo = c.codePointAt(0)!;
      if (this.peek() === "-" && this.peek(1) !== undefined && this.peek(1) !== "]") {
        this.pos++;
        const d = this.cps[this.pos++]!;
        const hi = d === "\\" ? this.classEscape(f) : d.codePointAt(0)!;
        if (typeof lo === "string" || typeof hi === "string") throw this.error("bad character range");
        if (hi < lo) throw this.error("bad character range");
        items.push(`${litInClass(String.fromCodePoint(lo))}-${litInClass(String.fromCodePoint(hi))}`);
        continue;
      }
      items.push(typeof lo === "string" ? lo : litInClass(String.fromCodePoint(lo)));
    }
    return `[${negate ? "^" : ""}${items.join("")}]`;
  }

  /** A class escape: a code point, or a set (string) for \d \w \s and their negations. */
  private classEscape(f: Flags): number | string {
    const c = this.cps[this.pos++];
    if (c === undefined) throw this.error("bad escape (end of pattern)");
    const set = setEscape(c, f);
    if (set !== undefined) return set;
    if (/[1-7]/.test(c)) {
      let digits = c;
      while (digits.length < 3 && this.peek() !== undefined && /[0-7]/.test(this.peek()!)) digits += this.cps[this.pos++];
      return this.octal(digits);
    }
    return this.escapedChar(c, true);
  }

  atEnd(): boolean {
    return this.pos >= this.cps.length;
  }
}

