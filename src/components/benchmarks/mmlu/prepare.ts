/**
 * mmlu: Hendrycks' data.tar (people.eecs.berkeley.edu), fetched through the download cache, as NeMo Gym's
 * benchmarks/mmlu/prepare.py writes it: the CSVs under data/<split>/ in archive order, rows of six columns (others
 * skipped with a warning), `A) …` option lines, the answer letter, the subject's subcategory, uuid5 of (subject,
 * question, answer). `prepare_script_args`: split (test, dev or val; default test).
 */
import { basename } from "node:path";
import { readFileSync } from "node:fs";
import { GymError } from "../../../errors.ts";
import { pyStrip } from "../../resources_servers/_python/text.ts";
import { fetchFile, writePythonJsonl } from "../_math.ts";
import type { Row } from "../_hub-rows.ts";
import { LETTERS, SUBCATEGORIES } from "../_mmlu-subjects.ts";
import type { PrepareContext } from "../_prepare.ts";
import { seedUuid } from "../_splits.ts";
import { pyCsvRows } from "../../resources_servers/_nlp/csv.ts";
import { tarFiles } from "./tar.ts";

export const URL = "https://people.eecs.berkeley.edu/~hendrycks/data.tar";
const COLUMNS = ["question", "A", "B", "C", "D", "expected_answer"];
const SPLITS = ["dev", "test", "val"];

export function mmluRow(subject: string, record: Record<string, string>): Row {
  const answer = pyStrip(record.expected_answer!).toUpperCase();
  if (!LETTERS.includes(answer)) throw new GymError("E_INPUT_SCHEMA", `MMLU ${subject}: unexpected answer ${JSON.stringify(answer)} (expected A, B, C or D).`, { hint: "NeMo Gym's prepare.py refuses this row too: check the archive." });
  const subcategory = SUBCATEGORIES[subject];
  if (subcategory === undefined) throw new GymError("E_INPUT_SCHEMA", `MMLU: '${subject}' is not one of the 57 subjects.`, { hint: "Check that the archive is Hendrycks' data.tar." });
  const question = pyStrip(record.question!);
  return {
    question,
    problem: `${question}\n\n${LETTERS.map((l) => `${l}) ${record[l]}`).join("\n")}`,
    options: LETTERS.map((l) => ({ [l]: record[l] })),
    expected_answer: answer,
    subset_for_metrics: subcategory,
    subject,
    uuid: seedUuid({ subject, question, answer }, false),
  };
}

/** subject → records of one split, in archive order (a subject met twice keeps its first place, its last rows). */
export function splitRecords(archive: Uint8Array, split: string, log: (line: string) => void): Map<string, Record<string, string>[]> {
  const subjects = new Map<string, Record<string, string>[]>();
  for (const file of tarFiles(archive)) {
    if (!file.name.startsWith(`data/${split}/`) || !file.name.endsWith(".csv")) continue;
    const name = basename(file.name);
    const records: Record<string, string>[] = [];
    // csv.reader over a TextIOWrapper: universal newlines turn \r\n and \r into \n before the reader sees them.
    for (const fields of pyCsvRows(new TextDecoder().decode(file.data).replace(/\r\n?/g, "\n"))) {
      if (fields.length === COLUMNS.length) records.push(Object.fromEntries(COLUMNS.map((c, i) => [c, fields[i]!])));
      else log(`Warning: skipping row in ${name} due to incorrect number of columns`);
    }
    const cut = name.lastIndexOf("_");
    subjects.set(cut === -1 ? name : name.slice(0, cut), records);
  }
  return subjects;
}

export async function prepare(context: PrepareContext, url = URL): Promise<string> {
  const split = String(context.args.split ?? "test");
  if (!SPLITS.includes(split)) throw new GymError("E_USAGE", `split must be one of ${SPLITS.join(", ")}, not '${split}'.`);
  context.log(`Downloading MMLU from ${url}`);
  const archive = readFileSync(await fetchFile(url, context));
  let records: Map<string, Record<string, string>[]>;
  try {
    records = splitRecords(archive, split, context.log);
  } catch (error) {
    throw new GymError("E_INPUT_SCHEMA", `${url}: ${(error as Error).message}.`, { hint: "Delete the cached copy under NEMO_GYM_CACHE_DIR/url/ and prepare again." });
  }
  const rows: Row[] = [];
  for (const [subject, list] of records) for (const record of list) rows.push(mmluRow(subject, record));
  const count = writePythonJsonl(context.outputPath, rows, false);
  context.log(`Wrote ${count} problems to ${context.outputPath}`);
  return context.outputPath;
}
