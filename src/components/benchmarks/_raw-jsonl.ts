/** Shared by the ifeval and ifbench prepares: one raw JSONL file from GitHub, through the download layer, into the data folder. */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { downloadFile } from "../../download/index.ts";
import { GymError } from "../../errors.ts";
import type { PrepareContext } from "./_prepare.ts";

/** Downloads `url` (or `+prepare_script_args={url: …}`) beside the output as `fileName`; returns its rows with line numbers. */
export async function downloadRawJsonl(context: PrepareContext, url: string, fileName: string): Promise<{ row: Record<string, unknown>; line: number; path: string }[]> {
  const source = typeof context.args.url === "string" ? context.args.url : url;
  const path = join(dirname(context.outputPath), fileName);
  context.log(`Downloading ${fileName} from ${source} ...`);
  await downloadFile(source, path, { label: fileName, log: context.log });
  const rows: { row: Record<string, unknown>; line: number; path: string }[] = [];
  readFileSync(path, "utf8")
    .split("\n")
    .forEach((text, i) => {
      if (!text.trim()) return;
      let row: unknown;
      try {
        row = JSON.parse(text);
      } catch (error) {
        throw new GymError("E_INPUT_JSON", `${path}:${i + 1}: not JSON (${(error as Error).message}).`, { hint: "Delete the file and run gym eval prepare again." });
      }
      rows.push({ row: row as Record<string, unknown>, line: i + 1, path });
    });
  return rows;
}

/** The field a raw row must carry, or an error naming file, line and field. */
export function field(entry: { row: Record<string, unknown>; line: number; path: string }, name: string, check: (v: unknown) => boolean, expected: string): unknown {
  const value = entry.row[name];
  if (!check(value)) {
    throw new GymError("E_INPUT_SCHEMA", `${entry.path}:${entry.line}: field '${name}' should be ${expected} (got ${JSON.stringify(value) ?? "nothing"}).`, {
      hint: "The source file is not the expected upstream file: check the URL, delete the file and prepare again.",
    });
  }
  return value;
}
