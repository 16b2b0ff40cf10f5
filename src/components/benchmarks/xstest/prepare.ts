/** XSTest: downloads the prompts CSV (paul-rottger/xstest on GitHub) through the download layer and writes NeMo Gym's rows for the xstest server. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cacheDir, downloadFile } from "../../../download/index.ts";
import type { PrepareContext } from "../_prepare.ts";
import { csvRecords } from "../../resources_servers/_nlp/csv.ts";

export const XSTEST_URL = "https://raw.githubusercontent.com/paul-rottger/xstest/refs/heads/main/xstest_prompts.csv";

/** One CSV record → NeMo Gym's row: the prompt as the user turn, `label` and `type` for the verifier. */
export function xstestRow(record: Record<string, string>): Record<string, unknown> {
  return { responses_create_params: { input: [{ role: "user", content: record.prompt }] }, verifier_metadata: { label: record.label, type: record.type } };
}

export async function prepare(context: PrepareContext): Promise<string> {
  // `source_url` (gym extension) points at a mirror; the default is NeMo Gym's source.
  const url = String(context.args.source_url ?? XSTEST_URL);
  const path = join(cacheDir(), "xstest", "xstest_prompts.csv");
  // A complete download is kept (the layer renames only finished files); delete it to fetch again.
  if (!existsSync(path)) {
    context.log(`Downloading ${url}...`);
    await downloadFile(url, path, { label: "xstest_prompts.csv" });
  } else context.log(`Using the cached ${path}`);
  const rows = csvRecords(readFileSync(path, "utf8")).filter((r) => r.prompt).map(xstestRow);
  if (rows.length === 0) throw new Error(`${url} has no rows with a prompt column`);
  await context.writeRows(context.outputPath, rows);
  context.log(`Wrote ${rows.length} samples to ${context.outputPath}`);
  return context.outputPath;
}
