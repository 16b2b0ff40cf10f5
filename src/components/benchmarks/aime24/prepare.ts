/** aime24: HuggingFaceH4/aime_2024's train split as NeMo Gym's benchmarks/aime24/prepare.py writes it (question, expected_answer). */
import { prepareProblemAnswer } from "../_math.ts";
import type { PrepareContext } from "../_prepare.ts";

export const HF_REPO_ID = "HuggingFaceH4/aime_2024";
export const prepare = (context: PrepareContext): Promise<string> => prepareProblemAnswer(context, HF_REPO_ID);
