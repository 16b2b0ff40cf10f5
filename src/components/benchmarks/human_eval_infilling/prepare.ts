/**
 * HumanEval-Infilling for the code_fim server, as NeMo Gym's prepare writes it: one JSONL per split (default
 * single_line, multi_line, random_span; `+prepare_script_args={splits: [...]}`) beside the output, rows
 * `task_id, prefix (the problem's prompt), suffix, canonical_solution, language, split, comment_delimiter,
 * verifier_metadata.task_id`. The release files come through the download cache the server reads too.
 */
import { dirname, join } from "node:path";
import { releaseFile, readProblems, SPLIT_FILES, type FimProblem } from "../../resources_servers/code_fim/problems.ts";
import type { PrepareContext } from "../_prepare.ts";

const DEFAULT_SPLITS = ["single_line", "multi_line", "random_span"];

export function fimRow(problem: FimProblem, split: string): Record<string, unknown> {
  return {
    task_id: problem.task_id,
    prefix: problem.prompt,
    suffix: problem.suffix,
    canonical_solution: problem.canonical_solution,
    language: "python",
    split,
    comment_delimiter: "#",
    verifier_metadata: { task_id: problem.task_id },
  };
}

export async function prepare(context: PrepareContext): Promise<string> {
  const splits = Array.isArray(context.args.splits) ? context.args.splits.map(String) : DEFAULT_SPLITS;
  for (const split of splits) {
    if (!(split in SPLIT_FILES)) throw new Error(`Unknown split ${JSON.stringify(split)}; expected one of ${Object.keys(SPLIT_FILES).join(", ")} (prepare_script_args.splits)`);
  }
  for (const split of splits) {
    const problems = readProblems(await releaseFile(split, context.log));
    const path = join(dirname(context.outputPath), `${split}.jsonl`);
    await context.writeRows(path, problems.map((p) => fimRow(p, split)));
    context.log(`Wrote ${problems.length} problems to ${path}`);
  }
  return context.outputPath;
}
