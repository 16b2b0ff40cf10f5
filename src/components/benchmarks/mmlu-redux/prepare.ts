/**
 * mmlu-redux: edinburgh-dawg/mmlu-redux-2.0, one config per MMLU subject (test split), as NeMo Gym's
 * benchmarks/mmlu-redux/prepare.py writes it: rows whose error_type is "ok" keep their answer, "wrong_groundtruth"
 * rows take the corrected letter, every other row is dropped; uuid5 of (subject, question, answer). `prepare_script_args`:
 * subjects (default all 57, in NeMo Gym's order).
 */
import { GymError } from "../../../errors.ts";
import { pyStrip } from "../../resources_servers/_python/text.ts";
import { pyStr, writePythonJsonl } from "../_math.ts";
import type { Row } from "../_hub-rows.ts";
import { LETTERS, SUBCATEGORIES } from "../_mmlu-subjects.ts";
import type { PrepareContext } from "../_prepare.ts";
import { argList, seedUuid, splitRows } from "../_splits.ts";

export const HF_REPO_ID = "edinburgh-dawg/mmlu-redux-2.0";

function expectedAnswer(entry: Row): string | null {
  if (entry.error_type === "ok") return String.fromCharCode(65 + Math.trunc(Number(entry.answer)));
  if (entry.error_type === "wrong_groundtruth" && LETTERS.includes(entry.correct_answer as string)) return entry.correct_answer as string;
  return null;
}

export function mmluReduxRow(entry: Row, subject: string): Row | null {
  const answer = expectedAnswer(entry);
  if (answer === null) return null;
  const choices = (entry.choices as unknown[]).map(pyStr);
  if (choices.length !== 4) throw new GymError("E_INPUT_SCHEMA", `${HF_REPO_ID} (${subject}): expected 4 choices, found ${choices.length}.`, { hint: "Check the dataset revision." });
  const question = pyStrip(String(entry.question));
  return {
    question,
    problem: `${question}\n\n${choices.map((c, i) => `${LETTERS[i]}) ${c}`).join("\n")}`,
    options: choices.map((c, i) => ({ [LETTERS[i]!]: c })),
    expected_answer: answer,
    subset_for_metrics: SUBCATEGORIES[subject],
    subcategory: subject,
    source: entry.source,
    uuid: seedUuid({ subject, question, answer }, false),
  };
}

export async function prepare(context: PrepareContext): Promise<string> {
  const subjects = argList(context.args.subjects, Object.keys(SUBCATEGORIES));
  const unknown = subjects.filter((s) => !Object.hasOwn(SUBCATEGORIES, s));
  if (unknown.length) throw new GymError("E_USAGE", `Unknown MMLU subject(s): ${unknown.join(", ")}.`, { hint: `Subjects: ${Object.keys(SUBCATEGORIES).join(", ")}.` });
  const rows: Row[] = [];
  for (const subject of subjects) {
    for (const entry of await splitRows(context, HF_REPO_ID, "test", ["question", "choices", "answer", "error_type", "correct_answer", "source"], subject)) {
      const row = mmluReduxRow(entry, subject);
      if (row) rows.push(row);
    }
  }
  const count = writePythonJsonl(context.outputPath, rows, false);
  context.log(`Wrote ${count} problems to ${context.outputPath}`);
  return context.outputPath;
}
