/**
 * The top-level `NAME = <literal>` assignments of a Python module made only of literals (dicts, lists, tuples,
 * strings with their escapes and implicit concatenation, ints, True/False/None, comments), as lm-evaluation-harness's
 * mmlu_prox `lang_libs.py` is. Anything else is refused with its line: this reads data, it never runs code.
 */
export type PyLiteral = string | number | boolean | null | PyLiteral[] | { [key: string]: PyLiteral };

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"', "\n": "", a: "\x07", b: "\b", f: "\f", v: "\v", "0": "\0" };

export function pyModuleLiterals(source: string, label: string): Record<string, PyLiteral> {
  let i = 0;
  const fail = (what: string): never => {
    const line = source.slice(0, i).split("\n").length;
    throw new Error(`${label} line ${line}: ${what}`);
  };
  const skip = (newlines: boolean) => {
    for (;;) {
      const c = source[i];
      if (c === "#") while (i < source.length && source[i] !== "\n") i++;
      else if (c === " " || c === "\t" || c === "\r" || (newlines && c === "\n")) i++;
      else if (c === "\\" && source[i + 1] === "\n") i += 2;
      else return;
    }
  };
  const string = (): string => {
    const quote = source[i]!;
    const triple = source.startsWith(quote.repeat(3), i);
    i += triple ? 3 : 1;
    let out = "";
    for (;;) {
      if (i >= source.length) fail("unterminated string");
      const c = source[i]!;
      if (triple ? source.startsWith(quote.repeat(3), i) : c === quote) return (i += triple ? 3 : 1), out;
      if (c === "\n" && !triple) fail("newline in a string");
      if (c === "\\") {
        const e = source[i + 1]!;
        if (e === "u" || e === "x") {
          const n = e === "u" ? 4 : 2;
          out += String.fromCharCode(Number.parseInt(source.slice(i + 2, i + 2 + n), 16));
          i += 2 + n;
        } else if (Object.hasOwn(ESCAPES, e)) (out += ESCAPES[e]), (i += 2);
        else (out += `\\${e}`), (i += 2); // Python keeps unknown escapes as written
        continue;
      }
      out += c;
      i++;
    }
  };
  const value = (): PyLiteral => {
    skip(true);
    const c = source[i];
    if (c === '"' || c === "'") {
      let s = string();
      for (skip(true); source[i] === '"' || source[i] === "'"; skip(true)) s += string();
      return s;
    }
    if (c === "{" || c === "[" || c === "(") {
      const close = c === "{" ? "}" : c === "[" ? "]" : ")";
      i++;
      const items: PyLiteral[] = [];
      const dict: Record<string, PyLiteral> = {};
      for (;;) {
        skip(true);
        if (source[i] === close) return i++, c === "{" ? dict : items;
        const first = value();
        if (c === "{") {
          skip(true);
          if (source[i] !== ":") fail("expected ':' in a dict");
          i++;
          if (typeof first !== "string") fail("only string keys are read");
          dict[first as string] = value();
        } else items.push(first);
        skip(true);
        if (source[i] === ",") i++;
        else if (source[i] !== close) fail(`expected ',' or '${close}'`);
      }
    }
    const word = /^(?:-?\d+|True|False|None)\b/.exec(source.slice(i, i + 40));
    if (!word) return fail("not a literal");
    i += word[0].length;
    return word[0] === "True" ? true : word[0] === "False" ? false : word[0] === "None" ? null : Number(word[0]);
  };
  const out: Record<string, PyLiteral> = {};
  for (skip(true); i < source.length; skip(true)) {
    const name = /^[A-Za-z_]\w*/.exec(source.slice(i, i + 200));
    if (!name) fail("expected NAME = literal");
    i += name![0].length;
    skip(false);
    if (source[i] !== "=") fail("expected '='");
    i++;
    out[name![0]] = value();
  }
  return out;
}
