/** `gym view bundle`: a static copy of the viewer (page, assets and the runs' data) that opens from file:// with no server. */
import * as fs from "node:fs";
import * as path from "node:path";
import { GymError } from "../errors.ts";
import { readRowTexts } from "../jsonl/row-index.ts";
import { assets } from "./_assets.ts";
import { plainColumns } from "./columns.ts";
import { compareView } from "./compare.ts";
import type { Run } from "./runs.ts";

/** Rows a bundle carries at most, in bytes: a browser holds them all in memory. */
export const MAX_BUNDLE_BYTES = 256 * 1024 * 1024;
/** Runs whose pairs are compared in advance (the page can compare only those). */
const COMPARED_RUNS = 8;

/** Writes the bundle into `outDir` (a new or empty folder, or an earlier bundle, which is replaced whole). */
export async function writeBundle(runs: Run[], outDir: string): Promise<{ files: number; bytes: number }> {
  checkTarget(outDir);
  await Promise.all(runs.map((r) => r.complete()));
  const total = runs.reduce((s, r) => s + (r.index?.size ?? 0), 0);
  if (total > MAX_BUNDLE_BYTES) {
    throw new GymError("E_TOO_LARGE", `The runs hold ${Math.round(total / 1048576)} MB of rows; a bundle carries at most ${MAX_BUNDLE_BYTES / 1048576} MB.`, {
      hint: "Bundle fewer runs (name the rollouts files), or use `gym view` for large runs.",
    });
  }
  const columns: Record<string, unknown> = {};
  const rows: Record<string, string[]> = {};
  for (const run of runs) {
    columns[run.id] = plainColumns(run.columns);
    rows[run.id] = Array.from(readRowTexts(run.index!), (r) => r.text);
  }
  const compare: Record<string, unknown> = {};
  const compared = runs.slice(0, COMPARED_RUNS);
  for (const a of compared) {
    for (const b of compared) {
      if (a !== b) compare[`${a.id}:${b.id}`] = compareView({ name: a.name, file: a.file, columns: a.columns }, { name: b.name, file: b.file, columns: b.columns });
    }
  }
  const data = { runs: runs.map((r) => ({ ...r.summary(), live: false })), columns, rows, compare };
  const files: Array<[string, string]> = [
    ["index.html", assets["index.html"]!.body],
    ["assets/style.css", assets["style.css"]!.body],
    ["assets/app.js", assets["app.js"]!.body],
    // JSON is valid JavaScript; in a script file of its own, row text cannot end the script early.
    ["assets/data.js", `window.GYM_BUNDLE = ${JSON.stringify(data)};\n`],
  ];
  const tmp = `${outDir.replace(/[\\/]+$/, "")}.${process.pid}.tmp`;
  fs.rmSync(tmp, { recursive: true, force: true });
  let bytes = 0;
  for (const [name, text] of files) {
    fs.mkdirSync(path.dirname(path.join(tmp, name)), { recursive: true });
    fs.writeFileSync(path.join(tmp, name), text);
    bytes += Buffer.byteLength(text);
  }
  const old = `${tmp}.old`;
  if (fs.existsSync(outDir)) fs.renameSync(outDir, old);
  fs.renameSync(tmp, outDir);
  fs.rmSync(old, { recursive: true, force: true });
  return { files: files.length, bytes };
}

/** A bundle replaces only an empty folder or an earlier bundle, never other files. */
function checkTarget(outDir: string): void {
  const stat = fs.statSync(outDir, { throwIfNoEntry: false });
  if (!stat) return;
  if (!stat.isDirectory()) throw new GymError("E_OUTPUT_EXISTS", `--output-dir ${outDir} is a file.`, { hint: "Name a new folder." });
  const names = fs.readdirSync(outDir);
  const isBundle = names.every((n) => n === "index.html" || n === "assets") && fs.existsSync(path.join(outDir, "assets", "data.js"));
  if (names.length && !isBundle) {
    throw new GymError("E_OUTPUT_EXISTS", `--output-dir ${outDir} holds other files; a bundle would replace them.`, { hint: "Name a new or empty folder (an earlier bundle there is replaced)." });
  }
}
