/** Writes a LiveCodeBench window (a release's files, filtered by contest date) as code_gen rows. */
import type { PrepareContext } from "../_prepare.ts";
import { livecodebenchRow, releaseFiles } from "./rows.ts";

export const LCB_REPO = "livecodebench/code_generation_lite";

/** Each upstream line, in file order (release_vN's files, then each file's lines). */
export async function* releaseExamples(context: PrepareContext, release: string): AsyncGenerator<Record<string, unknown>> {
  for (const file of releaseFiles(release)) {
    context.log(`Downloading ${LCB_REPO}/${file}...`);
    const text = await context.download(LCB_REPO, file, { repoType: "datasets", revision: String(context.args.revision ?? "main") });
    for (const line of text.split("\n")) if (line.trim()) yield JSON.parse(line);
  }
}

/** NeMo Gym's `prepare_from_hf_raw(output, release, date_from, date_to)`. */
export async function prepareWindow(context: PrepareContext, release: string, from: string, to: string): Promise<string> {
  const rows: Record<string, unknown>[] = [];
  for await (const example of releaseExamples(context, release)) {
    const row = livecodebenchRow(example, { from, to });
    if (row) rows.push(row);
  }
  await context.writeRows(context.outputPath, rows);
  context.log(`Wrote ${rows.length} problems to ${context.outputPath}`);
  return context.outputPath;
}
