/** hendrycks_math: Qwen2.5-Math's copy of the MATH test split, renamed as NeMo Gym's benchmarks/hendrycks_math/prepare.py does. */
import { fetchText, jsonLines, writePythonJsonl } from "../_math.ts";
import type { PrepareContext } from "../_prepare.ts";

export const URL = "https://raw.githubusercontent.com/QwenLM/Qwen2.5-Math/refs/heads/main/evaluation/data/math/test.jsonl";

/** answer → expected_answer, question → problem when missing, then problem → question (each moved last, as dict.pop + set does). */
export function hendrycksRow(entry: Record<string, unknown>): Record<string, unknown> {
  const row: Record<string, unknown> = { ...entry };
  const move = (from: string, to: string) => {
    const v = row[from];
    delete row[from];
    row[to] = v;
  };
  if ("answer" in row) move("answer", "expected_answer");
  if (!("problem" in row)) move("question", "problem");
  move("problem", "question");
  return row;
}

export async function prepare(context: PrepareContext, url = URL): Promise<string> {
  const rows = jsonLines(await fetchText(url, context)).map(hendrycksRow);
  const count = writePythonJsonl(context.outputPath, rows);
  context.log(`Wrote ${count} problems to ${context.outputPath}`);
  return context.outputPath;
}
