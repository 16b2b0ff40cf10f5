/**
 * latex2sympy2_extended 1.10.2's normalize_latex (math_normalization.py) with math-verify's
 * LatexExtractionConfig settings: boxed extraction, basic LaTeX clean-up, units, nits, malformed operators; and with
 * the config class's defaults (boxed extraction and basic clean-up only).
 */

const UNITS = [
  "integerpoint", "feet", "sue", "digit", "pound", "meal", "edge", "student", "children ticket", "multiple",
  "east", "degree", "mph", "kmph", "ft", "m square", " m east", "sq m", "deg", "mile", "q .", "monkey", "prime",
  "ratio", "profit of rs", "rd", "o", "gm", "p . m", "lb", "tile", "per", "dm", "lt", "gain", "ab", "way", "west",
  "a .", "b .", "c .", "d .", "e .", "f .", "g .", "h .", "t", "h", "no change", "men", "soldier", "pie", "bc",
  "excess", "st", "inches", "noon", "cent", "by", "gal", "kmh", "c", "acre", "rise", "a . m", "th", "π r 2", "sq",
  "mark", "l", "toy", "coin", "sq . m", "gallon", "° f", "profit", "minw", "yr", "women", "am", "pm", "hr",
  "cu cm", "square", "v â € ™", "are", "rupee", "rounds", "cubic", "cc", "mtr", "s", "ohm", "number", "kmph", "day",
  "hour", "minute", "min", "second", "man", "woman", "sec", "cube", "mt", "sq inch", "mp", "∏ cm ³", "hectare",
  "more", "sec", "unit", "cu . m", "cm 2", "rs .", "rs", "kg", "g", "month", "km", "m", "cm", "mm", "apple",
  "liter", "loss", "yard", "pure", "year", "increase", "decrease", "d", "less", "Surface", "litre", "pi sq m",
  "s .", "metre", "meter", "inch",
];
// Python joins the unit strings unescaped: "q ." is a regex (q, space, any character).
const UNITS_RE = new RegExp(`([0-9]|\\}|\\s)\\s*(?:(?:${UNITS.join("|")})(?:s|es)?)\\s*$`);

const R_LEFT =
  /\\m?left(\\\{|\{|\\\||\||\[|\(|\\rbracl|\\lgroup|\\lbrace|\\lbrack|\\vert|\\lvert|\\lceil|\\lfloor|\\vert|\\lvert|\\langle|\\llcorner|\\ulcorner)/g;
const R_RIGHT =
  /\\m?right(\\\}|\}|\\\||\||\]|\)|\\rbrack|\\rgroup|\\rbrace|\\rbrack|\\vert|\\rvert|\\rceil|\\rfloor|\\vert|\\rvert|\\rangle|\\lrcorner|\\urcorner)/g;
