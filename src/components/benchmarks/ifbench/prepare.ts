/** IFBench: AllenAI's IFBench_test.jsonl → rows for the ifbench server (NeMo Gym's benchmarks/ifbench/prepare.py). */
import type { PrepareContext } from "../_prepare.ts";
import { downloadRawJsonl, field } from "../_raw-jsonl.ts";

export const IFBENCH_URL = "https://raw.githubusercontent.com/allenai/IFBench/refs/heads/main/data/IFBench_test.jsonl";

export async function prepare(context: PrepareContext): Promise<string> {
  const entries = await downloadRawJsonl(context, IFBENCH_URL, "IFBench_test.jsonl");
  const rows = entries.map((entry, idx) => ({
    id: idx,
    instruction_id_list: field(entry, "instruction_id_list", Array.isArray, "a list"),
    prompt: field(entry, "prompt", (v) => typeof v === "string", "a string"),
    kwargs: field(entry, "kwargs", Array.isArray, "a list"),
    grading_mode: "fraction",
  }));
  await context.writeRows(context.outputPath, rows);
  context.log(`Wrote ${rows.length} problems to ${context.outputPath}`);
  return context.outputPath;
}
