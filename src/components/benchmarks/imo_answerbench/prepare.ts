/**
 * imo_answerbench: google-deepmind/superhuman's `imobench/answerbench_v2.csv` at the commit NeMo Gym's prepare.py
 * pins (a GitHub raw file through the download cache), one row per problem as it writes them: `problem_id`,
 * `question`, `expected_answer`, `category`, `subcategory`, `source`; json.dumps with UTF-8 kept.
 * `+prepare_script_args={source_url: …}` reads another copy.
 */
import { fetchText, writePythonJsonl } from "../_math.ts";
import type { PrepareContext } from "../_prepare.ts";
import { parseCsv } from "../gpqa/csv.ts";

export const SOURCE_URL = "https://raw.githubusercontent.com/google-deepmind/superhuman/326a740a6877d5ec098035c534d2fbd931fe83ee/imobench/answerbench_v2.csv";

/** One CSV record as prepare.py maps it. */
export function answerbenchRow(record: Record<string, string>): Record<string, unknown> {
  return {
    problem_id: record["Problem ID"],
    question: record.Problem,
    expected_answer: record["Short Answer"],
    category: record.Category,
    subcategory: record.Subcategory,
    source: record.Source,
  };
}

export async function prepare(context: PrepareContext): Promise<string> {
  const url = String(context.args.source_url ?? SOURCE_URL);
  context.log(`Downloading IMO AnswerBench from ${url} ...`);
  const rows = parseCsv(await fetchText(url, context)).map(answerbenchRow);
  const count = writePythonJsonl(context.outputPath, rows, false);
  context.log(`Wrote ${count} problems to ${context.outputPath}`);
  return context.outputPath;
}
