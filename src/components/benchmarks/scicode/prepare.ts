/**
 * scicode: SciCode1/SciCode's test split (the Hub's Parquet conversion, through the download cache, with HF_TOKEN if
 * set) as NeMo Gym's benchmarks/scicode/prepare.py writes it: one row per problem with an empty prompt (the agent
 * builds each sub-step's), `problem_id`, `problem_name`, `required_dependencies`, the whole `sub_steps` list, and
 * `uuid` = `problem_id`; `json.dumps` with ASCII escapes. SciCode's `test_data.h5` is not downloaded (see README).
 */
import { hubSplitFile, writePythonJsonl } from "../_math.ts";
import { hubRows, requireColumns } from "../_hub-rows.ts";
import type { PrepareContext } from "../_prepare.ts";

export const HF_REPO_ID = "SciCode1/SciCode";
const COLUMNS = ["problem_id", "problem_name", "required_dependencies", "sub_steps"];

export function scicodeRow(entry: Record<string, unknown>): Record<string, unknown> {
  return {
    responses_create_params: { input: [] },
    problem_id: entry.problem_id,
    problem_name: entry.problem_name,
    required_dependencies: entry.required_dependencies,
    sub_steps: entry.sub_steps,
    uuid: entry.problem_id,
  };
}

export async function prepare(context: PrepareContext): Promise<string> {
  context.log("Downloading SciCode from HuggingFace...");
  const file = { repoId: HF_REPO_ID, ...hubSplitFile("test") };
  const entries = await hubRows(context, file);
  requireColumns(entries, COLUMNS, file);
  const count = writePythonJsonl(context.outputPath, entries.map(scicodeRow));
  context.log(`Wrote ${count} problems to ${context.outputPath}`);
  return context.outputPath;
}