const TO_REMOVE = /\\mathrm\{th\}|\\!\s*|\\text\s*\{\s*\}|\\text\s*\{\s*\}|\\\$|\$|(?<!\\)["']|\\displaystyle/g;

const REPLACE: [string, string, string][] = [
  ["math", "\\\\math(?:rm|it|bf)", "\\text"],
  ["text", "\\\\text(?:normal|bf|it|rm)", "\\text"],
  ["frac", "\\\\(?:d|t|c)frac", "\\frac"],
  ["decimal_space", "\\s\\.", " 0."],
  ["decimal_brace", "\\{\\.", "{0."],
  ["approx", "\\~\\=", "\\approx"],
  ["comma", "\\s*\\{\\s*,\\s*\\}", ","],
  ["and_or", "(?<![a-zA-Z])(,?\\s*(?:and|or))(?![a-zA-Z])", ","],
  ["and_or_text", "(,?\\s*\\\\text\\{\\s*(?:and|or)\\s*\\})", ","],
  ["backslash_space", "(?<!\\\\)\\\\\\s", " "],
  ["infinity", "infinity", "\\infty"],
  ["dot", ",?(\\\\ldots)", " "],
  ["percentage", "\\s*percentage", "\\%"],
  ["percentage_in_text", "\\\\text\\{percentage\\}", "\\%"],
  ["percent", "\\s*percent", "\\%"],
  ["percent_in_text", "\\\\text\\{percent\\}", "\\%"],
  ["pct", "\\s*pct", "\\%"],
  ["pct_in_text", "\\\\text\\{pct\\}", "\\%"],
  ["inf", "((?<!\\\\)inf(?!inity))", "\\infty"],
  ["sqrt", " sqrt", "\\sqrt"],
];
const REPLACE_RE = new RegExp(REPLACE.map(([n, p]) => `(?<${n}>${p})`).join("|"), "g");
const COMMAND_SLASH_FIX = /\\\\(?=[a-zA-Z])/g;
const PERMUTATION = /\(([a-zA-Z0-9+\-*/\\ ]+?)\)_\{([a-zA-Z0-9+\-*/\\ ]+?)\}/g;
const UNIT_SUPERSCRIPT = /(\\(?:text|mbox)\{.*?\})(\^[0-9]|\{\^[0-9]\})?$/;

const MALFORMED: [RegExp, string][] = [
  [/\^\s?\((.*?)\)/g, "^{$1}"],
  [/sqrt\s?\((.*?)\)/g, "\\sqrt{$1}"],
  [/\\frac\s?([0-9])\s?([0-9]+)/g, "\\frac{$1}{$2}"],
  [/\\log_\s?([0-9])\s?([0-9]+)/g, "\\log_{$1}{$2}"],
  [/\\frac\s?\{(.*?)\}\s?([0-9])/g, "\\frac{$1}{$2}"],
  [/\\frac\s?([0-9])\s?\{(.*?)\}/g, "\\frac{$1}{$2}"],
  [/\\sqrt\s?([0-9])/g, "\\sqrt{$1}"],
];

const VALID_SEPARATOR = /and|or|,|;/;
/** Python's str.rfind(sub, 0, end): the last occurrence lying wholly before `end`. */
function rfind(text: string, sub: string, end: number): number {
  return end - sub.length < 0 ? -1 : text.lastIndexOf(sub, end - sub.length);
}
const isSpace = (c: string) => /\s/.test(c);

/** extract_boxed_content: \boxed / \fbox contents, right to left ("last": the last box and its close neighbours). */
export function extractBoxedContent(text: string, mode: "last" | "all"): string {
  const results: string[] = [];
  let currentPos = text.length;
  let lastBoxedStart: number | null = null;
  let maxPos = text.length;
  for (;;) {
    const boxedIdx = rfind(text, "\\boxed", currentPos);
    const fboxIdx = rfind(text, "\\fbox", currentPos);
    if (boxedIdx < 0 && fboxIdx < 0) break;
    const start = Math.max(boxedIdx, fboxIdx);
    let p = start + (boxedIdx > fboxIdx ? 6 : 5);
    while (p < maxPos && isSpace(text[p]!)) p++;
    if (p >= maxPos) break;
    if (text[p] === "{") {
      let i = p;
      let open = 1;
      let end = -1;
      while (i + 1 < maxPos) {
        i++;
        if (text[i] === "{") open++;
        else if (text[i] === "}") {
          open--;
          if (open === 0) {
            end = i;
            break;
          }
        }
      }
      if (end < 0) {
        if (results.length === 0) results.push(text.slice(p));
        break;
      }
      const content = pyStrip(text.slice(p + 1, end));
      if (mode === "last" && lastBoxedStart !== null) {
        const between = text.slice(end + 1, lastBoxedStart);
        const prev = results.length ? results[results.length - 1]! : "";
        const ok = between.length < 10 || (prev !== content && between.length < 70 && VALID_SEPARATOR.test(between));
        if (!ok) break;
      }
      results.push(content);
      lastBoxedStart = start;
      maxPos = start;
    } else {
      if (results.length === 0) results.push(text.slice(p));
      break;
    }
    currentPos = start;
  }
  if (!results.length) return text;
  return results.reverse().join(",");
}

/** Python's str.strip() (Unicode whitespace). */
export function pyStrip(s: string): string {
  return s.replace(/^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/g, "");
}

function fixFracs(text: string): string {
  const parts = text.split("\\frac");
  let out = parts[0]!;
  for (let k = 1; k < parts.length; k++) {
    const sub = parts[k]!.replace(/^[\s\x1c-\x1f\x85]+/, "");
    out += "\\frac";
    if (sub.length > 0 && sub[0] === "{") out += sub;
    else if ([...sub].length < 2) return text;
    else {
      const chars = [...sub];
      const a = chars[0]!;
      const b = chars[1]!;
      const rest = chars.slice(2).join("");
      out += b !== "{" ? `{${a}}{${b}}${rest}` : `{${a}}${b}${rest}`;
    }
  }
  return out;
}

function fixASlashB(text: string): string {
  const parts = text.split("/");
  if (parts.length !== 2) return text;
  const a = pyInt(parts[0]!);
  const b = pyInt(parts[1]!);
  if (a === null || b === null) return text;
  if (text !== `${a}/${b}`) return text;
  return `\\frac{${a}}{${b}}`;
}

/** Python int(str): optional sign, digits (underscores between digits), surrounding whitespace. */
function pyInt(s: string): string | null {
  const m = /^\s*([+-]?)([0-9](?:_?[0-9])*)\s*$/.exec(s);
  if (!m) return null;
  const v = BigInt(m[2]!.replace(/_/g, ""));
  return (m[1] === "-" && v !== 0n ? "-" : "") + v.toString();
}

function fixSqrt(text: string): string {
  if (!text.includes("\\sqrt")) return text;
  const parts = text.split("\\sqrt");
  let out = parts[0]!;
  for (let k = 1; k < parts.length; k++) {
    const s = parts[k]!.replace(/^[\s\x1c-\x1f\x85]+/, "");
    if (s.length > 0 && s[0] !== "{" && s[0] !== "[") {
      const chars = [...s];
      out += `\\sqrt{${chars[0]}}${chars.slice(1).join("")}`;
    } else out += "\\sqrt" + s;
  }
  return out;
}

/** normalize_latex's `basic_latex` group. */
function basicLatex(input: string): string {
  let text = input.replaceAll("\\mathrm{T}", "T");
  text = text.replaceAll("\\mathrm{d}", "d").replaceAll("{\\rm d}", "d");
  text = text.replaceAll("\\left[\\begin{matrix}", "\\begin{bmatrix}").replaceAll("\\end{matrix}\\right]", "\\end{bmatrix}");
  text = text.replace(R_LEFT, "$1").replace(R_RIGHT, "$1");
  text = text.replace(PERMUTATION, (_m, a: string, b: string) => `\\frac{(${a})!}{((${a})-(${b}))!}`);
  text = text.replace(TO_REMOVE, "");
  text = text.replace(REPLACE_RE, (...args) => {
    const groups = args[args.length - 1] as Record<string, string | undefined>;
    for (const [name, , rep] of REPLACE) if (groups[name] !== undefined) return rep;
    return args[0] as string;
  });
  text = text.replaceAll("\n", " ").replaceAll("\t", " ");
  if (!text.includes("matrix")) text = text.replace(COMMAND_SLASH_FIX, "\\");
  return text;
}

/**
 * normalize_latex(text, NormalizationConfig) with the class itself as the config (NeMo Gym's imo_proofbench_judge
 * math_equal): the field defaults, i.e. boxed "all" and basic_latex only.
 */
export function normalizeLatexDefaults(input: string): string {
  return pyStrip(basicLatex(extractBoxedContent(input, "all")));
}

/** normalize_latex(text, NormalizationConfig(basic_latex, units, malformed_operators, nits, boxed=mode)). */
export function normalizeLatex(input: string, boxed: "all" | "last"): string {
  let text = basicLatex(extractBoxedContent(input, boxed));
  // units
  let t = pyStrip(text.replace(UNIT_SUPERSCRIPT, ""));
  if (t !== "" && t !== text) text = t;
  for (let k = 0; k < 2; k++) {
    t = text.replace(UNITS_RE, "$1");
    if (t !== "" && t !== text) text = t;
  }
  // nits
  if (text.length > 0 && text[0] === ".") text = "0" + text;
  if (text === "0.5") text = "\\frac{1}{2}";
  // malformed operators
  for (const [re, rep] of MALFORMED) text = text.replace(re, rep);
  text = text.replaceAll(" sqrt", "\\sqrt");
  text = fixSqrt(text);
  text = fixFracs(text);
  text = fixASlashB(text);
  return pyStrip(text);
}
