/** MBPP+ (378 problems) for the evalplus server. */
import type { PrepareContext } from "../_prepare.ts";
import { MBPP_PLUS, prepareEvalPlus } from "../_evalplus-prepare.ts";

export const prepare = (context: PrepareContext) => prepareEvalPlus(context, MBPP_PLUS);
