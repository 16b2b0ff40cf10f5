/**
 * What Python's sqlite3 `cursor.execute(sql)` does before SQLite runs anything, and which statements we run at all:
 * one statement only (a second one is "You can only execute one statement at a time."), an empty or
 * comment-only text gives no rows, and only read queries (SELECT, WITH, VALUES) reach the database.
 */

/** SQLite's whitespace (tokenize.c): space, tab, newline, form feed, carriage return. */
const isSpace = (c: string | undefined) => c === " " || c === "\t" || c === "\n" || c === "\f" || c === "\r";

/** Index past the whitespace and comments at `i` (an unterminated block comment runs to the end, as in SQLite). */
function skipBlank(sql: string, i: number): number {
  for (;;) {
    if (isSpace(sql[i])) i++;
    else if (sql.startsWith("--", i)) {
      const nl = sql.indexOf("\n", i);
      i = nl < 0 ? sql.length : nl + 1;
    } else if (sql.startsWith("/*", i)) {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else return i;
  }
}

/** Index of the `;` that ends the first statement (outside literals, quoted names and comments), or the length. */
function firstStatementEnd(sql: string): number {
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === "`") {
      i++;
      for (;;) {
        const close = sql.indexOf(c, i);
        if (close < 0) return sql.length;
        i = close + 1;
        if (sql[i] !== c) break;
        i++; // a doubled quote is the quote itself
      }
    } else if (c === "[") {
      const close = sql.indexOf("]", i + 1);
      i = close < 0 ? sql.length : close + 1;
    } else if (c === "-" && sql[i + 1] === "-") {
      const nl = sql.indexOf("\n", i);
      i = nl < 0 ? sql.length : nl + 1;
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else if (c === ";") return i;
    else i++;
  }
  return sql.length;
}

export type StatementCheck = { kind: "empty" } | { kind: "query" } | { kind: "error"; message: string } | { kind: "refused"; message: string };

const READ_KEYWORDS = new Set(["SELECT", "WITH", "VALUES"]);

/** Classifies `sql` the way the runner needs: run it, answer no rows, or fail (as Python would, or by our refusal). */
export function checkStatement(sql: string): StatementCheck {
  const start = skipBlank(sql, 0);
  if (start >= sql.length) return { kind: "empty" };
  const end = firstStatementEnd(sql);
  if (end < sql.length && skipBlank(sql, end + 1) < sql.length) return { kind: "error", message: "You can only execute one statement at a time." };
  // `;` alone: SQLite prepares no statement, Python returns no rows.
  if (end === start) return { kind: "empty" };
  const keyword = /^[A-Za-z_]+/.exec(sql.slice(start, start + 16))?.[0]?.toUpperCase() ?? sql.slice(start, start + 1);
  if (!READ_KEYWORDS.has(keyword)) return { kind: "refused", message: `only read queries (SELECT, WITH, VALUES) are run; this statement starts with ${keyword}` };
  return { kind: "query" };
}
