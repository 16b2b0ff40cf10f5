/** Python `re` calls the checkers make, on the shared translator (Python's `.`, `$`, `\s`, `\w`, `\b` semantics). */
import { pyCompile, pyFindall, pyFinditer, type PyReFlags } from "../_python/re.ts";

/** len(re.findall(pattern, text, flags)). */
export function countMatches(pattern: string, text: string, flags: PyReFlags = {}): number {
  let n = 0;
  for (const _ of pyFinditer(pyCompile(pattern, flags), text)) n++;
  return n;
}

/** re.findall(pattern, text, flags) for a pattern with no groups: the matched strings. */
export function findAll(pattern: string, text: string, flags: PyReFlags = {}): string[] {
  return pyFindall(pyCompile(pattern, flags), text) as string[];
}

/** bool(re.search(pattern, text, flags)). */
export function searches(pattern: string, text: string, flags: PyReFlags = {}): boolean {
  return pyCompile(pattern, flags).search.test(text);
}

/** re.split(pattern, text) for a pattern without groups. */
export function splitOn(pattern: string, text: string, flags: PyReFlags = {}): string[] {
  const out: string[] = [];
  let last = 0;
  for (const m of pyFinditer(pyCompile(pattern, flags), text)) {
    out.push(text.slice(last, m.index));
    last = m.index + m[0].length;
  }
  out.push(text.slice(last));
  return out;
}

/** re.sub(pattern, repl, text) with a literal replacement string. */
export function substitute(pattern: string, replacement: string, text: string, flags: PyReFlags = {}): string {
  let out = "";
  let last = 0;
  for (const m of pyFinditer(pyCompile(pattern, flags), text)) {
    out += text.slice(last, m.index) + replacement;
    last = m.index + m[0].length;
  }
  return out + text.slice(last);
}
