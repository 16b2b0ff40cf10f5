/** Reading saved run progress for `gym eval status`: find the status files of a target, load them with their export receipts and run manifest. */
import * as fs from "node:fs";
import { basename, dirname, join } from "node:path";
import { GymError } from "../errors.ts";
import { readJsonFile } from "../jsonl/json-file.ts";
import { runPaths } from "../outputs/paths.ts";

/** The legacy name a manifest-backed (batch) run keeps; every other status file is `<stem>_batch_status.json`. */
export const BATCH_STATUS_FILE = "batch_status.json";
const STEM_STATUS_SUFFIX = "_batch_status.json";

/** What an exporter left beside the output: a receipt (`<stem>_<exporter>_export_done`) and/or a run id (`<stem>_<exporter>_run_id`). */
export interface ExportReceipt {
  completed: boolean;
  run_id?: string;
}

/** The run manifest beside a stem status (`<stem>_manifest.json`) and its resume-drift journal. */
export interface RunManifestInfo {
  path: string;
  run_id?: string;
  /** Lines in `<stem>_manifest.resume-drift.jsonl` (0 when the file is absent). */
  resume_drift_count: number;
}

/** One status file as read: its saved document (or why it could not be read) plus what sits beside it. */
export interface StatusEntry {
  path: string;
  /** `<stem>` for a stem status file; undefined for the legacy `batch_status.json`. */
  stem?: string;
  status?: Record<string, unknown>;
  /** Why the file could not be read (damaged JSON, not an object, permission). */
  unavailable?: string;
  export: Record<string, ExportReceipt>;
  runManifest?: RunManifestInfo;
}

/**
 * The status files a target names. A directory: every `*_batch_status.json` (shards included) and the
 * legacy `batch_status.json`, sorted. A file: itself when it is a status file, else `<stem>_batch_status.json`
 * beside it (a rollouts path; an extension of NeMo Gym, which takes directories only).
 */
export function findStatusFiles(target: string): string[] {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch {
    // A run with no success yet has a status but no rollouts file: the rollouts path still names its stem.
    if (target.endsWith(".jsonl") && fs.existsSync(runPaths(target).batchStatus)) return [runPaths(target).batchStatus];
    throw new GymError("E_INPUT_NOT_FOUND", `Run directory not found: ${target} is not a directory or a file.`, {
      hint: `Pass the directory that holds <stem>${STEM_STATUS_SUFFIX} or ${BATCH_STATUS_FILE} (the folder of --output), or the rollouts .jsonl file itself.`,
      exitCode: 1,
    });
  }
  if (stat.isDirectory()) {
    const names = fs.readdirSync(target).filter((name) => name === BATCH_STATUS_FILE || (name.endsWith(STEM_STATUS_SUFFIX) && name.length > STEM_STATUS_SUFFIX.length));
    const files = names.sort().map((name) => join(target, name)).filter((file) => fs.statSync(file).isFile());
    if (files.length === 0) {
      throw new GymError("E_INPUT_NOT_FOUND", `No run status in ${target}: found no *${STEM_STATUS_SUFFIX} and no ${BATCH_STATUS_FILE}.`, {
        hint: "Status files are written by `gym eval run` beside its --output file; pass the folder of --output (or the rollouts file).",
        exitCode: 1,
      });
    }
    return files;
  }
  const name = basename(target);
  if (name === BATCH_STATUS_FILE || name.endsWith(STEM_STATUS_SUFFIX)) return [target];
  const beside = runPaths(target).batchStatus;
  if (!fs.existsSync(beside)) {
    throw new GymError("E_INPUT_NOT_FOUND", `No run status for ${target}: ${beside} does not exist.`, {
      hint: "gym eval status reads <stem>_batch_status.json beside a rollouts file; pass the run directory to list every status file in it.",
      exitCode: 1,
    });
  }
  return [beside];
}

/** Reads one status file with its export receipts and, for a stem status, the run manifest beside it. Never throws for a damaged file. */
export function readStatusEntry(path: string): StatusEntry {
  const name = basename(path);
  const stem = name === BATCH_STATUS_FILE ? undefined : name.slice(0, -STEM_STATUS_SUFFIX.length);
  const entry: StatusEntry = { path, stem, export: {} };
  try {
    const parsed = readJsonFile(path, "batch status");
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) entry.unavailable = "not a JSON object";
    else entry.status = parsed as Record<string, unknown>;
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = (error as Error).message ?? String(error);
    entry.unavailable = code === "E_INPUT_JSON" ? `invalid JSON (${message.replace(`${path}:`, "at ").replace(": invalid JSON: ", ": ")})` : message;
  }
  // A manifest-backed run's output is `rollouts.jsonl` (gym eval submit's +output_jsonl_fpath), so its receipts carry that stem.
  entry.export = exportReceipts(dirname(path), stem ?? "rollouts");
  if (stem !== undefined) entry.runManifest = runManifestInfo(join(dirname(path), `${stem}.jsonl`));
  return entry;
}

/** Exporter receipts for one output stem, keyed by exporter, sorted. Exporter names hold no `_`, so a longer stem is never mistaken for an exporter. */
export function exportReceipts(dir: string, stem: string): Record<string, ExportReceipt> {
  const found = new Map<string, ExportReceipt>();
  const pattern = new RegExp(`^${escapeRegExp(stem)}_([A-Za-z0-9-]+)_(export_done|run_id)$`);
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return {};
  }
  for (const name of names.sort()) {
    const match = pattern.exec(name);
    if (!match) continue;
    const exporter = match[1]!;
    const receipt = found.get(exporter) ?? { completed: false };
    if (match[2] === "export_done") receipt.completed = true;
    else {
      const runId = readText(join(dir, name))?.trim();
      if (runId) receipt.run_id = runId;
    }
    found.set(exporter, receipt);
  }
  return Object.fromEntries(found);
}

/** The run id of `<stem>_manifest.json` and the number of recorded resume drifts, when the manifest exists. */
export function runManifestInfo(rolloutsPath: string): RunManifestInfo | undefined {
  const paths = runPaths(rolloutsPath);
  const text = readText(paths.manifest);
  if (text === undefined) return undefined;
  const info: RunManifestInfo = { path: paths.manifest, resume_drift_count: 0 };
  try {
    const manifest = JSON.parse(text) as { run_id?: unknown };
    if (typeof manifest?.run_id === "string") info.run_id = manifest.run_id;
  } catch {
    // A damaged manifest still shows as present; `gym eval run --resume` reports the damage.
  }
  const drift = readText(paths.resumeDrift);
  if (drift !== undefined) info.resume_drift_count = drift.split("\n").filter((line) => line.trim() !== "").length;
  return info;
}

/** Every status a target names, read. */
export function readStatusTarget(target: string): StatusEntry[] {
  return findStatusFiles(target).map(readStatusEntry);
}

/** The `--json` document: status path → saved status plus `export` (and `run_manifest` when a run manifest is beside it). */
export function statusJson(entries: StatusEntry[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const entry of entries) {
    const body: Record<string, unknown> = entry.status ? { ...entry.status } : { unavailable: entry.unavailable };
    body.export = entry.export;
    if (entry.runManifest) body.run_manifest = entry.runManifest;
    out[entry.path] = body;
  }
  return out;
}

function readText(path: string): string | undefined {
  try {
    return fs.readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
