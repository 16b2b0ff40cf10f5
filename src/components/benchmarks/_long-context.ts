/**
 * What the long-context prepare steps share (longbench_v2, longcodebench, mrcr, graphwalks): upstream rows read from
 * the Hub files `load_dataset` reads (a JSON array, Parquet files in order), and NeMo Gym's loop that counts each
 * row's tokens, drops those over `max_context_tokens` and writes the rest as `json.dumps` lines.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { GymError } from "../../errors.ts";
import { hfDownload, readParquetRows } from "../../download/index.ts";
import { type Row, fileLabel, requireColumns } from "./_hub-rows.ts";
import { stringifyPython } from "../../metrics/pyjson.ts";
import { removeStaleTemps } from "../../runtime/files.ts";
import type { PrepareContext } from "./_prepare.ts";
import { capSummary, type TokenCounting } from "./_tokens.ts";

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

/** The rows of several Parquet files of a dataset repo, file after file (the order `load_dataset` reads them in), streamed. */
export async function* hubParquetFiles(context: PrepareContext, repoId: string, paths: readonly string[], required: string[]): AsyncGenerator<Row> {
  for (const path of paths) {
    const file = { repoId, path, revision: "main" };
    context.log(`Loading ${fileLabel(file)} from the Hugging Face Hub...`);
    const local = await hfDownload(file, { log: context.log });
    let first = true;
    for await (const row of readParquetRows(local, { pythonFloats: true })) {
      if (first) requireColumns([row], required, file);
      first = false;
      yield row;
    }
  }
}

/**
 * NeMo Gym's prepare loop: `toText(entry)` counted with `tokenizer_name` (`counting`, from `tokenCounting(args)`
 * before any download) (a list: the sum of its counts), entries over
 * `max_context_tokens` dropped, `toRow(entry, n)` written as one `json.dumps` line each, streamed to a temporary file
 * beside the output and renamed into place at the end (MRCR's output is gigabytes); logs the closing line.
 */
export async function writeCounted<T>(context: PrepareContext, counting: TokenCounting, entries: Iterable<T> | AsyncIterable<T>, toText: (entry: T) => string | string[], toRow: (entry: T, tokens: number) => Row, options: { ensureAscii: boolean; noun: string; extra?: () => string }): Promise<string> {
  const { tokenizer, cap, count } = counting;
  context.log(`Counting tokens with ${tokenizer}...`);
  let dropped = 0;
  let written = 0;
  await writeLinesAtomic(context.outputPath, async function* () {
    for await (const entry of entries) {
      const text = toText(entry);
      const tokens = Array.isArray(text) ? text.reduce((sum, t) => sum + count(t), 0) : count(text);
      if (cap !== null && tokens > cap) {
        dropped++;
        continue;
      }
      written++;
      yield `${stringifyPython(toRow(entry, tokens), { spaced: true, ensureAscii: options.ensureAscii })}\n`;
    }
  });
  context.log(`Wrote ${written} ${options.noun} to ${context.outputPath} (${capSummary(tokenizer, cap, dropped)}${options.extra?.() ?? ""})`);
  return context.outputPath;
}

/** Lines appended to `.<name>.<pid>.<time>.tmp` beside `target`, flushed, renamed over it; the temporary file removed on failure. */
async function writeLinesAtomic(target: string, lines: () => AsyncIterable<string>): Promise<void> {
  const dir = dirname(resolve(target));
  mkdirSync(dir, { recursive: true });
  removeStaleTemps(target);
  const tmp = join(dir, `.${basename(target)}.${process.pid}.${Date.now()}.tmp`);
  const fd = openSync(tmp, "w");
  try {
    for await (const line of lines()) writeSync(fd, line);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, target);
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    rmSync(tmp, { force: true });
    throw error;
  }
}
