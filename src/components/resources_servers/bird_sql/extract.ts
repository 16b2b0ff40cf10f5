/**
 * BIRD's SQL extraction (NeMo Gym's CODEBLOCK mode): the last ```sql block that holds a letter, comments cut (a
 * `--` comment eats to the end of the text: `$` without MULTILINE), whitespace collapsed, a leading **bold**
 * header dropped. No block gives the filler `SELECT 1`.
 */
import { pyCompile, pyFindall, pyFinditer } from "../_python/re.ts";
import { pyStrip } from "../_python/text.ts";

const NO_ANSWER_FILLER = "SELECT 1";
const CODEBLOCK = pyCompile("(?:```sql)(.*?[a-zA-Z].*?)(?:```)", { dotAll: true });
const COMMENT = pyCompile("--.*?$|/\\*.*?\\*/", { dotAll: true });
const SPACES = pyCompile("\\s+");
const BOLD_HEADER = pyCompile("^\\*\\*.*\\*\\*");

/** re.sub(pattern, replacement, text) with a literal replacement. */
function pySub(pattern: ReturnType<typeof pyCompile>, replacement: string, text: string, count = 0): string {
  let out = "";
  let last = 0;
  let n = 0;
  for (const m of pyFinditer(pattern, text)) {
    out += text.slice(last, m.index) + replacement;
    last = m.index + m[0].length;
    if (++n === count) break;
  }
  return out + text.slice(last);
}

/** True when the text has a ```sql … ``` block with at least one letter. */
export function hasSqlCodeblock(text: string | null | undefined): boolean {
  return !!text && CODEBLOCK.search.test(text);
}

/** The SQL to run for a model answer: the cleaned last block, "" when cleaning left nothing, else `SELECT 1`. */
export function extractSql(text: string | null | undefined): string {
  if (!text) return NO_ANSWER_FILLER;
  const blocks = pyFindall(CODEBLOCK, text) as string[];
  if (blocks.length === 0) return NO_ANSWER_FILLER;
  let sql = blocks.at(-1)!;
  sql = pySub(COMMENT, "", sql);
  sql = pySub(SPACES, " ", sql);
  return pyStrip(pySub(BOLD_HEADER, "", sql));
}
