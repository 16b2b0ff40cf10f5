/**
 * What the long-context prepare steps share (longbench_v2, longcodebench, mrcr, graphwalks): upstream rows read from
 * the Hub files `load_dataset` reads (a JSON array, Parquet files in order), and NeMo Gym's loop that counts each
 * row's tokens, drops those over `max_context_tokens` and writes the rest as `json.dumps` lines.
 */
import { readFileSync } from "node:fs";
import { GymError } from "../../errors.ts";
import { hfDownload, readParquetRows } from "../../download/index.ts";
import { type Row, fileLabel, requireColumns } from "./_hub-rows.ts";
import { writePythonJsonl } from "./_math.ts";
import type { PrepareContext } from "./_prepare.ts";
import { capSummary, tokenArgs, tokenCounter } from "./_tokens.ts";

/** A dataset repo's JSON-array file (`load_dataset` on a repo holding one `data.json`), every row with every key. */
export async function hubJsonArray(context: PrepareContext, repoId: string, path: string): Promise<Row[]> {
  const file = { repoId, path, revision: "main" };
  context.log(`Loading ${fileLabel(file)} from the Hugging Face Hub...`);
  const local = await hfDownload(file, { log: context.log });
  let rows: unknown;
  try {
    rows = JSON.parse(readFileSync(local, "utf8"));
  } catch (error) {
    throw new GymError("E_INPUT_JSON", `${fileLabel(file)} is not JSON: ${(error as Error).message}`, { hint: `Delete the cached copy (${local}) and prepare again.` });
  }
  if (!Array.isArray(rows)) throw new GymError("E_INPUT_SCHEMA", `${fileLabel(file)} is not a JSON array of rows.`, { hint: "Check the dataset revision on the Hub." });
  return rows as Row[];
}

/** The rows of several Parquet files of a dataset repo, file after file (the order `load_dataset` reads them in). */
export async function hubParquetFiles(context: PrepareContext, repoId: string, paths: readonly string[], required: string[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const path of paths) {
    const file = { repoId, path, revision: "main" };
    context.log(`Loading ${fileLabel(file)} from the Hugging Face Hub...`);
    const local = await hfDownload(file, { log: context.log });
    const before = rows.length;
    for await (const row of readParquetRows(local, { pythonFloats: true })) rows.push(row);
    requireColumns(rows.slice(before), required, file);
  }
  return rows;
}

/**
 * NeMo Gym's prepare loop: `count(row)` tokens per row with `tokenizer_name`, rows over `max_context_tokens` dropped,
 * `toRow(row, n)` written as one `json.dumps` line each; logs the closing line. Returns the output path.
 */
export async function writeCounted(context: PrepareContext, entries: Row[], toText: (entry: Row) => string | string[], toRow: (entry: Row, tokens: number) => Row, options: { ensureAscii: boolean; noun: string; extra?: () => string }): Promise<string> {
  const { tokenizer, cap } = tokenArgs(context.args);
  const count = await tokenCounter(tokenizer);
  context.log(`Counting tokens with ${tokenizer}...`);
  let dropped = 0;
  const kept: Row[] = [];
  for (const entry of entries) {
    const text = toText(entry);
    const tokens = Array.isArray(text) ? text.reduce((sum, t) => sum + count(t), 0) : count(text);
    if (cap !== null && tokens > cap) {
      dropped++;
      continue;
    }
    kept.push(toRow(entry, tokens));
  }
  const written = writePythonJsonl(context.outputPath, kept, options.ensureAscii);
  context.log(`Wrote ${written} ${options.noun} to ${context.outputPath} (${capSummary(tokenizer, cap, dropped)}${options.extra?.() ?? ""})`);
  return context.outputPath;
}
