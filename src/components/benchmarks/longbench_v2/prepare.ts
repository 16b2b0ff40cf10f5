/**
 * longbench_v2: THUDM/LongBench-v2 (its `data.json`, the single train split of 503 questions) as NeMo Gym's
 * benchmarks/longbench_v2/prepare.py writes it: every Skills field, `context_tokens` counted with `tokenizer_name`
 * (o200k_base), the four `options` and `grading_mode` the mcqa server reads. `prepare_script_args`: tokenizer_name
 * (o200k_base, cl100k_base), max_context_tokens (rows over it dropped; default none).
 */
import { requireColumns } from "../_hub-rows.ts";
import { hubJsonArray, writeCounted } from "../_long-context.ts";
import type { PrepareContext } from "../_prepare.ts";
import { tokenCounting } from "../_tokens.ts";

export const HF_REPO_ID = "THUDM/LongBench-v2";
const COLUMNS = ["_id", "context", "question", "choice_A", "choice_B", "choice_C", "choice_D", "answer", "domain", "sub_domain", "difficulty", "length"];

export async function prepare(context: PrepareContext): Promise<string> {
  const counting = await tokenCounting(context.args);
  const entries = await hubJsonArray(context, HF_REPO_ID, "data.json");
  requireColumns(entries, COLUMNS, { repoId: HF_REPO_ID, path: "data.json" });
  return writeCounted(
    context,
    counting,
    entries,
    (e) => e.context as string,
    (e, tokens) => ({
      index: e._id,
      context: e.context,
      question: e.question,
      choice_A: e.choice_A,
      choice_B: e.choice_B,
      choice_C: e.choice_C,
      choice_D: e.choice_D,
      expected_answer: e.answer,
      domain: e.domain,
      sub_domain: e.sub_domain,
      difficulty: e.difficulty,
      length: e.length,
      context_tokens: tokens,
      options: [{ A: e.choice_A }, { B: e.choice_B }, { C: e.choice_C }, { D: e.choice_D }],
      grading_mode: "strict_single_letter_boxed",
    }),
    { ensureAscii: false, noun: "problems" },
  );
}
