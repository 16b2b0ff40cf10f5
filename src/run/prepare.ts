/** The run preamble: a fresh run commits its inventory (materialized inputs, then the manifest); a resume validates before touching anything. */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { GymError } from "../errors.ts";
import { readRows, type Row } from "../jsonl/read.ts";
import { toJsonLine } from "../jsonl/write.ts";
import { readBytes } from "../runtime/files.ts";
import { identityKey } from "../outputs/paths.ts";
import type { Materialization, MaterializedRows } from "../stages/materialize.ts";
import { sha256 } from "../outputs/digest.ts";
import { writeFileAtomic } from "../runtime/files.ts";
import { type InputsFile, inputsUnchanged, type InputsPass, MaterializedDigest, passInputs, readInputRows, writeInputs } from "./inputs.ts";
import { newManifest, readManifest, writeManifest, type RunManifest } from "./manifest.ts";
import type { RunPaths } from "../outputs/paths.ts";
import { repairTornTail } from "../outputs/repair.ts";
import { changedSettings, configDigest, type RunSettings } from "./settings.ts";
import { traceMemory } from "../runtime/memory.ts";

export interface Inventory {
  manifest: RunManifest;
  /** The identity (`task-rollout`) of every row this run covers, in the materialized order. */
  ids: string[];
  /** Distinct tasks among them. */
  tasks: number;
  /** The rows this run dispatches from, read back from the materialized inputs file one at a time. */
  rows: () => Generator<Row>;
  resumed: boolean;
}

export interface PrepareOptions {
  paths: RunPaths;
  inputPath: string;
  materialized: Materialization;
  settings: RunSettings;
  resume: boolean;
  allowUnsafeResume: boolean;
  warn: (message: string) => void;
  info: (message: string) => void;
}

/** sha256 of a file's bytes (streamed). */
export async function fileDigest(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of readBytes(path, { reuseBuffer: true })) hash.update(chunk);
  return hash.digest("hex");
}

/** sha256 of the canonical JSON of the row list (the manifest's materialized_digest). */
export function materializedDigest(rows: Row[]): string {
  const digest = new MaterializedDigest();
  for (const row of rows) digest.add(row);
  return digest.hex();
}

/** The current run's digests; the materialized one is made in the pass that needs it (write, or resume check). */
type Current = Omit<Parameters<typeof newManifest>[0], "materialized_digest"> & { key: string };

export async function prepareRun(options: PrepareOptions): Promise<Inventory> {
  const { paths } = options;
  const sourceDigest = await fileDigest(options.inputPath);
  const current: Current = {
    source_digest: sourceDigest,
    config_digest: configDigest(options.settings),
    semantic_settings: options.settings.semantic,
    operational_settings: options.settings.operational,
    key: options.materialized.key(sourceDigest),
  };
  if (options.resume) {
    const saved = readManifest(paths.manifest);
    if (saved) return resumeRun(options, saved, current);
    if (fs.existsSync(paths.materializedInputs) && (hasBytes(paths.rollouts) || hasBytes(paths.failures))) {
      throw new GymError("E_RESUME_DRIFT", `Cannot resume ${paths.rollouts}: it has materialized inputs but no run manifest (${paths.manifest}), so the saved rollouts' identity cannot be verified.`, {
        hint: "Start a fresh run without --resume (this clears the previous outputs), or write to another --output.",
      });
    }
    // A fresh run clears the rollouts before it writes the inputs and then the manifest: inputs without a manifest
    // and without any rollout mean it was stopped inside that preamble, before dispatching anything.
    const why = fs.existsSync(paths.materializedInputs) ? "the previous run was stopped before its first rollout" : "no manifest, no materialized inputs";
    options.info(`Nothing to resume at ${paths.rollouts} (${why}): starting a fresh run.`);
  }
  return freshRun(options, current);
}

function hasBytes(path: string): boolean {
  try {
    return fs.statSync(path).size > 0;
  } catch {
    return false;
  }
}

async function freshRun(options: PrepareOptions, current: Current): Promise<Inventory> {
  const { paths } = options;
  const { key, ...digests } = current;
  const rows = await options.materialized.open(); // validates the whole input before anything is removed
  traceMemory("validated");
  // The manifest goes first and comes back last: a crash in between leaves no manifest, so no resume trusts a half-made inventory.
  for (const file of [paths.manifest, paths.rollouts, paths.failures, paths.aggregateMetrics, paths.batchStatus, paths.attempts, paths.resumeDrift, paths.materializedIds, paths.outcomeIndex]) fs.rmSync(file, { force: true });
  const written = await writeInputs(paths.materializedInputs, rows);
  traceMemory("inputs written");
  const ids = written.idsText;
  writeFileAtomic(paths.materializedIds, ids);
  const file: InputsFile = { ...written.file, key, rows: written.ids.length, ids_sha256: sha256(ids) };
  const manifest = { ...newManifest({ ...digests, materialized_digest: written.digest }), materialized_file: file };
  writeManifest(paths.manifest, manifest);
  return { manifest, ids: written.ids, tasks: written.tasks, rows: () => readInputRows(paths.materializedInputs), resumed: false };
}

