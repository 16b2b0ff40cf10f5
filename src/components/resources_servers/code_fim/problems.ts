/**
 * HumanEval-Infilling problems (task_id, prompt, suffix, canonical_solution, test, entry_point) of one split, by
 * task_id. As NeMo Gym's `read_problems(split)`, the split's release file (openai/human-eval-infilling) is fetched
 * once into the download cache; `problems_jsonl_fpath` (a JSONL, optionally .gz) replaces it, and
 * `GYM_HUMAN_EVAL_INFILLING_MIRROR` replaces the release folder's URL.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { cacheDir, downloadFile } from "../../../download/index.ts";
import { GymError } from "../../../errors.ts";

export interface FimProblem {
  task_id: string;
  prompt: string;
  suffix: string;
  canonical_solution: string;
  test: string;
  entry_point: string;
}

/** Split name → its release file (the names NeMo Gym's human-eval-infilling fork downloads). */
export const SPLIT_FILES: Record<string, string> = {
  single_line: "HumanEval-SingleLineInfilling.jsonl.gz",
  multi_line: "HumanEval-MultiLineInfilling.jsonl.gz",
  random_span: "HumanEval-RandomSpanInfilling.jsonl.gz",
  random_span_light: "HumanEval-RandomSpanInfillingLight.jsonl.gz",
};
const RELEASE = "https://github.com/openai/human-eval-infilling/raw/master/data";

export function checkSplit(split: string): void {
  if (!(split in SPLIT_FILES)) {
    throw new GymError("E_CONFIG", `Unsupported FIM split: ${JSON.stringify(split)}`, { hint: `set \`split:\` to one of ${Object.keys(SPLIT_FILES).join(", ")}` });
  }
}

/** The split's release file in the cache, downloaded when absent (offline mode refuses with the URL). */
export async function releaseFile(split: string, log?: (line: string) => void): Promise<string> {
  checkSplit(split);
  const name = SPLIT_FILES[split]!;
  const dest = join(cacheDir(), "human_eval_infilling", name);
  if (existsSync(dest)) return dest;
  const mirror = process.env.GYM_HUMAN_EVAL_INFILLING_MIRROR?.replace(/\/+$/, "") ?? RELEASE;
  return (await downloadFile(`${mirror}/${name}`, dest, { label: `HumanEval-Infilling ${split}`, log })).path;
}

/** Every problem of a release file (JSONL or .jsonl.gz), in file order. */
export function readProblems(path: string): FimProblem[] {
  const file = resolve(path);
  if (!existsSync(file)) {
    throw new GymError("E_INPUT_NOT_FOUND", `code_fim's problems file ${file} does not exist`, { hint: "fix problems_jsonl_fpath, or remove it to download the split's release file" });
  }
  const bytes = readFileSync(file);
  const text = (file.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8");
  const problems: FimProblem[] = [];
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    let row: FimProblem;
    try {
      row = JSON.parse(line) as FimProblem;
    } catch (error) {
      throw new GymError("E_INPUT_JSON", `${file}:${i + 1}: not JSON (${(error as Error).message})`);
    }
    for (const key of ["task_id", "prompt", "suffix", "test", "entry_point"] as const) {
      if (typeof row[key] !== "string") throw new GymError("E_INPUT_SCHEMA", `${file}:${i + 1}: field ${key} must be a string`, { hint: "a HumanEval-Infilling problem has task_id, prompt, suffix, test, entry_point" });
    }
    problems.push(row);
  });
  return problems;
}

/** task_id → problem, from `path` or the split's cached release file. */
export async function loadProblems(split: string, path: string | null): Promise<Map<string, FimProblem>> {
  checkSplit(split);
  const file = path ?? (await releaseFile(split, (line) => process.stderr.write(`${line}\n`)));
  return new Map(readProblems(file).map((p) => [p.task_id, p]));
}
