/**
 * physics: desimfj/PHYSICS's test split, English rows only, as NeMo Gym's benchmarks/physics/prepare.py writes them:
 * `question`, `expected_answer` (every answer of the list of lists, an outer `\boxed{…}` stripped, comma-joined
 * into one `\boxed{…}`), `domain`, `difficulty`, `answer_type`, `language`, `solution`.
 */
import { writePythonJsonl, hubSplitFile } from "../_math.ts";
import { hubRows, requireColumns } from "../_hub-rows.ts";
import type { PrepareContext } from "../_prepare.ts";

export const HF_REPO_ID = "desimfj/PHYSICS";
const COLUMNS = ["question", "answer", "domain", "difficulty", "answer_type", "language", "solution"];

const stripBoxed = (s: string) => (s.startsWith("\\boxed{") && s.endsWith("}") ? s.slice(7, -1) : s);

/** `_process_answer`: the flattened answers, re-wrapped in one `\boxed{…}`. */
export function processAnswer(answer: unknown): string {
  const all = (answer as unknown[][]).flatMap((sub) => (sub as string[]).map(stripBoxed));
  return `\\boxed{${all.join(", ")}}`;
}

export function physicsRow(entry: Record<string, unknown>): Record<string, unknown> {
  return {
    question: entry.question,
    expected_answer: processAnswer(entry.answer),
    domain: entry.domain,
    difficulty: entry.difficulty,
    answer_type: entry.answer_type,
    language: entry.language,
    solution: entry.solution,
  };
}

export async function prepare(context: PrepareContext): Promise<string> {
  const file = { repoId: HF_REPO_ID, ...hubSplitFile("test") };
  const entries = await hubRows(context, file);
  requireColumns(entries, COLUMNS, file);
  const count = writePythonJsonl(context.outputPath, entries.filter((e) => e.language === "en").map(physicsRow), false);
  context.log(`Wrote ${count} problems to ${context.outputPath}`);
  return context.outputPath;
}
