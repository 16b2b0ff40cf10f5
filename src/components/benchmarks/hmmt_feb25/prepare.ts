/** hmmt_feb25: MathArena/hmmt_feb_2025's train split as NeMo Gym's benchmarks/hmmt_feb25/prepare.py writes it (question, expected_answer). */
import { prepareProblemAnswer } from "../_math.ts";
import type { PrepareContext } from "../_prepare.ts";

export const HF_REPO_ID = "MathArena/hmmt_feb_2025";
export const prepare = (context: PrepareContext): Promise<string> => prepareProblemAnswer(context, HF_REPO_ID);
