/** The one rule for a run's file names: `<stem>` + suffix, beside the `--output` file. */
import { basename, dirname, join } from "node:path";

export interface RunPaths {
  /** `<stem>.jsonl`: one row per successful attempt. */
  rollouts: string;
  materializedInputs: string;
  /** `<stem>_materialized_ids.txt`: the identity of each materialized row, one a line (a resume's inventory without reading the rows). */
  materializedIds: string;
  /** `<stem>_outcomes.idx`: each rollout row's end offset, identity and attempt (outputs/outcome-index.ts). */
  outcomeIndex: string;
  failures: string;
  aggregateMetrics: string;
  manifest: string;
  /** Append-only journal of attempt reservations (written before each dispatch). */
  attempts: string;
  resumeDrift: string;
  lock: string;
  batchStatus: string;
  resolvedConfig: string;
  /** The run's usage and cost, written whole at the end of a run (and by `eval aggregate --cost`). */
  cost: string;
  /** The Batch API journal (`--batch`): each batch before it is created, and its id once it is. */
  batchJournal: string;
  /** The health check's per-rollout verdicts and run summary (see healthReportPaths). */
  rolloutVerdicts: string;
  qualitySummary: string;
  dir: string;
  stem: string;
}

/** Derives every sidecar path from the rollouts path (`results/rollouts.jsonl` → `results/rollouts_failures.jsonl`, …). */
export function runPaths(output: string): RunPaths {
  const dir = dirname(output);
  const stem = basename(output).replace(/\.jsonl$/, "");
  const at = (suffix: string) => join(dir, `${stem}${suffix}`);
  return {
    rollouts: output.endsWith(".jsonl") ? output : at(".jsonl"),
    materializedInputs: at("_materialized_inputs.jsonl"),
    materializedIds: at("_materialized_ids.txt"),
    outcomeIndex: at("_outcomes.idx"),
    failures: at("_failures.jsonl"),
    aggregateMetrics: at("_aggregate_metrics.json"),
    manifest: at("_manifest.json"),
    attempts: at("_manifest.attempts.jsonl"),
    resumeDrift: at("_manifest.resume-drift.jsonl"),
    lock: at("_run.lock"),
    batchStatus: at("_batch_status.json"),
    resolvedConfig: at("_resolved_config.yaml"),
    cost: at("_cost.json"),
    batchJournal: at("_batches.jsonl"),
    ...healthReportPaths(dir, basename(output.endsWith(".jsonl") ? output : at(".jsonl"))),
    dir,
    stem,
  };
}

/**
 * The health check's reports for the rollouts file `name` in `dir`: NeMo Gym's `rollout_verdicts.jsonl` and
 * `quality_summary.json` for its default `rollouts.jsonl` (and stdin), else named after the stem
 * (`<stem>_rollout_verdicts.jsonl`, `<stem>_quality_summary.json`), so two runs in one folder keep their own.
 */
export function healthReportPaths(dir: string, name: string): { rolloutVerdicts: string; qualitySummary: string } {
  const stem = basename(name).replace(/\.jsonl$/, "");
  const prefix = name === "-" || stem === "rollouts" ? "" : `${stem}_`;
  return { rolloutVerdicts: join(dir, `${prefix}rollout_verdicts.jsonl`), qualitySummary: join(dir, `${prefix}quality_summary.json`) };
}

/**
 * Whether a .jsonl file is one of a run's companions (failures, materialized inputs, manifest journals, the
 * batch journal, the health check's verdicts, the profile's rows) rather than rollouts: the viewer never lists
 * one as a run, and `eval aggregate` never merges one as a shard (NeMo Gym 0.5 merged them: a bug).
 */
export function isCompanionFile(name: string): boolean {
  return COMPANION_STEM.test(basename(name).replace(/\.jsonl$/, ""));
}

const COMPANION_STEM = /(_failures|_materialized_inputs|_manifest\.attempts|_manifest\.resume-drift|\.resume-drift|_batches|_rollout_verdicts|_reward_profiling|_repeat_level_metrics|_rerun_masked)$|^rollout_verdicts$/;

/** A rollout's identity key, `"{task}-{rollout}"`, as manifests and capture ids spell it. */
export function identityKey(row: { _ng_task_index?: unknown; _ng_rollout_index?: unknown }): string {
  return `${row._ng_task_index}-${row._ng_rollout_index}`;
}
