/**
 * omniscience: ArtificialAnalysis/AA-Omniscience-Public's train split as NeMo Gym's benchmarks/omniscience/prepare.py
 * writes it: `id` (question_id), `domain`, `topic`, `question`, `expected_answer` (answer); no prompt baked in.
 */
import { prepareHubSplit } from "../_hub-rows.ts";
import type { PrepareContext } from "../_prepare.ts";

export const HF_REPO_ID = "ArtificialAnalysis/AA-Omniscience-Public";

export function omniscienceRow(entry: Record<string, unknown>): Record<string, unknown> {
  return { id: entry.question_id, domain: entry.domain, topic: entry.topic, question: entry.question, expected_answer: entry.answer };
}

export const prepare = (context: PrepareContext): Promise<string> =>
  prepareHubSplit(context, HF_REPO_ID, ["question_id", "domain", "topic", "question", "answer"], omniscienceRow, "problems");
