/**
 * IOI'24 for the competitive_coding_challenges server, as NeMo Gym's prepare writes it: `ioi24_benchmark.jsonl`, one
 * row per scored (problem, subtask) of open-r1/ioi's test split (`competition_id, problem_id` = the lowercase id,
 * `subtask, subtask_score, name, question`), and beside it `ioi24_metadata.json`, one JSON line
 * `{"competition_id": "ioi24", "metadata": {problem: {subtask: {tests, subtask_score, score_precision, run, compile,
 * grader_files}}}}` with the tests of open-r1/ioi-test-cases (config 2024) and the compile/run scripts of
 * huggingface/ioi. Everything goes through the download cache (Hub files with HF_ENDPOINT / HF_TOKEN).
 */
import { dirname, join } from "node:path";
import { hfDownload, readParquetRows } from "../../../download/index.ts";
import { GymError } from "../../../errors.ts";
import { stringifyPython } from "../../../metrics/pyjson.ts";
import { writeFileAtomic } from "../../../runtime/files.ts";
import { fetchText } from "../_math.ts";
import type { PrepareContext } from "../_prepare.ts";

export const PROBLEMS_REPO = "open-r1/ioi";
export const TESTS_REPO = "open-r1/ioi-test-cases";
export const RUN_URL = "https://raw.githubusercontent.com/huggingface/ioi/refs/heads/main/run_tests/custom_setup/run";
export const COMPILE_URL = "https://raw.githubusercontent.com/huggingface/ioi/refs/heads/main/run_tests/custom_setup/compile";
const CONVERT = "refs/convert/parquet";
const COMPETITION_ID = "ioi24";

type Row = Record<string, any>;

/** Every row of a split of the Hub's Parquet conversion, shard after shard (`0000.parquet`, `0001.parquet`, …). */
async function splitRows(context: PrepareContext, repoId: string, config: string, split: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (let shard = 0; ; shard++) {
    const path = `${config}/${split}/${String(shard).padStart(4, "0")}.parquet`;
    let file: string;
    try {
      context.log(`Loading ${repoId}/${path} from the Hugging Face Hub...`);
      file = await hfDownload({ repoId, path, revision: CONVERT }, { log: context.log });
    } catch (error) {
      if (shard > 0 && error instanceof GymError && error.message.includes("has no file")) break;
      throw error;
    }
    for await (const row of readParquetRows(file, { pythonFloats: true })) rows.push(row);
  }
  return rows;
}

export async function prepare(context: PrepareContext): Promise<string> {
  const problems = await splitRows(context, PROBLEMS_REPO, "default", "test");
  const benchmark = problems
    .filter((row) => Number(row.score) !== 0) // score-0 rows are the unscored sample subtasks
    .map((row) => ({ competition_id: COMPETITION_ID, problem_id: row.id, subtask: row.subtask, subtask_score: row.score, name: row.name, question: row.problem }));
  writeFileAtomic(context.outputPath, benchmark.map((r) => stringifyPython(r, { spaced: true, ensureAscii: true })).join("\n"));
  context.log(`Wrote ${benchmark.length} rows to ${context.outputPath}`);

  context.log("Downloading run/compile scripts from github.com/huggingface/ioi ...");
  const run = await fetchText(RUN_URL, context);
  const compile = await fetchText(COMPILE_URL, context);
  const tests = new Map<string, Record<string, { input: string; output: string }>>();
  for (const tc of await splitRows(context, TESTS_REPO, "2024", "train")) {
    if (!tests.has(tc.problem_name)) tests.set(tc.problem_name, {});
    tests.get(tc.problem_name)![tc.test_name] = { input: tc.test_input, output: tc.test_output };
  }
  const metadata: Record<string, Record<string, unknown>> = {};
  for (const row of problems) {
    if (row.subtask === "00-samples") continue;
    const byName = tests.get(row.name) ?? {};
    const subtaskTests: Record<string, unknown> = {};
    for (const name of row.test_names as string[]) {
      if (!(name in byName)) throw new GymError("E_INPUT_SCHEMA", `${TESTS_REPO} (2024) has no test '${name}' of problem '${row.name}', which ${PROBLEMS_REPO} lists`, { hint: "the two datasets disagree: check their revisions" });
      subtaskTests[name] = byName[name];
    }
    (metadata[row.id] ??= {})[row.subtask] = { tests: subtaskTests, subtask_score: row.score, score_precision: row.score_precision, run, compile, grader_files: row.grader_files };
  }
  const metadataPath = join(dirname(context.outputPath), "ioi24_metadata.json");
  writeFileAtomic(metadataPath, stringifyPython({ competition_id: COMPETITION_ID, metadata }, { spaced: true, ensureAscii: true }));
  context.log(`Wrote CCC-wrapped metadata for ${Object.keys(metadata).length} problems to ${metadataPath} (keys: ${Object.keys(metadata).sort().join(", ")})`);
  return context.outputPath;
}
