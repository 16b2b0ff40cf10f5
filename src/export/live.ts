/**
 * Live tracking for `gym eval run +wandb_project=… / +mlflow_tracking_uri=…`: best effort. The run opens when
 * collection starts (`<stem>_<exporter>_run_id` written, config logged) and gets the metrics and rollouts at the end;
 * a failing tracking server is reported and never fails the evaluation. When every upload landed, the receipt is
 * written (never replacing one), so a later `gym eval export` of the same run is skipped.
 */
import { existsSync, readFileSync } from "node:fs";
import { writeFileAtomic } from "../runtime/files.ts";
import type { RunPaths } from "../outputs/paths.ts";
import { flatMetrics, ROLLOUT_PROJECTION_VERSION, type TrackingRun } from "./backend.ts";
import { receiptPath, runIdPath, sentFiles, writeReceipt } from "./receipt.ts";
import { mentioned, missingSettings, trackerBackend, TRACKERS, type Tracker } from "./settings.ts";
import { runFilesForExport, sendRunRollouts } from "./tracking.ts";
import { costMetrics } from "./cost.ts";

export interface LiveTracking {
  /** After collection: metrics and rollouts, then close; returns the lines to report. */
  finish(ok: boolean): Promise<void>;
}

/** Opens every tracker the run's config fully names; a half-named one is reported, not ignored. */
export async function startLiveTracking(keys: Record<string, unknown>, maskedConfig: Record<string, unknown>, paths: RunPaths, warn: (line: string) => void, env = process.env): Promise<LiveTracking> {
  const open: { tracker: Tracker; run: TrackingRun; failed: boolean }[] = [];
  for (const tracker of TRACKERS) {
    if (!mentioned(tracker, keys)) continue;
    const missing = missingSettings(tracker, keys, env);
    if (missing.length) {
      warn(`${label(tracker)} live tracking is off: it also needs ${missing.map((k) => `+${k}=…`).join(", ")}. The evaluation runs untracked; \`gym eval export ${tracker}\` can send it afterwards.`);
      continue;
    }
    try {
      const run = await trackerBackend(tracker, keys, env).open();
      writeFileAtomic(runIdPath(paths, tracker), `${run.id}\n`);
      await run.logConfig(maskedConfig);
      open.push({ tracker, run, failed: false });
    } catch (error) {
      warn(`${label(tracker)} live tracking failed to start (${(error as Error).message}); the evaluation goes on untracked.`);
    }
  }
  return {
    async finish(ok) {
      for (const entry of open) {
        try {
          const { uploadRollouts } = runFilesForExport(paths.rollouts, keys);
          const metrics = { ...(existsSync(paths.aggregateMetrics) ? flatMetrics(JSON.parse(readFileSync(paths.aggregateMetrics, "utf8"))) : {}), ...costMetrics(paths.rollouts) };
          await entry.run.logMetrics(metrics);
          if (uploadRollouts) await sendRunRollouts(entry.run, paths.rollouts);
          await entry.run.close(ok);
          if (ok && !existsSync(receiptPath(paths, entry.tracker))) {
            writeReceipt(paths, { version: 1, exporter: entry.tracker, backend_run: { id: entry.run.id, ...(entry.run.url ? { url: entry.run.url } : {}) }, files: sentFiles(paths, uploadRollouts), rollouts_uploaded: uploadRollouts, rollout_projection_version: ROLLOUT_PROJECTION_VERSION });
          }
        } catch (error) {
          await entry.run.close(false).catch(() => {});
          warn(`${label(entry.tracker)} live tracking of run ${entry.run.id} did not finish (${(error as Error).message}); no receipt was written, so \`gym eval export ${entry.tracker}\` sends the run again as a new run.`);
        }
      }
    },
  };
}

const label = (t: Tracker) => (t === "mlflow" ? "MLflow" : "W&B");
