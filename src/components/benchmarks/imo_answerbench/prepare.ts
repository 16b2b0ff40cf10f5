/**
 * imo_answerbench: google-deepmind/superhuman's `imobench/answerbench_v2.csv` at the commit NeMo Gym's prepare.py
 * pins (a GitHub raw file through the download cache), one row per problem as it writes them: `problem_id`,
 * `question`, `expected_answer`, `category`, `subcategory`, `source`; json.dumps with UTF-8 kept.
 * `+prepare_script_args={source_url: …}` reads another copy.
 */
import { GymError } from "../../../errors.ts";
import { fetchText, writePythonJsonl } from "../_math.ts";
import type { PrepareContext } from "../_prepare.ts";
import { pyCsvDictRows } from "../../resources_servers/_nlp/csv.ts";

export const SOURCE_URL = "https://raw.githubusercontent.com/google-deepmind/superhuman/326a740a6877d5ec098035c534d2fbd931fe83ee/imobench/answerbench_v2.csv";

const COLUMNS = ["Problem ID", "Problem", "Short Answer", "Category", "Subcategory", "Source"];

/** One CSV record as prepare.py maps it. */
export function answerbenchRow(record: Record<string, unknown>): Record<string, unknown> {
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
  const records = pyCsvDictRows(await fetchText(url, context));
  const missing = COLUMNS.filter((name) => records.length > 0 && !(name in records[0]!));
  if (missing.length) throw new GymError("E_INPUT_SCHEMA", `${url}: the CSV has no column ${missing.map((m) => JSON.stringify(m)).join(", ")} (prepare.py reads ${COLUMNS.join(", ")}).`, { hint: "Point +prepare_script_args.source_url at answerbench_v2.csv of google-deepmind/superhuman." });
  const rows = records.map(answerbenchRow);
  const count = writePythonJsonl(context.outputPath, rows, false);
  context.log(`Wrote ${count} problems to ${context.outputPath}`);
  return context.outputPath;
}
