/** Tokens of latex2sympy2_extended's PS.g4 lexer (longest match, then the first rule), the subset answers use. */

export interface Tok {
  k: string; // kind
  v: string; // text
}

const SKIP = ["\\thinspace", "\\medspace", "\\thickspace", "\\qquad", "\\quad", "\\negthinspace", "\\negmedspace", "\\negthickspace", "\\vrule", "\\vcenter", "\\vbox", "\\vskip", "\\vspace", "\\hfil", "\\,", "\\:", "\\;", "\\!", "\\$"];
const FUNCS = ["log", "ln", "exp", "sin", "cos", "tan", "csc", "sec", "cot", "arcsin", "arccos", "arctan", "arccsc", "arcsec", "arccot", "sinh", "cosh", "tanh", "arsinh", "arcosh", "artanh", "arcsinh", "arccosh", "arctanh", "floor", "ceil", "det"];
const MULTI = ["gcd", "lcm", "max", "min"];
export const GREEK = ["alpha", "beta", "gamma", "Gamma", "delta", "Delta", "epsilon", "varepsilon", "zeta", "eta", "theta", "Theta", "vartheta", "iota", "kappa", "lambda", "Lambda", "mu", "nu", "xi", "Xi", "pi", "Pi", "varpi", "rho", "varrho", "sigma", "Sigma", "varsigma", "tau", "upsilon", "Upsilon", "phi", "Phi", "varphi", "chi", "psi", "Psi", "omega", "Omega"];
const OTHER = ["Bbbk", "wp", "nabla", "bigstar", "angle", "nexists", "diagdown", "measuredangle", "eth", "diagup", "sphericalangle", "clubsuit", "varnothing", "Diamond", "complement", "diamondsuit", "imath", "Finv", "triangledown", "heartsuit", "jmath", "Game", "triangle", "spadesuit", "ell", "hbar", "vartriangle", "hslash", "blacklozenge", "lozenge", "blacksquare", "mho", "blacktriangle", "sharp", "prime", "Im", "flat", "square", "backprime", "Re", "natural", "surd", "circledS"];
const ACCENTS = ["acute", "bar", "overline", "breve", "check", "widecheck", "dot", "ddot", "grave", "hat", "tilde", "widetilde", "vec", "overrightarrow", "bm", "boldsymbol", "text", "textit", "textbf", "textnormal", "mathbb", "mathbin", "mathbf", "mathcal", "mathclap", "mathclose", "mathellipsis", "mathfrak", "mathinner", "mathit", "mathnormal", "mathop", "mathopen", "mathord", "mathpunct", "mathrel", "mathring", "mathrlap", "mathrm", "mathscr", "mathsf", "mathsterling", "mathtt", "mbox"];

