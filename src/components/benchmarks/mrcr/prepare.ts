/**
 * mrcr: openai/mrcr (its six Parquet files, 2, 4 and 8 needles) as NeMo Gym's benchmarks/mrcr/prepare.py writes it:
 * the JSON-encoded conversation as `responses_create_params.input`, the answer, prefix and needle count, and
 * `n_tokens` summed over the messages' contents with `tokenizer_name`. `prepare_script_args`: tokenizer_name,
 * max_context_tokens.
 */
import { GymError } from "../../../errors.ts";
import type { Row } from "../_hub-rows.ts";
import { hubParquetFiles, writeCounted } from "../_long-context.ts";
import type { PrepareContext } from "../_prepare.ts";
import { tokenCounting } from "../_tokens.ts";

export const HF_REPO_ID = "openai/mrcr";
/** The repo's data files, sorted as `load_dataset` orders them. */
export const FILES = ["2needle/2needle_0.parquet", "2needle/2needle_1.parquet", "4needle/4needle_0.parquet", "4needle/4needle_1.parquet", "8needle/8needle_0.parquet", "8needle/8needle_1.parquet"];

function messages(entry: Row, index: number): { content: string }[] {
  try {
    const parsed = JSON.parse(String(entry.prompt));
    if (Array.isArray(parsed) && parsed.every((m) => m !== null && typeof m === "object" && typeof m.content === "string")) return parsed;
  } catch {
    // reported below
  }
  throw new GymError("E_INPUT_SCHEMA", `${HF_REPO_ID} row ${index + 1}: 'prompt' is not a JSON list of messages with text content.`, { hint: "Check the dataset revision on the Hub; NeMo Gym's prepare.py fails on this row too." });
}

export async function prepare(context: PrepareContext): Promise<string> {
  const counting = await tokenCounting(context.args);
  async function* withMessages() {
    let index = 0;
    for await (const entry of hubParquetFiles(context, HF_REPO_ID, FILES, ["prompt", "answer", "random_string_to_prepend", "n_needles"])) yield { entry, messages: messages(entry, index++) };
  }
  return writeCounted(
    context,
    counting,
    withMessages(),
    ({ messages }) => messages.map((m) => m.content),
    ({ entry: e, messages }, tokens) => ({
      responses_create_params: { input: messages },
      expected_answer: e.answer,
      random_string_to_prepend: e.random_string_to_prepend,
      n_needles: e.n_needles,
      n_tokens: tokens,
    }),
    { ensureAscii: true, noun: "samples" },
  );
}
