/**
 * mmmlu: OpenAI simple-evals' translated MMLU CSVs (`mmlu_<LANG>.csv`), fetched through the download cache and read as
 * pandas reads them, written as NeMo Gym's benchmarks/mmmlu/prepare.py writes them: the simple-evals question text,
 * the four options, the multilingual answer regexes per row, the subject's category, uuid5 of (language, question,
 * answer). `prepare_script_args`: languages (default the 14), include_english (adds EN-US, `mmlu.csv`).
 */
import { GymError } from "../../../errors.ts";
import { formatPyFloat, PyFloat, stringifyPython } from "../../../metrics/pyjson.ts";
import { writeFileAtomic } from "../../../runtime/files.ts";
import { pyStrip } from "../../resources_servers/_python/text.ts";
import { fetchText } from "../_math.ts";
import type { Row } from "../_hub-rows.ts";
import type { PrepareContext } from "../_prepare.ts";
import { argList, seedUuid } from "../_splits.ts";
import { OUTPUT_REGEXES, QUERY_TEMPLATE, SUBJECT_TO_CATEGORY, SUPPORTED_LANGUAGES } from "./data.ts";
import { type Cell, readCsvIndexed } from "./pandas-csv.ts";

export const BASE_URL = "https://openaipublic.blob.core.windows.net/simple-evals/";
const LETTERS = ["A", "B", "C", "D"];

/** Python's str() of a cell. */
function pyStrCell(value: Cell): string {
  if (value instanceof PyFloat) return formatPyFloat(value.value);
  if (typeof value === "number") return Number.isNaN(value) ? "nan" : String(value);
  if (typeof value === "boolean") return value ? "True" : "False";
  return value;
}

/** A row's line as json.dumps writes it: `NaN`, `Infinity` and `-Infinity` as Python spells them (JSON has none). */
export function mmmluLine(entry: Record<string, Cell>, language: string): string {
  return `${stringifyPython(mmmluRow(entry, language), { spaced: true, pythonNonFinite: true })}\n`;
}

export function mmmluRow(entry: Record<string, Cell>, language: string): Row {
  for (const column of ["Question", "Answer", "Subject", ...LETTERS]) {
    if (!Object.hasOwn(entry, column)) throw new GymError("E_INPUT_SCHEMA", `MMMLU ${language}: the CSV has no '${column}' column.`, { hint: "Delete the cached CSV and prepare again." });
  }
  const expected = pyStrip(pyStrCell(entry.Answer!)).toUpperCase();
  const subject = entry.Subject!;
  const category = typeof subject === "string" && Object.hasOwn(SUBJECT_TO_CATEGORY, subject) ? SUBJECT_TO_CATEGORY[subject]! : "other";
  const question = QUERY_TEMPLATE.replace(/\{(Question|A|B|C|D)\}/g, (_, key: string) => pyStrCell(entry[key]!));
  return {
    question,
    options: LETTERS.map((l) => ({ [l]: entry[l]! })),
    expected_answer: expected,
    template_metadata: { output_regex: OUTPUT_REGEXES },
    subset_for_metrics: language,
    category,
    uuid: seedUuid({ language, question, answer: expected }, false),
  };
}

export function selectedLanguages(args: Record<string, unknown>): string[] {
  const selected = argList(args.languages, SUPPORTED_LANGUAGES).filter((l) => l !== "EN-US");
  const valid = new Set(SUPPORTED_LANGUAGES);
  if (args.include_english === true || args.include_english === "true") valid.add("EN-US"), selected.push("EN-US");
  const invalid = [...new Set(selected.filter((l) => !valid.has(l)))];
  if (invalid.length) throw new GymError("E_USAGE", `Unsupported languages: ${invalid.join(", ")}.`, { hint: `Supported: ${SUPPORTED_LANGUAGES.join(", ")} (EN-US with include_english: true).` });
  return selected;
}

export async function prepare(context: PrepareContext, baseUrl = BASE_URL): Promise<string> {
  const datasets = new Map<string, Record<string, Cell>[]>();
  for (const language of selectedLanguages(context.args)) {
    const file = language === "EN-US" ? "mmlu.csv" : `mmlu_${language}.csv`;
    datasets.set(language, readCsvIndexed(await fetchText(`${baseUrl}${file}`, context), file));
  }
  let text = "";
  let count = 0;
  for (const [language, entries] of datasets) {
    for (const entry of entries) {
      text += mmmluLine(entry, language);
      count++;
    }
  }
  writeFileAtomic(context.outputPath, text);
  context.log(`Wrote ${count} problems to ${context.outputPath}`);
  return context.outputPath;
}
