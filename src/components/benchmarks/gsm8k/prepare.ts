/** gsm8k: OpenAI's grade-school-math test split with NeMo Gym's transforms (benchmarks/gsm8k/prepare.py). */
import { fetchText, jsonLines, writePythonJsonl } from "../_math.ts";
import type { PrepareContext } from "../_prepare.ts";
import { FIXES } from "./fixes.ts";

export const URL = "https://raw.githubusercontent.com/openai/grade-school-math/master/grade_school_math/data/test.jsonl";

/** Python's float(text): surrounding whitespace allowed, nothing else. */
function pyFloatOf(text: string): number {
  const t = text.trim();
  if (!/^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/.test(t)) throw new Error(`could not convert string to float: '${text}'`);
  return Number(t);
}

/** question, expected_answer (an int when whole, else a float; FIXES override), reference_solution without <<…>>. */
export function gsm8kRow(entry: Record<string, unknown>): Record<string, unknown> {
  const parts = String(entry.answer).split("####");
  if (parts.length !== 2) throw new Error(`expected one '####' in a GSM8K answer, found ${parts.length - 1}`);
  const [solution, answer] = parts as [string, string];
  const question = entry.question as string;
  let expected: number | string = pyFloatOf(answer.replaceAll(",", ""));
  const row: Record<string, unknown> = { question, expected_answer: expected, reference_solution: solution.replace(/<<[^\n]*?>>/g, "") };
  if (Object.hasOwn(FIXES, question)) expected = FIXES[question]!;
  row.expected_answer = expected;
  return row;
}

export async function prepare(context: PrepareContext, url = URL): Promise<string> {
  const rows = jsonLines(await fetchText(url, context)).map(gsm8kRow);
  const count = writePythonJsonl(context.outputPath, rows);
  context.log(`Wrote ${count} problems to ${context.outputPath}`);
  return context.outputPath;
}
