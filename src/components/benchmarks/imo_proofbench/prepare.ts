/**
 * imo_proofbench: google-deepmind/superhuman's `imobench/proofbench.csv` at the commit NeMo Gym's (and NeMo Skills')
 * prepare pins (a GitHub raw file through the download cache), one row per problem as it writes them: `problem_id`,
 * `problem`, `reference_solution`, `rubric`, `category`, `level`, `expected_answer`, `source`; UTF-8 kept.
 * `+prepare_script_args={source_url: …}` reads another copy.
 */
import { GymError } from "../../../errors.ts";
import { fetchText, writePythonJsonl } from "../_math.ts";
import type { PrepareContext } from "../_prepare.ts";
import { csvRecords } from "../../resources_servers/_nlp/csv.ts";

export const SOURCE_URL = "https://raw.githubusercontent.com/google-deepmind/superhuman/c1ee02e03d4cdb2ab21cd01ac927d895f5287fc8/imobench/proofbench.csv";
const COLUMNS: [string, string][] = [
  ["problem_id", "Problem ID"],
  ["problem", "Problem"],
  ["reference_solution", "Solution"],
  ["rubric", "Grading guidelines"],
  ["category", "Category"],
  ["level", "Level"],
  ["expected_answer", "Short Answer"],
  ["source", "Source"],
];

/** One CSV record as prepare.py maps it; a missing column is its KeyError, said with the row and column. */
export function proofbenchRow(record: Record<string, string>, index: number, url: string): Record<string, unknown> {
  return Object.fromEntries(
    COLUMNS.map(([key, column]) => {
      if (!(column in record)) throw new GymError("E_INPUT_SCHEMA", `${url} row ${index + 1} has no column '${column}'.`, { hint: "Check source_url: the file must be IMO-ProofBench's proofbench.csv." });
      return [key, record[column]];
    }),
  );
}

export async function prepare(context: PrepareContext): Promise<string> {
  const url = String(context.args.source_url ?? SOURCE_URL);
  context.log(`Downloading IMO ProofBench from ${url} ...`);
  const rows = csvRecords(await fetchText(url, context)).map((record, i) => proofbenchRow(record, i, url));
  const count = writePythonJsonl(context.outputPath, rows, false);
  context.log(`Wrote ${count} problems to ${context.outputPath}`);
  return context.outputPath;
}
