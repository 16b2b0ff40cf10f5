/** `gym eval status`: saved progress of a run directory (or of the rollouts file given), read from disk only. */
import { existsSync } from "node:fs";
import { defineGymCommand } from "../_command.ts";
import { EXIT, GymError } from "../../errors.ts";
import type { StatusEntry } from "../../run/status-read.ts";
import { dirname } from "node:path";
import { costLine, type RunCost } from "../../stages/cost/index.ts";

type Doc = Record<string, unknown>;

export default defineGymCommand({
  meta: { name: "eval status", description: "Show saved run progress" },
  args: {
    target: { type: "positional", description: "A run directory (every *_batch_status.json and batch_status.json), a rollouts .jsonl file, or a gym job id from gym eval submit", valueHint: "TARGET" },
    json: { type: "boolean", description: "Print a mapping status path → saved status (with its export receipts and cost) on stdout" },
    prices: { type: "string", description: "Prices YAML for the cost (default: the run's own --prices, else the built-in table)", valueHint: "FILE" },
  },
  examples: [
    "gym eval status results/my-run",
    "gym eval status results/my-run/rollouts.jsonl --json",
    "gym eval status gym-job-20261016T120000Z-abcdef --json   # from the local submission index; no scheduler contacted",
    "A rollouts file (an extension of NeMo Gym, which takes a directory) reads the <stem>_batch_status.json beside it.",
    "Exit 0 when at least one status was read; 1 when TARGET is missing or holds no readable status.",
  ],
  async run({ args, json }) {
    const target = args.target as string | undefined;
    if (!target) throw new GymError("E_MISSING_ARGUMENT", "gym eval status needs a TARGET: a run directory or a rollouts file.", { hint: "e.g. gym eval status results/my-run" });
    const { readStatusTarget, statusJson } = await import("../../run/status-read.ts");
    if (/^gym-job-\d{8}T\d{6}Z-[0-9a-f]{6}$/.test(target) && !existsSync(target)) {
      // A submission: its benchmarks' status files, at the paths it recorded; the scheduler is never asked.
      const { jobStatusEntries, readIndexEntry } = await import("../../cluster/job-status.ts");
      const record = readIndexEntry(target);
      const jobEntries = jobStatusEntries(record);
      const header = `${record.gym_job_id} (run dir ${record.run_dir}; Slurm jobs ${record.benchmarks.map((b) => `${b.benchmark} ${b.job_id ?? "-"}`).join(", ")})\n`;
      await print(json ? `${JSON.stringify(statusJson(jobEntries), null, 2)}\n` : header + jobEntries.map((e) => formatEntry(e)).join("\n"));
      return EXIT.ok;
    }
    const entries = readStatusTarget(target);
    const { runCost } = await import("../../stages/cost/run.ts");
    const doc = statusJson(entries);
    for (const entry of entries) if (entry.stem !== undefined) (doc[entry.path] as Doc).cost = await runCost(`${dirname(entry.path)}/${entry.stem}.jsonl`, args.prices);
    await print(json ? `${JSON.stringify(doc, null, 2)}\n` : entries.map((e) => formatEntry(e, (doc[e.path] as Doc).cost as RunCost | undefined)).join("\n"));
    const read = entries.filter((entry) => entry.status !== undefined).length;
    if (read === 0) {
      throw new GymError("E_INPUT_JSON", `No status in ${target} could be read (${entries.map((e) => `${e.path}: ${e.unavailable}`).join("; ")}).`, {
        hint: "Status files are rewritten atomically by a running collection; a damaged one is replaced at its next update.",
      });
    }
    return EXIT.ok;
  },
});

