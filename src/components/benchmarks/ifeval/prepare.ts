/** IFEval: google-research's input_data.jsonl → rows for instruction_following (NeMo Gym's benchmarks/ifeval/prepare.py). */
import type { PrepareContext } from "../_prepare.ts";
import { downloadRawJsonl, field } from "../_raw-jsonl.ts";

export const IFEVAL_URL = "https://raw.githubusercontent.com/google-research/google-research/master/instruction_following_eval/data/input_data.jsonl";

export async function prepare(context: PrepareContext): Promise<string> {
  const entries = await downloadRawJsonl(context, IFEVAL_URL, "input_data.jsonl");
  const rows = entries.map((entry, idx) => {
    const prompt = field(entry, "prompt", (v) => typeof v === "string", "a string") as string;
    return {
      id: idx,
      responses_create_params: { input: [{ role: "user", content: prompt }], tools: [], parallel_tool_calls: false },
      verifier_metadata: {
        prompt,
        instruction_id_list: field(entry, "instruction_id_list", Array.isArray, "a list"),
        kwargs: field(entry, "kwargs", Array.isArray, "a list"),
        grading_mode: "binary",
      },
    };
  });
  await context.writeRows(context.outputPath, rows);
  context.log(`Wrote ${rows.length} problems to ${context.outputPath}`);
  return context.outputPath;
}
