/** `gym eval compare`: a baseline run (or pooled runs) against a candidate, with Welch and paired difference intervals. */
import * as fs from "node:fs";
import { GymError } from "../../errors.ts";
import { pairedInterval, summarize, tInterval, welchInterval, type DifferenceInterval } from "../../metrics/intervals.ts";
import { numericValue } from "../../metrics/pyjson.ts";
import { agentsOf, entryFor, metricValue, repeatCount, repeatValues, taskValues, type RunSource } from "./load.ts";
import { sampleFlips, type FlipSummary } from "./flips.ts";

type Row = Record<string, unknown>;

export interface CompareOptions {
  baseline: RunSource[];
  candidate: RunSource[];
  agent?: string;
  baselineAgent?: string;
  candidateAgent?: string;
  /** Level of the difference intervals (default 0.95). Each side's own intervals stay at 95 %. */
  confidenceLevel?: number;
  command?: string;
}

const NO_ROW_PREFIX = ["median/", "std/", "min/", "max/", "p25/", "p75/", "sem/", "ci_low_95/", "ci_high_95/"];
const hasOwnRow = (key: string) => !NO_ROW_PREFIX.some((p) => key.startsWith(p)) && !key.includes("_across_repeats/") && !/\/std_(dev|err)_across_runs$/.test(key);
const isTokenMetric = (key: string) => /^mean\/.*_tokens$/.test(key);

export interface SideValue {
  value: number | null;
  ci_low: number | null;
  ci_high: number | null;
  se_across_repeats: number | null;
  mean_across_repeats: number | null;
  std_err_across_runs: number | null;
  repeat_values_n: number;
  missing_repeat_values: number;
}

export interface CandidateValue extends SideValue {
  delta: number | null;
  delta_pct: number | null;
  delta_ci_low: number | null;
  delta_ci_high: number | null;
  delta_ci_df: number | null;
  delta_ci_method: "welch" | null;
  paired_delta: number | null;
  paired_ci_low: number | null;
  paired_ci_high: number | null;
  paired_ci_df: number | null;
  paired_task_count: number;
  paired_mde: number | null;
  /** Which difference interval a reader should trust for this metric, and why (see the report's note). */
  recommended_interval: "paired" | "welch" | null;
}

export interface MetricRow {
  metric: string;
  is_key_metric: boolean;
  present_in: string[];
  baseline: SideValue | null;
  candidates: Array<CandidateValue | null>;
}

export interface AgentComparison {
  baseline_agent: string;
  candidate_agents: string[];
  baseline_task_count: number;
  candidate_task_counts: number[];
  baseline_repeat_count: number | null;
  candidate_repeat_counts: Array<number | null>;
  metrics: MetricRow[];
  flips: FlipSummary[];
  notes: string[];
}

export interface CompareReport {
  schema_version: "1";
  generated_at: string;
  command: string;
  confidence_level: number;
  baseline: RunRef;
  candidates: RunRef[];
  comparisons: AgentComparison[];
  skipped_agents: Record<string, string[]>;
  warnings: string[];
  interval_guide: string;
}

export interface RunRef {
  role: "baseline" | "candidate";
  label: string;
  rollouts_jsonl_fpath: string | null;
  aggregate_metrics_fpath: string;
  agents: string[];
  sources: Array<{ rollouts_jsonl_fpath: string | null; aggregate_metrics_fpath: string; agents: string[] }>;
}

/** Explains the two intervals once, in the report. */
export const INTERVAL_GUIDE =
  "Welch's interval treats each repeat (one pass over all tasks) as one observation: it answers whether re-running " +
  "would change the score on THIS task set. The paired interval works on per-task differences over the tasks both " +
  "sides ran: it also accounts for which tasks were sampled, and pairing removes task difficulty, so it is the one to " +
  "trust when you want the result to generalize to new tasks from the same distribution (recommended_interval = paired). " +
  "Use Welch only when the sides share no tasks.";

function runRef(role: "baseline" | "candidate", runs: RunSource[]): RunRef {
  return {
    role,
    label: role,
    rollouts_jsonl_fpath: runs[0]!.rollouts,
    aggregate_metrics_fpath: runs[0]!.aggregateMetrics,
    agents: agentsOf(runs[0]!),
    sources: runs.map((r) => ({ rollouts_jsonl_fpath: r.rollouts, aggregate_metrics_fpath: r.aggregateMetrics, agents: agentsOf(r) })),
  };
}

/**
 * compare reads a run's aggregate metrics, never its rows (metrics.md §4.1); a rollouts file written after
 * them (edited, appended to, resumed without aggregating) means the numbers compared may no longer be its
 * own. A warning, not a refusal: copying a run folder can reorder the files' times.
 */
