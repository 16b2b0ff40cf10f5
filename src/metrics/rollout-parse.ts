/** Fast Python-typed parse of a rollout row: only the fields statistics read (top level, response.usage) keep int/float apart. */
import { PyFloat } from "./pyjson.ts";

type Row = Record<string, unknown>;

/** Skips a JSON string starting at the quote at `i`; returns the index after its closing quote. */
function skipString(text: string, i: number): number {
  for (let j = i + 1; ; ) {
    const q = text.indexOf('"', j);
    if (q === -1) return text.length;
    let back = 0;
    for (let k = q - 1; text.charCodeAt(k) === 92; k--) back++;
    if (back % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/**
 * Reports the number tokens of the direct members of the object whose `{` is at `start`; `child(key)`
 * may visit a nested object too. Returns the index after the object.
 */
interface Visitor {
  number(key: string, token: string): void;
  child?(key: string): Visitor | undefined;
}

function memberTokens(text: string, start: number, visitor: Visitor): number {
  let i = start + 1;
  let key: string | null = null;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const end = skipString(text, i);
      if (key === null) key = JSON.parse(text.slice(i, end)) as string;
      else key = null; // a string value
      i = end;
    } else if (c === 125) return i + 1; // }
    else if (c === 44) (key = null), i++; // ,
    else if (c === 123 || c === 91) {
      const inner = c === 123 && key !== null ? visitor.child?.(key) : undefined;
      i = inner ? memberTokens(text, i, inner) : skipValue(text, i);
      key = null;
    } else if ((c >= 48 && c <= 57) || c === 45) {
      let j = i + 1;
      while (j < text.length && /[0-9eE.+-]/.test(text[j]!)) j++;
      if (key !== null) visitor.number(key, text.slice(i, j));
      key = null;
      i = j;
    } else i++;
  }
  return i;
}

/** Skips an object or array starting at `i` (brackets counted outside strings). */
function skipValue(text: string, i: number): number {
  let depth = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = skipString(text, i);
      continue;
    }
    if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return i;
}

const WHOLE_FLOAT = /[.eE]/;

/**
 * JSON.parse of one rollout line, then whole-valued floats (`1.0`) among the top-level fields and
 * `response.usage` turned into PyFloat — all that NeMo Gym's statistics look at — at a fraction of
 * the cost of a full Python-typed parse. Nested values keep plain JS numbers.
 */
export function parseRolloutLine(text: string): Row {
  const row = JSON.parse(text) as Row;
  const start = text.indexOf("{");
  const fix = (target: Row | undefined) => (key: string, token: string) => {
    if (target && WHOLE_FLOAT.test(token) && typeof target[key] === "number" && Number.isInteger(target[key])) target[key] = new PyFloat(target[key] as number);
  };
  if (!/[0-9][.eE]/.test(text)) return row;
  const usage = (row.response as Row | undefined)?.usage as Row | undefined;
  const noop = () => {};
  memberTokens(text, start, {
    number: fix(row),
    child: (key) => (key === "response" ? { number: noop, child: (k) => (k === "usage" ? { number: fix(usage) } : undefined) } : undefined),
  });
  return row;
}
