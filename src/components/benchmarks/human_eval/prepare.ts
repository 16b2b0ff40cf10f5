/** HumanEval+ (164 problems) for the evalplus server. */
import type { PrepareContext } from "../_prepare.ts";
import { HUMANEVAL_PLUS, prepareEvalPlus } from "../_evalplus-prepare.ts";

export const prepare = (context: PrepareContext) => prepareEvalPlus(context, HUMANEVAL_PLUS);