function staleMetricsWarning(run: RunSource): string[] {
  if (!run.rollouts || run.rollouts === "-") return [];
  const rows = fs.statSync(run.rollouts, { throwIfNoEntry: false });
  const metrics = fs.statSync(run.aggregateMetrics, { throwIfNoEntry: false });
  if (!rows || !metrics || rows.mtimeMs <= metrics.mtimeMs + 1000) return [];
  return [`${run.rollouts} changed after its metrics ${run.aggregateMetrics} were written: the comparison uses the metrics, which may be stale. Run gym eval aggregate --input-glob ${run.rollouts} --output <new file> to re-check the rows and recompute them.`];
}

/** Builds the comparison report (JSON form); `renderCompareMarkdown` turns it into the markdown report. */
export function compareRuns(options: CompareOptions): CompareReport {
  const level = options.confidenceLevel ?? 0.95;
  if (!(level > 0 && level < 1)) throw new GymError("E_BAD_FLAG_VALUE", `--confidence-level must be between 0 and 1, got ${level}`);
  const warnings: string[] = [...options.baseline, ...options.candidate].flatMap(staleMetricsWarning);
  const skipped: Record<string, string[]> = {};
  const pairs = selectAgents(options, warnings, skipped);
  const comparisons = pairs.map(([b, c]) => compareAgent(options, b, c, level, warnings));
  return {
    schema_version: "1",
    generated_at: new Date().toISOString(),
    command: options.command ?? "gym eval compare",
    confidence_level: level,
    baseline: runRef("baseline", options.baseline),
    candidates: [runRef("candidate", options.candidate)],
    comparisons,
    skipped_agents: skipped,
    warnings,
    interval_guide: INTERVAL_GUIDE,
  };
}

function selectAgents(o: CompareOptions, warnings: string[], skipped: Record<string, string[]>): Array<[string, string]> {
  const b = o.baselineAgent ?? o.agent;
  const c = o.candidateAgent ?? o.agent;
  if (b || c) {
    const pick = (given: string | undefined, runs: RunSource[]) => given ?? agentsOf(runs[0]!)[0]!;
    return [[pick(b, o.baseline), pick(c, o.candidate)]];
  }
  const sets = [...o.baseline, ...o.candidate].map((r) => new Set(agentsOf(r)));
  const all = [...new Set(sets.flatMap((s) => [...s]))].sort();
  const common = all.filter((a) => sets.every((s) => s.has(a)));
  for (const a of all.filter((x) => !common.includes(x))) {
    skipped[a] = ["baseline", "candidate[0]"].filter((_, i) => (i === 0 ? o.baseline : o.candidate).every((r) => agentsOf(r).includes(a)));
    warnings.push(`Agent ${a} is not in every run; skipped`);
  }
  if (common.length === 0) throw new GymError("E_INPUT_SCHEMA", "No agent is present in every run", { hint: "Name the agents with --baseline-agent and --candidate-agents." });
  return common.map((a) => [a, a]);
}

/** One side's reading of a metric: single run → recorded values; pooled → recomputed from all repeats. */
function sideValue(runs: RunSource[], agent: string, metric: string, notes: string[]): { side: SideValue | null; repeats: number[] } {
  const entries = runs.map((r) => entryFor(r, agent));
  const per = entries.map((e) => repeatValues(e, metric));
  const present = entries.some((e) => metricValue(e, metric) !== undefined);
  if (!present) return { side: null, repeats: [] };
  if (runs.length === 1) {
    const e = entries[0];
    const v = (k: string) => metricValue(e, k) ?? null;
    return {
      side: {
        value: v(metric), ci_low: v(`ci_low_95_across_repeats/${metric}`), ci_high: v(`ci_high_95_across_repeats/${metric}`),
        se_across_repeats: v(`se_across_repeats/${metric}`), mean_across_repeats: v(`mean_across_repeats/${metric}`),
        std_err_across_runs: v(`${metric}/std_err_across_runs`), repeat_values_n: per[0]!.values.length, missing_repeat_values: per[0]!.missing,
      },
      repeats: per[0]!.values,
    };
  }
  // Pooling: every repeat of every source is one observation; run means and CI endpoints are never averaged.
  const token = isTokenMetric(metric);
  const poolable = token ? per.some((p) => p.values.length > 0) : per.every((p) => p.complete);
  if (!poolable) {
    notes.push(`${metric}: not pooled (${metric.startsWith("mean/") || metric.startsWith("pass@1[avg-of-") ? "a source lacks a complete set of scored repeats" : "a whole-run-only metric"})`);
    return { side: { value: null, ci_low: null, ci_high: null, se_across_repeats: null, mean_across_repeats: null, std_err_across_runs: null, repeat_values_n: 0, missing_repeat_values: 0 }, repeats: [] };
  }
  const repeats = per.flatMap((p) => p.values);
  const s = summarize(repeats);
  const se = Math.sqrt(s.variance) / Math.sqrt(s.n);
  const ci = s.n > 1 ? tInterval(s.mean, se, s.n, 0.95) : null;
  return {
    side: {
      value: s.mean, ci_low: ci?.[0] ?? null, ci_high: ci?.[1] ?? null, se_across_repeats: s.n > 1 ? se : null, mean_across_repeats: s.mean,
      std_err_across_runs: null, repeat_values_n: s.n, missing_repeat_values: per.reduce((a, p) => a + p.missing, 0),
    },
    repeats,
  };
}

