/** GPQA Diamond: downloads the gated CSV from Hugging Face and writes four-option rows for the mcqa server. */
import type { PrepareContext } from "../_prepare.ts";
import { csvRecords } from "../../resources_servers/_nlp/csv.ts";

const LETTERS = ["A", "B", "C", "D"];
export const GPQA_REPO = "Idavidrein/gpqa";
export const GPQA_FILE = "gpqa_diamond.csv";

/** A stable 32-bit FNV-1a hash: seeds each question's option order and names its task id. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) h = Math.imul(h ^ byte, 0x01000193) >>> 0;
  return h >>> 0;
}

/**
 * One CSV record → one row. Options are shuffled with a generator seeded by the question text, so the
 * order is stable across runs (it is not NeMo Gym's order, which comes from Python's Mersenne Twister).
 */
export function gpqaRow(record: Record<string, string>): Record<string, unknown> {
  const question = record.Question!.trim();
  const correct = record["Correct Answer"]!.trim();
  const choices = [correct, record["Incorrect Answer 1"]!.trim(), record["Incorrect Answer 2"]!.trim(), record["Incorrect Answer 3"]!.trim()];
  let state = fnv1a(question);
  for (let i = choices.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const j = state % (i + 1);
    [choices[i], choices[j]] = [choices[j]!, choices[i]!];
  }
  const optionsText = choices.map((c, i) => `${LETTERS[i]}: ${c}`).join("\n");
  return {
    task_id: record["Record ID"]?.trim() || `gpqa-${fnv1a(question).toString(16).padStart(8, "0")}`,
    question,
    options_text: optionsText,
    problem: `${question}\n${optionsText}`,
    options: choices.map((c, i) => ({ [LETTERS[i]!]: c })),
    expected_answer: LETTERS[choices.indexOf(correct)],
  };
}

export async function prepare(context: PrepareContext): Promise<string> {
  context.log(`Downloading ${GPQA_FILE} from ${GPQA_REPO} (gated: needs HF_TOKEN)...`);
  const text = await context.download(GPQA_REPO, GPQA_FILE, { repoType: "datasets", revision: String(context.args.revision ?? "main") });
  const rows = csvRecords(text).filter((r) => r.Question).map(gpqaRow);
  if (rows.length === 0) throw new Error(`${GPQA_FILE} has no rows with a Question column`);
  await context.writeRows(context.outputPath, rows);
  context.log(`Wrote ${rows.length} GPQA Diamond problems to ${context.outputPath}`);
  return context.outputPath;
}
