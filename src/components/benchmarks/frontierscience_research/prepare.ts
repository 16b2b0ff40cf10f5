/**
 * frontierscience_research: openai/frontierscience's `research/test.jsonl` as NeMo Gym's prepare.py writes it: the
 * chemistry, biology and physics rows, `id` research-<index in the file>, the 10-point rubric (stripped) as
 * `expected_answer`, the 7/10 pass threshold on every row; json.dumps with UTF-8 kept.
 */
import { pyStrip } from "../../resources_servers/_python/text.ts";
import { writePythonJsonl } from "../_math.ts";
import { hubRows, orDefault, pyGet } from "../_hub-rows.ts";
import type { PrepareContext } from "../_prepare.ts";
import { PyFloat } from "../../../metrics/pyjson.ts";

export const HF_REPO_ID = "openai/frontierscience";
export const HF_FILE = "research/test.jsonl";
const SUBJECTS = new Set(["chemistry", "biology", "physics"]);

export function researchRow(entry: Record<string, unknown>, index: number, subject: string): Record<string, unknown> {
  return {
    id: `research-${index}`,
    question: pyGet(entry, "problem", ""),
    expected_answer: pyStrip(String(orDefault(pyGet(entry, "answer", ""), ""))),
    subject,
    task_group_id: orDefault(pyGet(entry, "task_group_id", ""), ""),
    scoring_threshold: new PyFloat(7),
    scoring_max_points: new PyFloat(10),
  };
}

export async function prepare(context: PrepareContext): Promise<string> {
  const entries = await hubRows(context, { repoId: HF_REPO_ID, path: HF_FILE });
  context.log(`Loaded ${entries.length} research problems`);
  const rows: Record<string, unknown>[] = [];
  for (const [idx, entry] of entries.entries()) {
    const subject = String(orDefault(pyGet(entry, "subject", ""), "")).toLowerCase();
    if (SUBJECTS.has(subject)) rows.push(researchRow(entry, idx, subject));
  }
  const count = writePythonJsonl(context.outputPath, rows, false);
  context.log(`Wrote ${count} problems to ${context.outputPath}`);
  return context.outputPath;
}