/** The human view of one status file: counts, failures, aggregation, update time, tracking, receipts. */
function formatEntry(entry: StatusEntry, cost?: RunCost): string {
  const lines = [entry.path];
  const add = (label: string, value: string) => lines.push(`  ${label.padEnd(18)}${value}`);
  const s = entry.status;
  if (!s) add("status:", `unavailable (${entry.unavailable})`);
  else if (isDoc(s.members)) {
    add("batch manifest:", typeof s.manifest_sha256 === "string" ? `sha256 ${s.manifest_sha256}` : "(no digest)");
    add("updated:", text(s.updated_at));
    for (const [agent, member] of Object.entries(s.members)) {
      lines.push(`  ${agent}${isDoc(member) && member.benchmark_slug ? ` (${member.benchmark_slug})` : ""}`);
      if (isDoc(member)) countLines(member, (label, value) => lines.push(`    ${label.padEnd(16)}${value}`));
    }
  } else {
    add("tracking:", s.tracking === "disabled" ? `disabled${s.reason ? ` (reason: ${s.reason})` : ""}; counts are not reliable` : text(s.tracking));
    add("updated:", text(s.updated_at));
    if (s.tracking !== "disabled") countLines(s, add);
  }
  if (entry.runManifest) {
    const drift = entry.runManifest.resume_drift_count;
    add("run id:", `${entry.runManifest.run_id ?? "(unreadable manifest)"}${drift > 0 ? ` (${drift} resume drift record${drift === 1 ? "" : "s"})` : ""}`);
  }
  if (cost && cost.rows_with_usage > 0) add("cost:", costLine(cost));
  add("export receipt:", exportLine(entry.export));
  return `${lines.join("\n")}\n`;
}

function countLines(s: Doc, add: (label: string, value: string) => void): void {
  const expected = s.expected_rollout_count;
  add("expected:", text(expected));
  add("completed:", text(s.completed_rollout_count));
  add("remaining:", text(s.remaining_rollout_count));
  add("failures:", counts(s.failures_by_class));
  const byKind = counts(s.failures_by_kind);
  if (s.failures_by_kind !== undefined && byKind !== counts(s.failures_by_class)) add("failures by kind:", byKind);
  if (isDoc(s.model_final_by_kind) && Object.keys(s.model_final_by_kind).length > 0) add("model-final:", `${counts(s.model_final_by_kind)} (reported, not completed)`);
  if (s.observed_task_count !== undefined) add("tasks:", text(s.observed_task_count));
  if (Array.isArray(s.expected_metric_keys)) {
    const observed = new Set(Array.isArray(s.observed_metric_keys) ? s.observed_metric_keys : []);
    const missing = s.expected_metric_keys.filter((key) => !observed.has(key));
    add("metric keys:", `${s.expected_metric_keys.length - missing.length}/${s.expected_metric_keys.length} observed${missing.length ? ` (missing: ${missing.join(", ")})` : ""}`);
  }
  if (isDoc(s.repeat_policy)) add("repeats:", `${text(s.repeat_policy.num_repeats)}${s.repeat_policy.seeded ? " (seeded)" : ""}`);
  add("aggregation:", `${text(s.aggregation_status)}${s.aggregation_error ? ` (${typeof s.aggregation_error === "string" ? s.aggregation_error : JSON.stringify(s.aggregation_error)})` : ""}`);
}

/** `mlflow present (run id …)`; `mlflow missing (run id …)` for a live run id without receipt; `missing` when no exporter left anything. */
function exportLine(receipts: StatusEntry["export"]): string {
  const parts = Object.entries(receipts).map(([exporter, r]) => `${exporter} ${r.completed ? "present" : "missing"}${r.run_id ? ` (run id ${r.run_id})` : ""}`);
  return parts.length > 0 ? parts.join(", ") : "missing";
}

function counts(value: unknown): string {
  if (!isDoc(value)) return value === undefined ? "-" : text(value);
  const entries = Object.entries(value);
  return entries.length === 0 ? "none" : entries.map(([k, n]) => `${k} ${text(n)}`).join(", ");
}

function isDoc(value: unknown): value is Doc {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return value === undefined || value === null ? "-" : typeof value === "string" ? value : JSON.stringify(value);
}

/** Writes to stdout and waits until it is handed to the OS: the process exits right after, and a pipe takes large writes in pieces. */
function print(text: string): Promise<void> {
  return new Promise((resolve) => void process.stdout.write(text, () => resolve()));
}
