/**
 * longcodebench: Steefano/LCB's LongCodeQA (`LongCodeQA.zip`: one JSON array per context bucket, read in the order
 * `datasets`' json builder walks the unpacked archive) as NeMo Gym's benchmarks/longcodebench/prepare.py writes it:
 * the stripped prompt plus the `\boxed{}` postfix as `question`, four empty options for mcqa's letter set, uuid5 of
 * the question, `n_tokens` counted with `tokenizer_name`. `prepare_script_args`: tokenizer_name, max_context_tokens.
 */
import { readFileSync } from "node:fs";
import { GymError } from "../../../errors.ts";
import { hfDownload } from "../../../download/index.ts";
import { pyStrip } from "../../resources_servers/_python/text.ts";
import { readZipFiles } from "../../../download/zip.ts";
import { decodeUtf8IgnoringErrors } from "../../../text/utf8.ts";
import { type Row, requireColumns } from "../_hub-rows.ts";
import { writeCounted } from "../_long-context.ts";
import type { PrepareContext } from "../_prepare.ts";
import { tokenCounting } from "../_tokens.ts";
import { NAMESPACE_URL, uuid5 } from "../_uuid5.ts";

export const HF_REPO_ID = "Steefano/LCB";
export const ARCHIVE = "LongCodeQA.zip";
const POSTFIX = "\n\nThe last line of your response should be in the following format: 'Answer: \\boxed{A/B/C/D}' (e.g. 'Answer: \\boxed{A}').";
const hidden = (name: string) => name.startsWith(".") || name.startsWith("__");

/** File paths in `os.walk` order with sorted names: a folder's files before its subfolders; hidden entries skipped. */
export function walkOrder(paths: string[]): string[] {
  const visible = paths.filter((p) => !p.split("/").some(hidden));
  const walk = (prefix: string): string[] => {
    const here = visible.filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length));
    const files = here.filter((p) => !p.includes("/")).sort();
    const dirs = [...new Set(here.filter((p) => p.includes("/")).map((p) => p.split("/")[0]!))].sort();
    return [...files.map((f) => prefix + f), ...dirs.flatMap((d) => walk(`${prefix}${d}/`))];
  };
  return walk("");
}

/** Every row of every file of the archive, each file a JSON array; keys a row lacks are None, as `datasets` gives them. */
export function archiveRows(archive: string): Row[] {
  const entries = new Map(readZipFiles(archive).map((e) => [e.name, e.data]));
  const rows: Row[] = [];
  for (const name of walkOrder([...entries.keys()])) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(decodeUtf8IgnoringErrors(entries.get(name)!));
    } catch (error) {
      throw new GymError("E_INPUT_JSON", `${ARCHIVE}: ${name} is not JSON: ${(error as Error).message}`, { hint: "Delete the cached archive and prepare again." });
    }
    if (!Array.isArray(parsed)) throw new GymError("E_INPUT_SCHEMA", `${ARCHIVE}: ${name} is not a JSON array of rows.`, { hint: "Check the dataset revision on the Hub." });
    rows.push(...(parsed as Row[]));
  }
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return rows.map((r) => Object.fromEntries(columns.map((c) => [c, Object.hasOwn(r, c) ? r[c] : null])));
}

export async function prepare(context: PrepareContext): Promise<string> {
  const counting = await tokenCounting(context.args);
  const file = { repoId: HF_REPO_ID, path: ARCHIVE, revision: "main" };
  context.log(`Downloading LongCodeBench LongCodeQA (${HF_REPO_ID}/${ARCHIVE})...`);
  const entries = archiveRows(await hfDownload(file, { log: context.log }));
  requireColumns(entries, ["prompt", "correct_letter", "repo", "prompt_goal", "is_hard"], file);
  const question = (e: Row) => pyStrip(String(e.prompt)) + POSTFIX;
  return writeCounted(
    context,
    counting,
    entries,
    question,
    (e, tokens) => ({
      question: question(e),
      options: [{ A: "" }, { B: "" }, { C: "" }, { D: "" }],
      expected_answer: e.correct_letter,
      grading_mode: "strict_single_letter_boxed",
      uuid: uuid5(NAMESPACE_URL, question(e)),
      repo: e.repo,
      prompt_goal: e.prompt_goal,
      is_hard: e.is_hard,
      n_tokens: tokens,
    }),
    { ensureAscii: true, noun: "problems" },
  );
}
