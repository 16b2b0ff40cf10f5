/**
 * How deep a JSON text nests. Python's json (so NeMo Gym) stops with RecursionError at about 1000 levels of
 * arrays and objects inside each other; the JS engines overflow their stack somewhat later, in whatever walks
 * the value next. Readers refuse such a line up front, by file and line, with `tooDeep`.
 */
import { GymError } from "../errors.ts";

/** NeMo Gym's limit: Python's default recursion limit. */
export const MAX_JSON_DEPTH = 1000;

/** The 1-based column where `text` first nests deeper than `limit`, or 0 when it does not. */
export function depthExceeded(text: string, limit = MAX_JSON_DEPTH): number {
  // Each level costs at least one character: a short line cannot be that deep.
  if (text.length <= limit) return 0;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // Skip a string, escapes included.
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
    } else if (c === 91 || c === 123) {
      if (++depth > limit) return i + 1;
    } else if (c === 93 || c === 125) depth--;
  }
  return 0;
}

/** Throws when a line nests deeper than NeMo Gym can read. */
export function refuseTooDeep(text: string, where: string): void {
  const column = depthExceeded(text);
  if (column === 0) return;
  throw tooDeepError(`${where}:${column}`);
}

/** The error of a value nested too deeply (`where`: file:line[:column], or what was being read). */
export function tooDeepError(where: string): GymError {
  return new GymError("E_INPUT_JSON", `${where}: the JSON nests more than ${MAX_JSON_DEPTH} levels deep (arrays or objects inside each other); NeMo Gym's Python json cannot read it either (RecursionError).`, {
    hint: "Flatten that value, or drop the row; nothing was written.",
  });
}

/** Whether an error is the JS engine's stack overflow (a value walked recursively that nests too deeply). */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}
