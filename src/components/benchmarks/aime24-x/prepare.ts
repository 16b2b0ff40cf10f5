/** aime24-x: nvidia/Nemotron-Multilinugual-Eval-AIME24, one split per language (see ../_math-x.ts). */
import { prepareMathX } from "../_math-x.ts";
import type { PrepareContext } from "../_prepare.ts";

export const HF_REPO_ID = "nvidia/Nemotron-Multilinugual-Eval-AIME24";
export const prepare = (context: PrepareContext): Promise<string> => prepareMathX(context, HF_REPO_ID);
