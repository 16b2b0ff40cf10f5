/**
 * ugphysics: UGPhysics/ugphysics's English split of its 13 subject configs, as NeMo Gym's
 * benchmarks/ugphysics/prepare.py writes them: `index`, `question` (problem), `expected_answer` (answers),
 * `solution`, `answer_type`, `subject`, `language` (lower-cased), `is_multiple_answer`, and the prompt's
 * `prompt_sentence` / `boxed_answer_example`.
 */
import { writePythonJsonl } from "../_math.ts";
import { hubRows, requireColumns } from "../_hub-rows.ts";
import type { PrepareContext } from "../_prepare.ts";

export const HF_REPO_ID = "UGPhysics/ugphysics";
export const SUBSETS = [
  "AtomicPhysics", "ClassicalElectromagnetism", "ClassicalMechanics", "Electrodynamics", "GeometricalOptics", "QuantumMechanics", "Relativity",
  "SemiconductorPhysics", "Solid-StatePhysics", "StatisticalMechanics", "TheoreticalMechanics", "Thermodynamics", "WaveOptics",
];
const COLUMNS = ["index", "problem", "answers", "solution", "answer_type", "subject", "language", "is_multiple_answer"];

const ANSWER_TYPES: Record<string, string> = {
  IN: "a range interval",
  TF: "either True or False",
  EX: "an expression",
  EQ: "an equation",
  MC: "one option of a multiple choice question",
  NV: "a numerical value without units",
  TUP: "multiple numbers, separated by comma, such as (x, y, z)",
};

/** `get_prompt_sentence`: the expected answer format in words. */
export function promptSentence(answerType: string, multiple: boolean): string {
  const descriptions = answerType.split(",").map((t) => ANSWER_TYPES[t.trim()] ?? t.trim());
  if (!multiple) return `The answer of the problem should be ${descriptions[0]}.`;
  if (new Set(descriptions).size === 1) return `The problem has multiple answers, each of them should be ${descriptions[0]}.`;
  return `The problem has multiple answers, with the answers in order being ${descriptions.join(", ")}.`;
}

export const boxedAnswerExample = (multiple: boolean) => (multiple ? String.raw`\boxed{multiple answers connected with commas}` : String.raw`\boxed{answer}(unit)`);

export function ugphysicsRow(entry: Record<string, unknown>): Record<string, unknown> {
  const multiple = entry.is_multiple_answer as boolean;
  const answerType = entry.answer_type as string;
  return {
    index: entry.index,
    question: entry.problem,
    expected_answer: entry.answers,
    solution: entry.solution,
    answer_type: answerType,
    subject: entry.subject,
    language: String(entry.language).toLowerCase(),
    is_multiple_answer: multiple,
    prompt_sentence: promptSentence(answerType, Boolean(multiple)),
    boxed_answer_example: boxedAnswerExample(Boolean(multiple)),
  };
}

export async function prepare(context: PrepareContext): Promise<string> {
  const rows: Record<string, unknown>[] = [];
  for (const subset of SUBSETS) {
    // `load_dataset(repo, subset, split="en")`: the Hub's Parquet conversion of that config's split.
    const file = { repoId: HF_REPO_ID, path: `${subset}/en/0000.parquet`, revision: "refs/convert/parquet" };
    const entries = await hubRows(context, file);
    requireColumns(entries, COLUMNS, file);
    rows.push(...entries.map(ugphysicsRow));
  }
  const count = writePythonJsonl(context.outputPath, rows, false);
  context.log(`Wrote ${count} problems to ${context.outputPath}`);
  return context.outputPath;
}