/**
 * The saved inventory's identities without materializing anything: when the current input and settings have the
 * key the run was materialized under (same input bytes, same options, same materialize), its rows are the saved
 * ones, so only the files need checking (the inputs file still the recorded one, the identities file hashing as
 * recorded). Undefined otherwise: the current rows are then made and compared.
 */
function savedIdentities(paths: RunPaths, saved: RunManifest, key: string): string[] | undefined {
  const file = saved.materialized_file;
  if (!file?.key || file.key !== key || file.ids_sha256 === undefined) return undefined;
  const stat = fs.statSync(paths.materializedInputs, { throwIfNoEntry: false });
  if (!stat || stat.size !== file.size || stat.mtimeMs !== file.mtime_ms) return undefined;
  let text: string;
  try {
    text = fs.readFileSync(paths.materializedIds, "utf8");
  } catch {
    return undefined;
  }
  if (sha256(text) !== file.ids_sha256) return undefined;
  const ids = text.split("\n");
  ids.pop();
  return ids.length === file.rows ? ids : undefined;
}

/**
 * Whether the saved materialized inputs are what the current settings materialize, and unedited: the current rows'
 * JSON lines hash to the bytes the manifest recorded, and the file still has those bytes. Then neither the saved
 * rows nor the canonical digests need computing. Undefined when that does not hold (or the manifest predates the
 * record): the full comparison then says what differs.
 */
async function sameInputs(rows: MaterializedRows, paths: RunPaths, saved: RunManifest): Promise<InputsPass | undefined> {
  const file = saved.materialized_file;
  if (!file) return undefined;
  const pass = await passInputs(rows);
  if (pass.sha256 !== file.sha256 || !(await inputsUnchanged(paths.materializedInputs, file))) return undefined;
  return pass;
}

async function resumeRun(options: PrepareOptions, saved: RunManifest, current: Current): Promise<Inventory> {
  const { paths } = options;
  if (!fs.existsSync(paths.materializedInputs)) {
    throw new GymError("E_RESUME_DRIFT", `Cannot resume: the run manifest exists but ${paths.materializedInputs} is missing.`, {
      hint: "Restore the file, or start a fresh run without --resume.",
    });
  }
  const problems: string[] = [];
  if (saved.legacy_import) problems.push("the saved manifest is a legacy import");
  if (saved.identity_overridden) problems.push("the run's identity was overridden before (allow_unsafe_resume)");
  let ids = savedIdentities(paths, saved, current.key);
  let tasks = 0;
  let materializedDigestNow = saved.materialized_digest;
  const rows = ids ? undefined : await options.materialized.open();
  const same = rows ? await sameInputs(rows, paths, saved) : undefined;
  if (same) ({ ids, tasks } = same);
  else if (rows) {
    const savedRows: Row[] = [];
    for await (const row of readRows(paths.materializedInputs)) savedRows.push(row);
    if (materializedDigest(savedRows) !== saved.materialized_digest) problems.push(`${paths.materializedInputs} no longer matches the manifest (edited after the run started)`);
    ids = savedRows.map(identityKey);
    tasks = new Set(savedRows.map((r) => r._ng_task_index)).size;
    materializedDigestNow = (await passInputs(rows, { canonical: true })).digest!;
  }
  if (current.source_digest !== saved.source_digest) problems.push("the input dataset changed");
  const semantic = changedSettings(saved.semantic_settings, current.semantic_settings);
  if (materializedDigestNow !== saved.materialized_digest && semantic.length === 0) problems.push("the materialized rows differ (limit, repeats, prompt or routing)");
  if (semantic.length > 0) problems.push(`settings that change results differ: ${semantic.join(", ")}`);
  let manifest = saved;
  if (problems.length > 0) {
    if (!options.allowUnsafeResume) {
      throw new GymError("E_RESUME_DRIFT", `Refusing to resume ${paths.rollouts}:\n  - ${problems.join("\n  - ")}`, {
        hint: "Resume with the same data and settings, start a fresh run without --resume, or pass +allow_unsafe_resume=true to continue with the saved inputs anyway.",
      });
    }
    options.warn(`Resuming despite: ${problems.join("; ")} (allow_unsafe_resume=true; the saved inputs are used).`);
    manifest = { ...manifest, identity_overridden: true };
  }
  const operational = changedSettings(saved.operational_settings, current.operational_settings);
  if (operational.length > 0) {
    options.warn(`Resuming with changed operational settings: ${operational.join(", ")}.`);
    const line = { at: new Date().toISOString().replace(/\.\d+Z$/, "Z"), run_id: saved.run_id, operational_keys: operational, semantic_keys: [] };
    fs.appendFileSync(paths.resumeDrift, toJsonLine(line));
    manifest = { ...manifest, operational_settings: current.operational_settings };
  }
  for (const file of [paths.rollouts, paths.failures]) {
    const dropped = repairTornTail(file);
    if (dropped > 0) options.warn(`Repaired ${file}: dropped a torn last line (${dropped} bytes) left by an interrupted write.`);
  }
  writeManifest(paths.manifest, manifest);
  return { manifest, ids: ids!, tasks, rows: () => readInputRows(paths.materializedInputs), resumed: true };
}
