/** apex_shortlist: MathArena/apex-shortlist's train split as NeMo Gym's benchmarks/apex_shortlist/prepare.py writes it (question, expected_answer). */
import { prepareProblemAnswer } from "../_math.ts";
import type { PrepareContext } from "../_prepare.ts";

export const HF_REPO_ID = "MathArena/apex-shortlist";
export const prepare = (context: PrepareContext): Promise<string> => prepareProblemAnswer(context, HF_REPO_ID);
