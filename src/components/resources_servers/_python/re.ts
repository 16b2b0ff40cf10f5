/** Python `re` patterns on JavaScript RegExp: a translator that keeps Python's meaning of `.`, `$`, `\s`, `\w`, `\b`, inline flags and its errors. */
import type { Flags } from "./re-syntax.ts";
import { PyRegexUnsupported, reError, Translator } from "./re-translate.ts";

export { PyRegexUnsupported, reError } from "./re-translate.ts";

/** re module flags (re.IGNORECASE, re.MULTILINE, re.DOTALL, re.VERBOSE, re.ASCII). */
export interface PyReFlags {
  ignoreCase?: boolean;
  multiline?: boolean;
  dotAll?: boolean;
  verbose?: boolean;
  ascii?: boolean;
}

/** A compiled Python pattern: `search` has no state, `global` is for findall/finditer. */
export interface PyPattern {
  readonly pattern: string;
  /** Number of capturing groups, as Python counts them (findall's shape depends on it). */
  readonly groups: number;
  readonly search: RegExp;
  readonly global: RegExp;
  /** Anchored at the start (re.match) and at both ends (re.fullmatch). */
  readonly match: RegExp;
  readonly fullmatch: RegExp;
}

const cache = new Map<string, PyPattern>();

/** re.compile(pattern, flags): throws PyException("error") where Python raises re.error. Cached. */
export function pyCompile(pattern: string, flags: PyReFlags = {}): PyPattern {
  const key = `${flags.ignoreCase ? "i" : ""}${flags.multiline ? "m" : ""}${flags.dotAll ? "s" : ""}${flags.verbose ? "x" : ""}${flags.ascii ? "a" : ""}\u0000${pattern}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const f: Flags = {
    ignoreCase: !!flags.ignoreCase,
    multiline: !!flags.multiline,
    dotAll: !!flags.dotAll,
    verbose: !!flags.verbose,
    ascii: !!flags.ascii,
  };
  const t = new Translator(pattern);
  t.globalFlags(f);
  const root = t.parseAlternation(f);
  if (!t.atEnd()) throw reError("unbalanced parenthesis");
  const jsFlags = `v${f.ignoreCase ? "i" : ""}`;
  let compiled: PyPattern;
  try {
    compiled = {
      pattern,
      groups: t.groups,
      search: new RegExp(root.js, jsFlags),
      global: new RegExp(root.js, `g${jsFlags}`),
      match: new RegExp(`^(?:${root.js})`, jsFlags),
      fullmatch: new RegExp(`^(?:${root.js})(?![\\s\\S])`, jsFlags),
    };
  } catch (error) {
    throw new PyRegexUnsupported(`cannot translate ${JSON.stringify(pattern)}: ${(error as Error).message}`);
  }
  if (cache.size > 10_000) cache.clear();
  cache.set(key, compiled);
  return compiled;
}

/** re.finditer: non-overlapping matches, an empty match advances one character. */
export function* pyFinditer(p: PyPattern, text: string): Generator<RegExpExecArray> {
  const re = p.global;
  let pos = 0;
  while (pos <= text.length) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m) return;
    yield m;
    const end = m.index + m[0].length;
    if (m[0].length > 0) pos = end;
    else {
      const cp = text.codePointAt(end);
      pos = end + (cp !== undefined && cp > 0xffff ? 2 : 1);
    }
  }
}

/** re.findall: whole match (no groups), the group's text (one group), or tuples (two or more). */
export function pyFindall(p: PyPattern, text: string): (string | string[])[] {
  const out: (string | string[])[] = [];
  for (const m of pyFinditer(p, text)) {
    if (p.groups === 0) out.push(m[0]);
    else if (p.groups === 1) out.push(m[1] ?? "");
    else out.push(Array.from({ length: p.groups }, (_, i) => m[i + 1] ?? ""));
  }
  return out;
}
