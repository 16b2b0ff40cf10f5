/**
 * Spider 2.0-Lite's SQL extraction: the last ```sql block (any case), else the last fenced block that starts with a
 * SQL verb, else raw text from the first SELECT/INSERT/UPDATE/DELETE/WITH to the last `;` (one `;` appended).
 */
import { pyCompile, pyFindall } from "../_python/re.ts";
import { pyRstrip, pyStrip } from "../_python/text.ts";

const SQL_BLOCK = pyCompile("```sql\\s*([\\s\\S]*?)\\s*```", { ignoreCase: true });
const ANY_BLOCK = pyCompile("```\\s*([\\s\\S]*?)\\s*```");
const STARTS_WITH_VERB = pyCompile("^\\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|ALTER|DROP)\\s", { ignoreCase: true });
const RAW_START = pyCompile("(?:SELECT|INSERT|UPDATE|DELETE|WITH)\\s", { ignoreCase: true });

/** The SQL of a model answer, or null when none is found. */
export function extractSql(text: string | null | undefined): string | null {
  if (!text) return null;
  const sqlBlocks = pyFindall(SQL_BLOCK, text) as string[];
  if (sqlBlocks.length > 0) return pyStrip(sqlBlocks.at(-1)!);
  const blocks = pyFindall(ANY_BLOCK, text) as string[];
  for (const block of blocks.reverse()) {
    const content = pyStrip(block);
    if (STARTS_WITH_VERB.match.test(content)) return content;
  }
  const start = RAW_START.search.exec(text);
  if (!start) return null;
  const lastSemicolon = text.lastIndexOf(";");
  const raw = lastSemicolon >= start.index ? pyStrip(text.slice(start.index, lastSemicolon + 1)) : pyStrip(text.slice(start.index));
  return `${pyRstrip(raw, ";")};`;
}
