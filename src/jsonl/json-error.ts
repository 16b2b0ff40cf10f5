/** Finds where a JSON text goes wrong, since runtimes disagree on (or omit) positions in JSON.parse errors. */

export interface JsonProblem {
  /** 1-based column (in UTF-16 code units) where the text stops being JSON. */
  column: number;
  message: string;
}

/** Scans `text` as one JSON value and describes the first problem; undefined if it is valid JSON. */
export function locateJsonError(text: string): JsonProblem | undefined {
  let i = 0;
  const n = text.length;
  const fail = (message: string): never => {
    throw { column: i + 1, message } satisfies JsonProblem;
  };
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`unexpected ${describe(text, i)}`);
  };
  const string = () => {
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return;
      }
      if (c === 92) {
        const e = text[i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail("bad \\u escape in string");
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else fail("bad escape in string");
      } else if (c < 32) fail("control character in string (escape it as \\n, \\t, …)");
      else i++;
    }
    fail("unterminated string");
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0].length === 0) fail(`unexpected ${describe(text, i)}`);
    i += m![0].length;
  };
  const value = (depth: number): void => {
    if (depth > 10_000) fail("nesting too deep");
    ws();
    if (i >= n) fail("unexpected end of line (the row is cut short)");
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(i >= n ? "unexpected end of line (the row is cut short)" : `expected a quoted key, found ${describe(text, i)}`);
        string();
        ws();
        if (text[i] !== ":") fail(i >= n ? "unexpected end of line (the row is cut short)" : `expected ':' after key, found ${describe(text, i)}`);
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "}") {
          i++;
          return;
        } else fail(i >= n ? "unexpected end of line (the row is cut short)" : `expected ',' or '}', found ${describe(text, i)}`);
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "]") {
          i++;
          return;
        } else fail(i >= n ? "unexpected end of line (the row is cut short)" : `expected ',' or ']', found ${describe(text, i)}`);
      }
    }
    if (c === '"') return string();
    if (c === "t") return literal("true");
    if (c === "f") return literal("false");
    if (c === "n") return literal("null");
    return number();
  };
  try {
    value(0);
    ws();
    if (i < n) fail(`unexpected ${describe(text, i)} after the JSON value`);
    return undefined;
  } catch (problem) {
    if (typeof problem === "object" && problem !== null && "column" in problem) return problem as JsonProblem;
    throw problem;
  }
}

function describe(text: string, i: number): string {
  if (i >= text.length) return "end of line";
  const snippet = text.slice(i, i + 12);
  return `'${snippet}${text.length > i + 12 ? "…" : ""}'`;
}
