/**
 * ruler2: the rows NeMo Gym's benchmarks/ruler2/prepare.py writes, read from the output of its 12 sub-task
 * generators (`python -m sources.prepare_niah|prepare_mmlu|prepare_qa --output_folder <dir>/<task> …`, one
 * `<task>/test.jsonl` each) rather than a port of them: they size every sample with the model's Hugging Face tokenizer
 * and draw from MMLU, HotpotQA, wonderwords and NLTK. Each row gets its task's `eval_type` / `match_type` routing; a
 * multichoice answer becomes one upper-case letter, any other a list of references.
 * `prepare_script_args`: ruler2_data_dir (required), tasks (default: all 12, in NeMo Gym's order).
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { GymError } from "../../../errors.ts";
import { pyStrip } from "../../resources_servers/_python/text.ts";
import type { Row } from "../_hub-rows.ts";
import { pyStr, writePythonJsonl } from "../_math.ts";
import type { PrepareContext } from "../_prepare.ts";
import { argList } from "../_splits.ts";

/** Sub-task → (eval_type, match_type), in NeMo Gym's task order. */
export const ROUTING: Record<string, [string, string]> = {
  mk_niah_basic: ["ruler2", "all"],
  mk_niah_easy: ["ruler2", "all"],
  mk_niah_medium: ["multichoice", "all"],
  mk_niah_hard: ["multichoice", "all"],
  mv_niah_basic: ["ruler2", "all"],
  mv_niah_easy: ["ruler2", "all"],
  mv_niah_medium: ["ruler2", "2steps"],
  mv_niah_hard: ["ruler2", "all"],
  qa_basic: ["ruler2", "part"],
  qa_easy: ["ruler2", "part"],
  qa_medium: ["ruler2", "part"],
  qa_hard: ["ruler2", "part"],
};
const HOW = "Generate the tasks with NeMo Gym's generators (a NeMo Gym checkout, benchmarks/ruler2, with its sources' requirements): python -m sources.<prepare_niah|prepare_mmlu|prepare_qa> --output_folder <dir>/<task> --tokenizer_type hf --tokenizer_path <model> --max_seq_length <n> --num_samples 100 --random_seed 42 <the task's arguments in prepare.py>; then +prepare_script_args={ruler2_data_dir: <dir>}";

/** `_convert_row_to_gym`: one generated sample as a gym row. */
export function ruler2Row(row: Row, task: string): Row {
  const [evalType, matchType] = ROUTING[task]!;
  let expected = row.expected_answer;
  if (evalType === "multichoice") {
    if (Array.isArray(expected)) expected = expected.length > 0 ? expected[0] : "";
    expected = pyStrip(pyStr(expected)).toUpperCase();
  } else if (!Array.isArray(expected)) expected = [pyStr(expected)];
  return { question: row.question, expected_answer: expected, eval_type: evalType, match_type: matchType, task, length: row.length ?? null, index: row.index ?? null };
}

export async function prepare(context: PrepareContext): Promise<string> {
  const tasks = argList(context.args.tasks, Object.keys(ROUTING));
  const unknown = tasks.find((t) => !Object.hasOwn(ROUTING, t));
  if (unknown !== undefined) throw new GymError("E_USAGE", `Unknown task '${unknown}'. Valid options: ${Object.keys(ROUTING).join(", ")}.`);
  if (typeof context.args.ruler2_data_dir !== "string") throw new GymError("E_USAGE", "ruler2 needs prepare_script_args.ruler2_data_dir: the folder its generators wrote (<task>/test.jsonl).", { hint: HOW });
  const dir = resolve(context.args.ruler2_data_dir);
  const rows: Row[] = [];
  for (const task of tasks) {
    const file = join(dir, task, "test.jsonl");
    if (!existsSync(file)) throw new GymError("E_INPUT_NOT_FOUND", `Generator for ${task} did not produce ${file}.`, { hint: HOW });
    for (const [i, line] of readFileSync(file, "utf8").split("\n").entries()) {
      if (line.trim() === "") continue;
      let row: Row;
      try {
        row = JSON.parse(line) as Row;
      } catch (error) {
        throw new GymError("E_INPUT_JSON", `${file}:${i + 1}: not JSON: ${(error as Error).message}`);
      }
      for (const key of ["question", "expected_answer"]) if (!Object.hasOwn(row, key)) throw new GymError("E_INPUT_SCHEMA", `${file}:${i + 1}: no field '${key}' (the generators write index, question, expected_answer, length).`, { hint: HOW });
      rows.push(ruler2Row(row, task));
    }
  }
  const count = writePythonJsonl(context.outputPath, rows, true);
  context.log(`Wrote ${count} samples across ${tasks.length} tasks to ${context.outputPath}`);
  return context.outputPath;
}
