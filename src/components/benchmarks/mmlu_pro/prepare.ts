/**
 * mmlu_pro: TIGER-Lab/MMLU-Pro's test split as NeMo Gym's benchmarks/mmlu_pro/prepare.py writes it: up to ten options
 * lettered A–J, `problem` (question + "X) option" lines) for the mcq-10choices prompt, the answer letter, the category,
 * uuid5 of (question, options); json.dumps with ASCII escapes.
 */
import { writePythonJsonl } from "../_math.ts";
import type { Row } from "../_hub-rows.ts";
import type { PrepareContext } from "../_prepare.ts";
import { seedUuid, splitRows } from "../_splits.ts";

export const HF_REPO_ID = "TIGER-Lab/MMLU-Pro";
const LETTERS = "ABCDEFGHIJ".split("");

/** Python's `str.strip("\n")`. */
const stripNewlines = (s: string) => s.replace(/^\n+|\n+$/g, "");

export function mmluProRow(example: Row): Row {
  const question = String(example.question);
  const choices = (example.options as unknown[]).slice(0, 10);
  const letters = LETTERS.slice(0, choices.length);
  const optionsText = letters.map((letter, i) => `${letter}) ${choices[i]}`).join("\n");
  return {
    question,
    options_text: optionsText,
    problem: `${stripNewlines(question)}\n\n${optionsText}`,
    options: letters.map((letter, i) => ({ [letter]: choices[i] })),
    expected_answer: example.answer,
    category: example.category,
    uuid: seedUuid({ question, options: example.options }, true),
  };
}

export async function prepare(context: PrepareContext): Promise<string> {
  const rows = (await splitRows(context, HF_REPO_ID, "test", ["question", "options", "answer", "category"])).map(mmluProRow);
  const count = writePythonJsonl(context.outputPath, rows, true);
  context.log(`Wrote ${count} problems to ${context.outputPath}`);
  return context.outputPath;
}
