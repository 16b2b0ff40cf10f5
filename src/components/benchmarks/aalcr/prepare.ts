/**
 * aalcr: ArtificialAnalysis/AA-LCR's test split with its documents (`extracted_text/AA-LCR_extracted-text.zip`), as
 * NeMo Gym's benchmarks/aalcr/prepare.py writes it: each row's documents joined into the prompt (the file names
 * mapped to the archive's encoding artifacts), the question, answer and source fields, and the input-token band.
 */
import { GymError } from "../../../errors.ts";
import { hfDownload } from "../../../download/index.ts";
import { readZipFiles } from "../../../download/zip.ts";
import { decodeUtf8IgnoringErrors } from "../../../text/utf8.ts";
import { hubSplitFile, writePythonJsonl } from "../_math.ts";
import { hubRows, requireColumns } from "../_hub-rows.ts";
import type { PrepareContext } from "../_prepare.ts";

export const HF_REPO_ID = "ArtificialAnalysis/AA-LCR";
export const DOCUMENTS = "extracted_text/AA-LCR_extracted-text.zip";
const COLUMNS = ["document_category", "document_set_id", "question_id", "question", "answer", "data_source_filenames", "data_source_urls", "input_tokens"];

/** `_dirty_filename`: the clean name as the archive spells it. */
export function dirtyFilename(name: string): string {
  const replacements: [string, string][] = [["'", "ΓÇÖ"], ["\u2019", "ΓÇÖ"], ["\u2018", "ΓÇÖ"], ["—", "ΓÇö"], ["–", "ΓÇô"], ["ş", "s╠º"]];
  return replacements.reduce((s, [clean, artifact]) => s.replaceAll(clean, artifact), name);
}

export function tokensBand(tokens: number): string {
  return tokens < 80000 ? "<80k" : tokens < 100000 ? "80k-100k" : tokens < 110000 ? "100k-110k" : tokens < 128000 ? "110k-128k" : "128k+";
}

export function aalcrRow(row: Record<string, unknown>, documents: Map<string, string>): Record<string, unknown> {
  const texts = String(row.data_source_filenames).split(";").map((document) => {
    const path = dirtyFilename(`lcr/${row.document_category}/${row.document_set_id}/${document}`);
    const text = documents.get(path);
    if (text === undefined) throw new GymError("E_INPUT_SCHEMA", `AA-LCR question ${row.question_id}: the document '${path}' is not in ${DOCUMENTS}.`, { hint: "Delete the cached archive and prepare again; NeMo Gym's prepare.py fails here too (KeyError)." });
    return text;
  });
  const documentsText = texts.map((doc, i) => `BEGIN DOCUMENT ${i + 1}:\n${doc}\nEND DOCUMENT ${i + 1}`).join("\n\n");
  const prompt = `BEGIN INPUT DOCUMENTS\n\n${documentsText}\n\nEND INPUT DOCUMENTS\n\nAnswer the following question using the input documents provided above.\n\nSTART QUESTION\n\n${row.question}\n\nEND QUESTION\n`;
  return {
    responses_create_params: { input: [{ role: "user", content: prompt }] },
    document_category: row.document_category,
    document_set_id: row.document_set_id,
    question_id: row.question_id,
    question: row.question,
    answer: row.answer,
    data_source_filenames: row.data_source_filenames,
    data_source_urls: row.data_source_urls,
    input_tokens: row.input_tokens,
    input_tokens_band: tokensBand(Number(row.input_tokens)),
  };
}

export async function prepare(context: PrepareContext): Promise<string> {
  const split = { repoId: HF_REPO_ID, ...hubSplitFile("test") };
  const rows = await hubRows(context, split);
  requireColumns(rows, COLUMNS, split);
  const archive = await hfDownload({ repoId: HF_REPO_ID, path: DOCUMENTS, revision: "main" }, { log: context.log });
  const documents = new Map<string, string>();
  for (const entry of readZipFiles(archive, (name) => name.endsWith(".txt"))) documents.set(entry.name, decodeUtf8IgnoringErrors(entry.data));
  context.log(`Loaded ${documents.size} documents.`);
  const count = writePythonJsonl(context.outputPath, rows.map((row) => aalcrRow(row, documents)));
  context.log(`Wrote ${count} samples to ${context.outputPath}`);
  return context.outputPath;
}
