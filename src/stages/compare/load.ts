/** Reading one side of a comparison: aggregate-metrics files, agents, and per-repeat / per-task values of a metric. */
import * as fs from "node:fs";
import { GymError } from "../../errors.ts";
import { readJsonFile } from "../../jsonl/json-file.ts";
import { numericValue } from "../../metrics/pyjson.ts";
import { siblingPath } from "../aggregate/files.ts";

type Row = Record<string, unknown>;

/** One run on one side: where it came from and its parsed `<stem>_aggregate_metrics.json`. */
export interface RunSource {
  rollouts: string | null;
  aggregateMetrics: string;
  entries: Row[];
}

/** Loads a run's metrics file (derived from the rollouts path unless given). */
export function loadRun(rollouts: string | null, aggregateMetrics?: string): RunSource {
  const file = aggregateMetrics ?? (rollouts ? siblingPath(rollouts, "_aggregate_metrics", ".json") : undefined);
  if (!file) throw new GymError("E_MISSING_ARGUMENT", "A run needs a rollouts path or an aggregate-metrics file");
  if (!fs.existsSync(file)) {
    throw new GymError("E_INPUT_NOT_FOUND", `No aggregate metrics at ${file}`, {
      hint: "Run gym eval aggregate over the run first, or pass the file with --baseline-agg-metrics / --candidates-agg-metrics.",
    });
  }
  const entries = readJsonFile(file, "aggregate metrics");
  if (!Array.isArray(entries)) throw new GymError("E_INPUT_SCHEMA", `${file}: expected a JSON list of agent entries, found ${entries === null ? "null" : typeof entries}`, { hint: "Pass a <stem>_aggregate_metrics.json written by gym eval run or gym eval aggregate." });
  entries.forEach((entry, i) => checkEntry(entry, `${file}: entry ${i}`));
  return { rollouts, aggregateMetrics: file, entries: entries as Row[] };
}

/** An entry's fields compare reads must have their types (a metric spelled as a string would vanish from the report). */
function checkEntry(entry: unknown, where: string): void {
  const bad = (field: string, expected: string, got: unknown) => new GymError("E_INPUT_SCHEMA", `${where}: field '${field}' must be ${expected}, got ${JSON.stringify(got)}.`, { hint: "Regenerate the metrics file with gym eval aggregate." });
  if (!entry || typeof entry !== "object" || Array.isArray(entry)) throw bad("(entry)", "an object", entry);
  const ref = (entry as Row).agent_ref;
  if (ref !== undefined && (typeof ref !== "object" || ref === null || typeof (ref as Row).name !== "string")) throw bad("agent_ref.name", "a string", ref);
  const metrics = (entry as Row).agent_metrics;
  if (metrics === undefined) return;
  if (typeof metrics !== "object" || metrics === null || Array.isArray(metrics)) throw bad("agent_metrics", "an object", metrics);
  for (const [key, value] of Object.entries(metrics)) if (typeof value === "string" || typeof value === "boolean") throw bad(`agent_metrics.${key}`, "a number", value);
}

export function agentsOf(run: RunSource): string[] {
  return run.entries.map((e) => (e.agent_ref as Row | undefined)?.name).filter((n): n is string => typeof n === "string");
}

export function entryFor(run: RunSource, agent: string): Row | undefined {
  return run.entries.find((e) => (e.agent_ref as Row | undefined)?.name === agent);
}

const num = (v: unknown): number | undefined => {
  const n = numericValue(v);
  return n !== undefined && Number.isFinite(n) ? n : undefined;
};

/** A number stored in agent_metrics (or undefined). */
export function metricValue(entry: Row | undefined, key: string): number | undefined {
  return num((entry?.agent_metrics as Row | undefined)?.[key]);
}

/** Per-repeat values of a metric, with how many repeats lacked it: `mean/<f>` from repeat_level_metrics, pass@1[avg-of-K] from per_sample_aggregate. */
export function repeatValues(entry: Row | undefined, metric: string): { values: number[]; missing: number; complete: boolean } {
  const repeats = (entry?.repeat_level_metrics as Row[] | undefined) ?? [];
  if (metric.startsWith("mean/")) {
    const sorted = [...repeats].sort((a, b) => Number(a._ng_rollout_index) - Number(b._ng_rollout_index));
    const values: number[] = [];
    let missing = 0;
    let complete = sorted.length >= 2;
    for (const r of sorted) {
      const v = num(r[metric]);
      if (v === undefined) missing++;
      else values.push(v);
      if (v === undefined || Number(r.missing_count ?? 0) > 0) complete = false;
    }
    return { values, missing, complete };
  }
  const m = /^pass@1\[avg-of-(\d+)\]\/(.+)$/.exec(metric);
  if (m) {
    const runs = ((entry?.agent_metrics as Row | undefined)?.per_sample_aggregate as Row | undefined)?.[m[2]!];
    if (Array.isArray(runs)) {
      const values = runs.slice(0, Number(m[1])).map(num).filter((v): v is number => v !== undefined);
      return { values, missing: Number(m[1]) - values.length, complete: values.length === Number(m[1]) && values.length >= 2 };
    }
  }
  return { values: [], missing: 0, complete: false };
}

/** Per-task value of a `mean/…` metric (and the rollout count behind it), from group_level_metrics. */
export function taskValues(entry: Row | undefined, metric: string): Map<number, { value: number; n: number }> {
  const out = new Map<number, { value: number; n: number }>();
  for (const g of (entry?.group_level_metrics as Row[] | undefined) ?? []) {
    const v = num(g[metric]);
    const t = num(g._ng_task_index);
    if (v === undefined || t === undefined) continue;
    out.set(t, { value: v, n: num(g.num_rollouts) ?? 1 });
  }
  return out;
}

/** Most common expected_num_rollouts; else repeat-level entries (single agent); else the longest rollout_infos. */
export function repeatCount(run: RunSource, entry: Row | undefined): number | null {
  const groups = (entry?.group_level_metrics as Row[] | undefined) ?? [];
  const counts = new Map<number, number>();
  for (const g of groups) {
    const n = num(g.expected_num_rollouts);
    if (n !== undefined) counts.set(n, (counts.get(n) ?? 0) + 1);
  }
  if (counts.size) return [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]![0];
  const repeats = entry?.repeat_level_metrics as Row[] | undefined;
  if (run.entries.length === 1 && repeats?.length) return repeats.length;
  const longest = Math.max(0, ...groups.map((g) => ((g.rollout_infos as unknown[] | undefined) ?? []).length));
  return longest || null;
}
