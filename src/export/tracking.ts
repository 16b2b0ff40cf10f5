/** `gym eval export mlflow|wandb`: a finished run's saved config, aggregate metrics and rollouts, sent once, with a receipt. */
import { existsSync, readFileSync, statSync } from "node:fs";
import { GymError } from "../errors.ts";
import { parseYaml } from "../config/yaml.ts";
import { readJsonl } from "../jsonl/read.ts";
import { runPaths, type RunPaths } from "../outputs/paths.ts";
import { BackendError, flatMetrics, rolloutForExport, ROLLOUT_PROJECTION_VERSION, type TrackingBackend, type TrackingRun } from "./backend.ts";
import { checkReceipt, sentFiles, writeReceipt, type Receipt } from "./receipt.ts";
import { trackerBackend, type Tracker } from "./settings.ts";
import { costMetrics } from "./cost.ts";

export interface TrackingExportOptions {
  tracker: Tracker;
  rolloutsPath: string;
  /** The export command's own keys (+key=value, env.yaml): backend settings, `upload_rollouts`. */
  keys: Record<string, unknown>;
  env?: Record<string, string | undefined>;
  log?: (line: string) => void;
}

export type TrackingExportResult = { status: "exported" | "skipped"; receipt: Receipt };

/** The run's files that an export needs, checked: the saved config, aggregate metrics newer than the rollouts. */
export function runFilesForExport(rolloutsPath: string, keys: Record<string, unknown>): { paths: RunPaths; config: Record<string, unknown>; uploadRollouts: boolean } {
  const paths = runPaths(rolloutsPath);
  if (!existsSync(paths.resolvedConfig)) {
    throw new GymError("E_INPUT_NOT_FOUND", `The run's saved config ${paths.resolvedConfig} is missing, so the run cannot be exported.`, { hint: "`gym eval run` writes it beside the rollouts; a run from before the saved config existed cannot be exported." });
  }
  if (!existsSync(paths.aggregateMetrics)) {
    throw new GymError("E_INPUT_NOT_FOUND", `The run's aggregate metrics ${paths.aggregateMetrics} are missing.`, { hint: `Make them with \`gym eval aggregate --input ${paths.rollouts} --output ${paths.rollouts}\` (or finish the run with \`gym eval run … --resume\`).` });
  }
  const config = (parseYaml(readFileSync(paths.resolvedConfig, "utf8"), paths.resolvedConfig) ?? {}) as Record<string, unknown>;
  const override = keys.upload_rollouts;
  const uploadRollouts = override === undefined ? config.upload_rollouts !== false : override === true || override === "true";
  if (uploadRollouts) {
    if (!existsSync(paths.rollouts)) throw new GymError("E_INPUT_NOT_FOUND", `The rollouts file ${paths.rollouts} is missing.`, { hint: "Pass +upload_rollouts=false to export the config and metrics alone." });
    if (statSync(paths.aggregateMetrics).mtimeMs < statSync(paths.rollouts).mtimeMs) {
      throw new GymError("E_CHECK_FAILED", `${paths.aggregateMetrics} is older than ${paths.rollouts}: the metrics do not describe these rollouts.`, { hint: `Recompute them: \`gym eval aggregate --input ${paths.rollouts} --output ${paths.rollouts}\`.` });
    }
  }
  return { paths, config, uploadRollouts };
}

/** Sends everything a run logged live would have; a matching receipt skips it; a failure leaves no receipt. */
export async function exportToTracker(o: TrackingExportOptions): Promise<TrackingExportResult> {
  const { paths, config, uploadRollouts } = runFilesForExport(o.rolloutsPath, o.keys);
  const files = sentFiles(paths, uploadRollouts);
  const existing = checkReceipt(paths, o.tracker, files, uploadRollouts);
  if (existing) return { status: "skipped", receipt: existing };
  const backend = trackerBackend(o.tracker, o.keys, o.env);
  const aggregate = JSON.parse(readFileSync(paths.aggregateMetrics, "utf8"));
  const run = await sendRun(backend, config, { ...flatMetrics(aggregate), ...costMetrics(paths.rollouts) }, uploadRollouts ? paths.rollouts : undefined, o.log);
  const receipt: Receipt = { version: 1, exporter: o.tracker, backend_run: { id: run.id, ...(run.url ? { url: run.url } : {}) }, files, rollouts_uploaded: uploadRollouts, rollout_projection_version: ROLLOUT_PROJECTION_VERSION };
  writeReceipt(paths, receipt);
  return { status: "exported", receipt };
}

/** Opens a run, logs config, metrics and (from `rolloutsPath`) rollouts, closes it; on failure marks it failed and throws. */
export async function sendRun(backend: TrackingBackend, config: Record<string, unknown>, metrics: Record<string, unknown>, rolloutsPath: string | undefined, log = (_: string) => {}): Promise<TrackingRun> {
  let run: TrackingRun | undefined;
  try {
    run = await backend.open();
    log(`${backend.name}: run ${run.id}${run.url ? ` (${run.url})` : ""}`);
    await run.logConfig(config);
    await run.logMetrics(metrics);
    if (rolloutsPath) await sendRunRollouts(run, rolloutsPath);
    await run.close(true);
    return run;
  } catch (error) {
    if (run) await run.close(false).catch(() => {});
    throw asGymError(backend.name, error);
  }
}

/** Logs a rollouts file's rows (projection 1) as the run's rollouts table. */
export async function sendRunRollouts(run: TrackingRun, path: string): Promise<void> {
  const rows: Record<string, unknown>[] = [];
  for await (const record of readJsonl(path)) rows.push(rolloutForExport(record.value as Record<string, unknown>));
  await run.logRollouts(rows);
}

function asGymError(backend: string, error: unknown): GymError {
  if (error instanceof GymError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const auth = error instanceof BackendError && (error.status === 401 || error.status === 403);
  return new GymError("E_HTTP", `Export to ${backend} failed: ${message}`, {
    hint: auth ? "The backend rejected the credentials: check the API key or token (nothing was recorded as exported; retry once fixed)." : "Nothing was recorded as exported: retry the same command once the backend answers.",
    cause: error,
  });
}