/** Per-task means of a side (pooled sides: rollout-weighted across sources). */
function sideTasks(runs: RunSource[], agent: string, metric: string): Map<number, number> {
  const sums = new Map<number, { s: number; n: number }>();
  for (const r of runs) {
    for (const [t, { value, n }] of taskValues(entryFor(r, agent), metric)) {
      const acc = sums.get(t) ?? { s: 0, n: 0 };
      acc.s += value * n;
      acc.n += n;
      sums.set(t, acc);
    }
  }
  return new Map([...sums].map(([t, { s, n }]) => [t, runs.length === 1 ? s / n : s / n]));
}

function compareAgent(o: CompareOptions, bAgent: string, cAgent: string, level: number, warnings: string[]): AgentComparison {
  const notes: string[] = [];
  const bEntry = entryFor(o.baseline[0]!, bAgent);
  const cEntry = entryFor(o.candidate[0]!, cAgent);
  if (!bEntry || !cEntry) throw new GymError("E_INPUT_SCHEMA", `Agent ${!bEntry ? bAgent : cAgent} is not in the ${!bEntry ? "baseline" : "candidate"} metrics`);
  const keysOf = (e: Row) => Object.entries((e.agent_metrics as Row) ?? {}).filter(([k, v]) => numericValue(v) !== undefined && hasOwnRow(k)).map(([k]) => k);
  const metrics = [...new Set([...keysOf(bEntry), ...keysOf(cEntry)])];
  const shared = metrics.filter((m) => metricValue(bEntry, m) !== undefined && metricValue(cEntry, m) !== undefined);
  if (shared.length === 0) throw new GymError("E_INPUT_SCHEMA", `The baseline (${bAgent}) and candidate (${cAgent}) share no metric`, { hint: "Check that both runs used the same benchmark and agent." });
  const keyMetrics = new Set([...Object.keys((bEntry.key_metrics as Row) ?? {}), ...Object.keys((cEntry.key_metrics as Row) ?? {})]);
  const rows: MetricRow[] = metrics.map((metric) => {
    const b = sideValue(o.baseline, bAgent, metric, notes);
    const c = sideValue(o.candidate, cAgent, metric, notes);
    return {
      metric,
      is_key_metric: keyMetrics.has(metric),
      present_in: [b.side ? "baseline" : null, c.side ? "candidate[0]" : null].filter((x): x is string => x !== null),
      baseline: b.side,
      candidates: [c.side ? candidateValue(b, c, metric, o, bAgent, cAgent, level) : null],
    };
  });
  const flips = [sampleFlips(o.baseline, o.candidate, bAgent, cAgent)];
  return {
    baseline_agent: bAgent,
    candidate_agents: [cAgent],
    baseline_task_count: ((bEntry.group_level_metrics as unknown[]) ?? []).length,
    candidate_task_counts: [((cEntry.group_level_metrics as unknown[]) ?? []).length],
    baseline_repeat_count: repeatCount(o.baseline[0]!, bEntry),
    candidate_repeat_counts: [repeatCount(o.candidate[0]!, cEntry)],
    metrics: rows,
    flips,
    notes: [...new Set(notes)],
  };
}

function candidateValue(b: { side: SideValue | null; repeats: number[] }, c: { side: SideValue | null; repeats: number[] }, metric: string, o: CompareOptions, bAgent: string, cAgent: string, level: number): CandidateValue {
  const base = b.side?.value ?? null;
  const cand = c.side!.value;
  const delta = base !== null && cand !== null ? cand - base : null;
  let welch: DifferenceInterval | null = null;
  if (b.repeats.length >= 2 && c.repeats.length >= 2) welch = welchInterval(summarize(b.repeats), summarize(c.repeats), level);
  let paired: ReturnType<typeof pairedInterval> = null;
  if (metric.startsWith("mean/")) {
    const bt = sideTasks(o.baseline, bAgent, metric);
    const ct = sideTasks(o.candidate, cAgent, metric);
    const diffs = [...bt.keys()].sort((x, y) => x - y).filter((t) => ct.has(t)).map((t) => ct.get(t)! - bt.get(t)!);
    paired = pairedInterval(diffs, level);
  }
  return {
    ...c.side!,
    delta,
    delta_pct: delta !== null && base ? (delta / Math.abs(base)) * 100 : null,
    delta_ci_low: welch?.low ?? null,
    delta_ci_high: welch?.high ?? null,
    delta_ci_df: welch?.df ?? null,
    delta_ci_method: welch ? "welch" : null,
    paired_delta: paired?.delta ?? null,
    paired_ci_low: paired?.low ?? null,
    paired_ci_high: paired?.high ?? null,
    paired_ci_df: paired?.df ?? null,
    paired_task_count: paired?.n ?? 0,
    paired_mde: paired?.mde ?? null,
    recommended_interval: paired ? "paired" : welch ? "welch" : null,
  };
}

export { renderCompareMarkdown } from "./report.ts";
