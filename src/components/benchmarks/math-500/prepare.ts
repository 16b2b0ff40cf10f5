/** math-500: PRM800K's MATH test split as NeMo Gym's benchmarks/math-500/prepare.py writes it (UTF-8, answer → expected_answer). */
import { fetchText, jsonLines, writePythonJsonl } from "../_math.ts";
import type { PrepareContext } from "../_prepare.ts";

export const URL = "https://github.com/openai/prm800k/raw/main/prm800k/math_splits/test.jsonl";

/** One source row → NeMo Gym's row: every field kept, question/problem set, answer and solution renamed (moved last). */
export function math500Row(entry: Record<string, unknown>): Record<string, unknown> {
  const problem = entry.problem ?? entry.question;
  if (problem === undefined || problem === null) throw new Error("Expected `problem` or `question` in Math-500 row");
  const row: Record<string, unknown> = { ...entry };
  row.question = problem;
  row.problem = problem;
  const answer = row.answer;
  delete row.answer;
  row.expected_answer = answer;
  const solution = row.solution;
  delete row.solution;
  row.reference_solution = solution;
  return row;
}

export async function prepare(context: PrepareContext, url = URL): Promise<string> {
  context.log(`Downloading Math-500 from ${url}`);
  const rows = jsonLines(await fetchText(url, context)).map(math500Row);
  const count = writePythonJsonl(context.outputPath, rows, false);
  context.log(`Wrote ${count} problems to ${context.outputPath}`);
  return context.outputPath;
}
