/**
 * global-piqa: mrlbenchmarks/global-piqa-nonparallel, every language config the dataset card declares
 * (`get_dataset_config_names`), its test split, as NeMo Gym's benchmarks/global-piqa/prepare.py writes it: two
 * options, the label as a letter, four per-row extraction regexes for the mcqa server, uuid5 of the row's fields.
 * `+prepare_script_args={languages: [..]}` picks a subset.
 */
import { readFileSync } from "node:fs";
import { hfDownload } from "../../../download/index.ts";
import { pyStrip } from "../../resources_servers/_python/text.ts";
import { writePythonJsonl } from "../_math.ts";
import type { Row } from "../_hub-rows.ts";
import { cardConfigNames } from "../_m-arena-hard.ts";
import type { PrepareContext } from "../_prepare.ts";
import { argList, seedUuid, splitRows } from "../_splits.ts";

export const HF_REPO_ID = "mrlbenchmarks/global-piqa-nonparallel";
export const EXTRACT_REGEX = [
  "(?i)[Tt]he (?:[Bb]est [Aa]nswer|[Ff]inal [Aa]nswer|[Aa]nswer)[^A-B]*([A-B])",
  "(?i)[Aa]nswer\\s*:[^A-B]*([A-B])",
  "(?i)\\\\boxed\\{([A-B])\\}",
  "[\\s\\S]*\\b\\(?\\s*([A-B])\\s*\\)?\\.?\\b",
];

export function globalPiqaRow(entry: Row, language: string): Row {
  const question = pyStrip(String(entry.prompt));
  const optionA = pyStrip(String(entry.solution0));
  const optionB = pyStrip(String(entry.solution1));
  return {
    question,
    problem: question,
    A: optionA,
    B: optionB,
    options: [{ A: optionA }, { B: optionB }],
    expected_answer: String.fromCharCode(65 + Math.trunc(Number(entry.label))),
    template_metadata: { output_regex: EXTRACT_REGEX },
    subset_for_metrics: language,
    target_language: language,
    uuid: seedUuid({ language, prompt: question, solution0: optionA, solution1: optionB, label: entry.label }, false),
  };
}

export async function prepare(context: PrepareContext): Promise<string> {
  let languages = argList(context.args.languages, []);
  if (languages.length === 0) languages = cardConfigNames(readFileSync(await hfDownload({ repoId: HF_REPO_ID, path: "README.md" }, { log: context.log }), "utf8"), HF_REPO_ID);
  const rows: Row[] = [];
  for (const language of languages) {
    for (const entry of await splitRows(context, HF_REPO_ID, "test", ["prompt", "solution0", "solution1", "label"], language)) rows.push(globalPiqaRow(entry, language));
  }
  const count = writePythonJsonl(context.outputPath, rows, false);
  context.log(`Wrote ${count} problems to ${context.outputPath}`);
  return context.outputPath;
}
