/**
 * EvalPlus problems (HumanEval+ / MBPP+ release JSONL: task_id, prompt, entry_point, canonical_solution,
 * base_input, plus_input, atol), indexed by task_id. Lines stay raw text: they go to Python as they are, since
 * EvalPlus inputs may hold values JSON.parse refuses (NaN, Infinity).
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { GymError } from "../../../errors.ts";

/** Where `gym eval prepare --benchmark human_eval` / `mbpp` writes the problems of each dataset. */
export const DEFAULT_PROBLEMS: Record<string, string> = {
  humaneval: "benchmarks/human_eval/data/HumanEvalPlus.jsonl",
  mbpp: "benchmarks/mbpp/data/MbppPlus.jsonl",
};

/** task_id → its raw JSON line. */
export function loadProblems(dataset: string, path: string | null): Map<string, string> {
  const file = resolve(path ?? DEFAULT_PROBLEMS[dataset] ?? "");
  if (!(dataset in DEFAULT_PROBLEMS)) throw new GymError("E_CONFIG", `Unsupported evalplus dataset: ${JSON.stringify(dataset)}`, { hint: "set `dataset: humaneval` or `dataset: mbpp`" });
  if (!existsSync(file)) {
    throw new GymError("E_INPUT_NOT_FOUND", `evalplus (${dataset}) needs the EvalPlus problems file ${file}, which does not exist`, {
      hint: `run \`gym eval prepare --benchmark ${dataset === "humaneval" ? "human_eval" : "mbpp"}\` here, or set the server's problems_jsonl_fpath`,
    });
  }
  const index = new Map<string, string>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const id = /"task_id"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(line)?.[1];
    if (id !== undefined) index.set(JSON.parse(`"${id}"`), line);
  }
  return index;
}
