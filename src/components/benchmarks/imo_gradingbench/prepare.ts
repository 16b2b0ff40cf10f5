/**
 * imo_gradingbench: google-deepmind/superhuman's `imobench/gradingbench.csv` at the commit NeMo Gym's prepare.py pins
 * (a GitHub raw file through the download cache), one row per grading as it writes them: `grading_id`, `problem_id`,
 * `problem_statement`, `reference_solution`, `rubric`, `proof`, `points`, `reward`, `source` and `expected_answer`
 * (the gold grade word); json.dumps with ASCII escapes. `+prepare_script_args={source_url: …}` reads another copy.
 */
import { fetchText, writePythonJsonl } from "../_math.ts";
import type { PrepareContext } from "../_prepare.ts";
import { csvRecords } from "../../resources_servers/_nlp/csv.ts";

export const SOURCE_URL = "https://raw.githubusercontent.com/google-deepmind/superhuman/c1ee02e03d4cdb2ab21cd01ac927d895f5287fc8/imobench/gradingbench.csv";

/** One CSV record as prepare.py maps it. */
export function gradingRow(record: Record<string, string>): Record<string, unknown> {
  return {
    grading_id: record["Grading ID"],
    problem_id: record["Problem ID"],
    problem_statement: record.Problem,
    reference_solution: record.Solution,
    rubric: record["Grading guidelines"],
    proof: record.Response,
    points: record.Points,
    reward: record.Reward,
    source: record["Problem Source"],
    expected_answer: record.Reward,
  };
}

export async function prepare(context: PrepareContext): Promise<string> {
  const url = String(context.args.source_url ?? SOURCE_URL);
  context.log(`Downloading IMO-GradingBench CSV from ${url}...`);
  const rows = csvRecords(await fetchText(url, context)).map(gradingRow);
  const count = writePythonJsonl(context.outputPath, rows, true);
  context.log(`Wrote ${count} rows to ${context.outputPath}`);
  return context.outputPath;
}