/** Literal tokens: [text, kind]. Longest literal wins. */
const LITERALS: [string, string][] = [
  ["+", "ADD"], ["-", "SUB"], ["−", "SUB"], ["*", "MUL"], ["×", "MUL"], ["⋅", "MUL"], ["∗", "MUL"], ["∙", "MUL"], ["/", "DIV"], ["÷", "DIV"], ["\\over", "DIV"],
  ["(", "LP"], [")", "RP"], ["\\(", "LPV"], ["\\)", "RPV"], ["\\lgroup", "LG"], ["\\rgroup", "RG"], ["{", "LB"], ["}", "RB"], ["\\{", "LBV"], ["\\}", "RBV"],
  ["\\lbrace", "LBC"], ["\\rbrace", "RBC"], ["[", "LK"], ["]", "RK"], ["\\lbrack", "LKC"], ["\\rbrack", "RKC"], ["\\phantom", "PHANTOM"], ["\\boxed", "BOXED"],
  ["|", "BAR"], ["\\lvert", "LVERT"], ["\\rvert", "RVERT"], ["\\vert", "VERT"], ["\\|", "NORM"], ["\\langle", "LANGLE"], ["\\rangle", "RANGLE"],
  ["\\lfloor", "LFLOOR"], ["\\rfloor", "RFLOOR"], ["\\lceil", "LCEIL"], ["\\rceil", "RCEIL"], ["\\llcorner", "LFLOOR"], ["\\lrcorner", "RFLOOR"], ["\\ulcorner", "LCEIL"], ["\\urcorner", "RCEIL"],
  ["\\sqrt", "SQRT"], ["\\frac", "FRAC"], ["\\dfrac", "FRAC"], ["\\tfrac", "FRAC"], ["\\cfrac", "FRAC"], ["\\binom", "BINOM"], ["\\dbinom", "BINOM"], ["\\tbinom", "BINOM"], ["\\choose", "CHOOSE"],
  ["\\times", "MUL"], ["\\cdot", "MUL"], ["\\div", "DIV"], [":", "DIV"], ["\\mod", "MOD"], ["\\bmod", "MOD"], ["\\operatorname", "OPNAME"],
  ["^", "CARET"], ["_", "UNDER"], ["!", "BANG"], [",", "COMMA"], [";", "SEMI"], [".", "PERIOD"], ["&", "AMP"], ["\\\\", "ROW"],
  ["=", "ASSIGN"], ["≡", "ASSIGN"], ["==", "EQUAL"], ["\\equiv", "EQUAL"], ["~=", "APPROX"], ["≈", "APPROX"], ["\\approx", "APPROX"],
  ["<", "LT"], ["\\lt", "LT"], ["\\leq", "LTE"], ["\\le", "LTE"], ["\\leqslant", "LTE"], ["≤", "LTE"], ["<=", "LTE"],
  [">", "GT"], ["\\gt", "GT"], ["\\geq", "GTE"], ["\\ge", "GTE"], ["\\geqslant", "GTE"], ["≥", "GTE"], [">=", "GTE"],
  ["!=", "NE"], ["\\ne", "NE"], ["\\neq", "NE"], ["≠", "NE"], ["\\in", "IN"], ["\\notin", "NOTIN"], ["∉", "NOTIN"],
  ["\\cup", "UNION"], ["∪", "UNION"], ["\\cap", "INTER"], ["∩", "INTER"], ["\\setminus", "SETMINUS"], ["∖", "SETMINUS"],
  ["\\pm", "PM"], ["±", "PM"], ["∓", "PM"], ["\\mp", "PM"], ["\\emptyset", "EMPTY"], ["∅", "EMPTY"], ["\\{\\}", "EMPTY"], ["\\lbrace\\rbrace", "EMPTY"],
  ["\\subseteq", "SUBSET"], ["\\supseteq", "SUPSET"], ["\\infty", "INFTY"], ["\\$\\infty", "INFTY"], ["\\infty\\%", "INFTY"], ["\\partial", "PARTIAL"],
  ["\\mathbb{N}", "NATURALS"], ["ℕ", "NATURALS"], ["\\mathbb{Z}", "INTEGERS"], ["ℤ", "INTEGERS"], ["\\mathbb{Q}", "RATIONALS"], ["ℚ", "RATIONALS"],
  ["\\mathbb{R}", "REALS"], ["ℝ", "REALS"], ["\\mathbb{C}", "COMPLEXES"], ["ℂ", "COMPLEXES"],
  ["^\\circ", "DEGREE"], ["^\\degree", "DEGREE"], ["^\\circle", "DEGREE"], ["^°", "DEGREE"], ["^{\\circ}", "DEGREE"], ["^{\\degree}", "DEGREE"], ["^{\\circle}", "DEGREE"], ["^{°}", "DEGREE"],
  ["^T", "TRANSPOSE"], ["^{T}", "TRANSPOSE"], ["'", "TRANSPOSE"], ["\\exponentialE", "EXP_E"],
  ...FUNCS.map((f): [string, string] => [`\\${f}`, "FUNC"]),
  ...MULTI.map((f): [string, string] => [`\\${f}`, "MFUNC"]),
  ...OTHER.map((f): [string, string] => [`\\${f}`, "OTHER"]),
];
for (const env of ["matrix", "pmatrix", "bmatrix", "Bmatrix", "vmatrix", "Vmatrix", "smallmatrix", "array"]) {
  LITERALS.push([`\\begin{${env}}`, "MSTART"], [`\\end{${env}}`, "MEND"]);
}
// Literals by their first two characters (one character for one-character literals), longest first.
const BY_PREFIX = new Map<string, [string, string][]>();
for (const lit of LITERALS) {
  const key = lit[0].slice(0, 2);
  if (!BY_PREFIX.has(key)) BY_PREFIX.set(key, []);
  BY_PREFIX.get(key)!.push(lit);
}
for (const list of BY_PREFIX.values()) list.sort((a, b) => b[0].length - a[0].length);
const GREEK_UNICODE: Record<string, string> = { α: "alpha", β: "beta", γ: "gamma", δ: "delta", ε: "epsilon", θ: "theta", λ: "lambda", π: "pi", σ: "sigma", φ: "phi", ω: "omega" };

