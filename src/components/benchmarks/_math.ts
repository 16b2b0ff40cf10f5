/**
 * What the math benchmarks' prepare steps share (NeMo Gym's benchmarks/<name>/prepare.py): a Hugging Face
 * dataset's train split read from the Hub's Parquet conversion, a raw JSONL file fetched by URL, and lines
 * written the way Python's json.dumps writes them (", " and ": ", ASCII escapes unless told otherwise).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cacheDir, downloadFile, hfDownload, readParquetRows } from "../../download/index.ts";
import { formatPyFloat, stringifyPython } from "../../metrics/pyjson.ts";
import { writeFileAtomic } from "../../runtime/files.ts";
import type { PrepareContext } from "./_prepare.ts";

/** The split `load_dataset(repo, split=...)` reads, as the Hub's Parquet conversion stores it. */
export function hubSplitFile(split = "train"): { path: string; revision: string } {
  return { path: `default/${split}/0000.parquet`, revision: "refs/convert/parquet" };
}

/** Python's str() of a cell: ints as digits, floats as repr, strings as they are. */
export function pyStr(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : formatPyFloat(value);
  if (typeof value === "boolean") return value ? "True" : "False";
  if (value === null || value === undefined) return "None";
  return String(value);
}

/** json.dumps(row) lines, written whole (a temporary file renamed into place). */
export function writePythonJsonl(path: string, rows: Iterable<Record<string, unknown>>, ensureAscii = true): number {
  let text = "";
  let count = 0;
  for (const row of rows) {
    text += `${stringifyPython(row, { spaced: true, ensureAscii })}\n`;
    count++;
  }
  writeFileAtomic(path, text);
  return count;
}

/** `{"question": problem, "expected_answer": str(answer)}` for every row of a Hub dataset's train split (aime, hmmt, apex). */
export async function prepareProblemAnswer(context: PrepareContext, repoId: string): Promise<string> {
  context.log(`Loading ${repoId} from the Hugging Face Hub...`);
  const file = await hfDownload({ repoId, ...hubSplitFile("train") }, { log: context.log });
  const rows: Record<string, unknown>[] = [];
  for await (const row of readParquetRows(file, { columns: ["problem", "answer"] })) rows.push({ question: row.problem, expected_answer: pyStr(row.answer) });
  const count = writePythonJsonl(context.outputPath, rows);
  context.log(`Wrote ${count} problems to ${context.outputPath}`);
  return context.outputPath;
}

/** The local path of a file fetched by URL, cached under <cache>/url/<host>/<path> (downloaded once, resumable). */
export async function fetchFile(url: string, context: PrepareContext): Promise<string> {
  const u = new URL(url);
  const dest = join(cacheDir(), "url", u.host, ...u.pathname.split("/").filter(Boolean));
  if (!existsSync(dest)) await downloadFile(url, dest, { log: context.log });
  return dest;
}

/** The text of a file fetched by URL (GitHub raw files), cached as fetchFile does. */
export async function fetchText(url: string, context: PrepareContext): Promise<string> {
  return readFileSync(await fetchFile(url, context), "utf8");
}

/** json.loads of every line (Python's json accepts the same documents). */
export function jsonLines(text: string): Record<string, unknown>[] {
  return text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as Record<string, unknown>);
}
