/**
 * hotpotqa_closedbook: hotpotqa/hotpot_qa's distractor validation split (Parquet on the Hub) as NeMo Gym's prepare.py
 * writes it: `id`, `question`, `expected_answer` (answer), `type`, `level`; no context, UTF-8 kept.
 */
import { hubRows, requireColumns } from "../_hub-rows.ts";
import { writePythonJsonl } from "../_math.ts";
import type { PrepareContext } from "../_prepare.ts";

export const HF_REPO_ID = "hotpotqa/hotpot_qa";

export function closedBookRow(entry: Record<string, unknown>): Record<string, unknown> {
  return { id: entry.id, question: entry.question, expected_answer: entry.answer, type: entry.type, level: entry.level };
}

export async function prepare(context: PrepareContext): Promise<string> {
  const file = { repoId: HF_REPO_ID, path: "distractor/validation/0000.parquet", revision: "refs/convert/parquet" };
  const entries = await hubRows(context, file, { columns: ["id", "question", "answer", "type", "level"] });
  requireColumns(entries, ["id", "question", "answer", "type", "level"], file);
  const count = writePythonJsonl(context.outputPath, entries.map(closedBookRow), false);
  context.log(`Wrote ${count} examples to ${context.outputPath}`);
  return context.outputPath;
}