export class LexError extends Error {}

const NUM = /[0-9]*\.[0-9]+|[0-9]+/y;
const ENOT = /E[+-]?[0-9]+/y;
const PCT = /[ \t\r\n]?(?:\\%|%)/y;
const DIFF = /d[ \t\r\n]*?(?:[a-zA-Z]|\\[a-zA-Z]+)/y;
const CMD = /\\([a-zA-Z]+)/y;
const ACCENT_BODY = /[ \t\r\n]?\{((?:\\\}|[^}])*?)\}/y;
const VARIABLE = /\\variable\{[^}]*\}(?:\\%|%)?/y;

/** A sticky match at `at`, or null (no slicing: the lexer allocates per token, not per character). */
function at(re: RegExp, src: string, pos: number): RegExpExecArray | null {
  re.lastIndex = pos;
  return re.exec(src);
}

export function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  const n = src.length;
  outer: while (i < n) {
    const ch = src[i]!;
    if (ch === " " || ch === "\t" || ch === "\r" || ch === "\n") {
      i++;
      continue;
    }
    // candidates: [length, kind, text]
    let best: [number, string, string] | null = null;
    const consider = (len: number, kind: string) => {
      if (len > 0 && (!best || len > best[0])) best = [len, kind, src.slice(i, i + len)];
    };
    if (ch === "\\") for (const s of SKIP) if (src.startsWith(s, i)) consider(s.length, "SKIP");
    // numbers, e-notation, percent numbers
    const num = ch >= "0" && ch <= "9" || ch === "." ? at(NUM, src, i) : null;
    if (num) {
      consider(num[0].length, "NUMBER");
      const e = at(ENOT, src, i + num[0].length);
      if (e) consider(num[0].length + e[0].length, "ENOT");
      const pct = at(PCT, src, i + num[0].length);
      if (pct) consider(num[0].length + pct[0].length, "PCTNUM");
    }
    if (/[a-zA-Z]/.test(ch)) {
      if (ch === "d") {
        const m = at(DIFF, src, i);
        if (m) consider(m[0].length, "DIFF");
      }
      consider(1, ch === "e" ? "EXP_E" : ch === "E" ? "E_SYM" : "LETTER");
    }
    if (GREEK_UNICODE[ch]) consider(1, "GREEK");
    for (const key of [src.slice(i, i + 2), ch]) {
      for (const [lit, kind] of BY_PREFIX.get(key) ?? []) {
        if (src.startsWith(lit, i)) {
          const len = lit.length + (kind === "OTHER" && src[i + lit.length] === " " ? 1 : 0);
          consider(len, kind);
          break;
        }
      }
    }
    if (ch === "\\") {
      const m = at(CMD, src, i);
      if (m) {
        // \name{...} accents (their brace content is part of the token, `\}` allowed inside)
        for (const a of ACCENTS) {
          if (m[1]!.startsWith(a)) {
            const am = at(ACCENT_BODY, src, i + 1 + a.length);
            if (am) consider(1 + a.length + am[0].length, "ACCENT");
          }
        }
        for (const g of GREEK) if (m[1]!.startsWith(g)) consider(1 + g.length + (src[i + 1 + g.length] === " " ? 1 : 0), "GREEK");
        if (src.startsWith("\\variable{", i)) {
          const vm = at(VARIABLE, src, i);
          if (vm) consider(vm[0].length, "VARIABLE");
        }
      }
    }
    if (!best) throw new LexError(`token recognition error at ${i}`);
    const [len, kind, text] = best as [number, string, string];
    i += len;
    if (kind === "SKIP") continue outer;
    out.push({ k: kind, v: text });
  }
  return out;
}
