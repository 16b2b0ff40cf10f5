/**
 * `gym eval gate`: thresholds on a run's metrics, error rate and cost, and regressions against a baseline judged on
 * the paired per-task difference (the statistics `gym eval compare` computes). One computation gives the verdict,
 * the printed report, the JUnit file and the exit code.
 */
import { GymError } from "../../errors.ts";
import { compareRuns, type CandidateValue } from "../compare/index.ts";
import { agentsOf, entryFor, metricValue, type RunSource } from "../compare/load.ts";
import type { RunCost } from "../cost/index.ts";

/** One threshold: `--min mean/reward=0.8` is {metric: "mean/reward", value: 0.8}. */
export interface Threshold {
  metric: string;
  value: number;
}

export interface GateOptions {
  run: RunSource;
  min?: Threshold[];
  max?: Threshold[];
  /** Largest share of expected rollouts that may have no successful row. */
  maxErrorRate?: number;
  /** `{expected, succeeded}` rollouts of the run, for the error rate. */
  counts?: { expected: number; succeeded: number };
  maxCostUsd?: number;
  cost?: RunCost;
  baseline?: RunSource;
  maxRegression?: Threshold[];
  /** Only this agent's metrics (default: every agent of the run). */
  agent?: string;
}

/** One check's outcome: what was asked, what was found, and why it passed or failed. */
export interface GateCheck {
  name: string;
  kind: "min" | "max" | "max_error_rate" | "max_cost" | "max_regression";
  agent: string | null;
  metric: string;
  threshold: number;
  value: number | null;
  passed: boolean;
  message: string;
  /** Regressions only: the paired difference, its interval and whether the drop is beyond noise. */
  regression?: { baseline: number | null; delta: number | null; ci_low: number | null; ci_high: number | null; method: "paired" | "welch" | "point"; tasks: number; beyond_noise: boolean | null };
}

export interface GateReport {
  passed: boolean;
  checks: GateCheck[];
  failed: number;
}

const fmt = (v: number | null) => (v === null ? "missing" : String(Number(v.toPrecision(6))));

/** Runs every check; a metric no agent of the run has is bad input (exit 1), not a failed check. */
export function gateRun(o: GateOptions): GateReport {
  const checks: GateCheck[] = [];
  const agents = o.agent ? [o.agent] : agentsOf(o.run);
  if (o.agent && !entryFor(o.run, o.agent)) throw new GymError("E_BAD_FLAG_VALUE", `--agent ${o.agent} is not in the run (agents: ${agentsOf(o.run).join(", ") || "none"}).`, { exitCode: 1 });
  const known = (metric: string, flag: string) => {
    if (agents.some((a) => metricValue(entryFor(o.run, a), metric) !== undefined)) return;
    const names = [...new Set(agents.flatMap((a) => Object.keys((entryFor(o.run, a)?.agent_metrics as object | undefined) ?? {})))].filter((k) => metricValue(entryFor(o.run, agents[0]!), k) !== undefined);
    throw new GymError("E_BAD_FLAG_VALUE", `${flag} ${metric}: no agent of the run has this metric (${o.run.aggregateMetrics}).`, { hint: `Metrics of the run: ${names.slice(0, 20).join(", ")}${names.length > 20 ? ", …" : ""}`, exitCode: 1 });
  };
  for (const [kind, list] of [["min", o.min ?? []], ["max", o.max ?? []]] as const) {
    for (const t of list) {
      known(t.metric, `--${kind}`);
      for (const agent of agents) {
        const value = metricValue(entryFor(o.run, agent), t.metric) ?? null;
        const passed = value !== null && (kind === "min" ? value >= t.value : value <= t.value);
        checks.push({ name: `${kind} ${t.metric} (${agent})`, kind, agent, metric: t.metric, threshold: t.value, value, passed, message: `${t.metric} = ${fmt(value)}, ${kind === "min" ? "at least" : "at most"} ${t.value} required` });
      }
    }
  }
  if (o.maxErrorRate !== undefined && o.counts) {
    const { expected, succeeded } = o.counts;
    const rate = expected > 0 ? (expected - succeeded) / expected : 0;
    checks.push({ name: "max error rate", kind: "max_error_rate", agent: null, metric: "error_rate", threshold: o.maxErrorRate, value: rate, passed: rate <= o.maxErrorRate, message: `${expected - succeeded} of ${expected} rollouts without a successful row (${fmt(rate)}), at most ${o.maxErrorRate} allowed` });
  }
  if (o.maxCostUsd !== undefined && o.cost) {
    const usd = o.cost.total_usd;
    const passed = usd !== null && o.cost.unpriced_models.length === 0 && usd <= o.maxCostUsd;
    const why = usd === null || o.cost.unpriced_models.length ? ` (no price for ${o.cost.unpriced_models.join(", ")}: pass --prices)` : "";
    checks.push({ name: "max cost", kind: "max_cost", agent: null, metric: "total_usd", threshold: o.maxCostUsd, value: usd, passed, message: `cost $${fmt(usd)}, at most $${o.maxCostUsd} allowed${why}` });
  }
  if (o.maxRegression?.length) {
    if (!o.baseline) throw new GymError("E_MISSING_ARGUMENT", "--max-regression needs --baseline RUN (the run to compare against).", { hint: "e.g. gym eval gate results/new --baseline results/main --max-regression mean/reward=0.02" });
    checks.push(...regressions(o.baseline, o.run, o.maxRegression, agents));
  }
  if (checks.length === 0) throw new GymError("E_MISSING_ARGUMENT", "gym eval gate needs at least one check.", { hint: "Pass --min METRIC=VALUE, --max METRIC=VALUE, --max-error-rate R, --max-cost USD or --baseline RUN --max-regression METRIC=DELTA." });
  const failed = checks.filter((c) => !c.passed).length;
  return { passed: failed === 0, checks, failed };
}

/**
 * A regression fails when the metric dropped by more than DELTA and the drop is beyond noise: the paired 95 %
 * interval of the per-task difference lies below zero (Welch's over repeats when the metric has no per-task
 * values; the point difference alone when neither interval exists).
 */
function regressions(baseline: RunSource, run: RunSource, thresholds: Threshold[], agents: string[]): GateCheck[] {
  const report = compareRuns({ baseline: [baseline], candidate: [run], command: "gym eval gate" });
  const checks: GateCheck[] = [];
  for (const t of thresholds) {
    for (const agent of agents) {
      const comparison = report.comparisons.find((c) => c.candidate_agents[0] === agent);
      const row = comparison?.metrics.find((m) => m.metric === t.metric);
      const c: CandidateValue | null | undefined = row?.candidates[0];
      if (!comparison || !row || !c || row.baseline?.value == null) {
        if (!report.comparisons.some((x) => x.metrics.some((m) => m.metric === t.metric))) {
          throw new GymError("E_BAD_FLAG_VALUE", `--max-regression ${t.metric}: the baseline and the run do not share this metric.`, { hint: "Use a metric both aggregate-metrics files hold, e.g. mean/reward.", exitCode: 1 });
        }
        checks.push({ name: `max regression ${t.metric} (${agent})`, kind: "max_regression", agent, metric: t.metric, threshold: t.value, value: c?.value ?? null, passed: false, message: `${t.metric}: not in both runs for ${agent}` });
        continue;
      }
      const paired = c.paired_delta !== null;
      const welch = !paired && c.delta_ci_low !== null;
      const delta = paired ? c.paired_delta : c.delta;
      const low = paired ? c.paired_ci_low : welch ? c.delta_ci_low : null;
      const high = paired ? c.paired_ci_high : welch ? c.delta_ci_high : null;
      const beyondNoise = high === null ? null : high < 0;
      const dropped = delta !== null && -delta > t.value;
      const passed = !(dropped && beyondNoise !== false);
      const method = paired ? "paired" : welch ? "welch" : "point";
      const interval = low !== null && high !== null ? `, 95% ${method} interval [${fmt(low)}, ${fmt(high)}]${method === "paired" ? ` over ${c.paired_task_count} tasks` : ""}` : " (no interval: judged on the point difference)";
      const noise = beyondNoise === null ? "" : beyondNoise ? "; the drop is beyond noise" : "; within noise";
      checks.push({
        name: `max regression ${t.metric} (${agent})`, kind: "max_regression", agent, metric: t.metric, threshold: t.value, value: c.value, passed,
        message: `${t.metric} ${fmt(row.baseline.value)} → ${fmt(c.value)}, difference ${fmt(delta)}${interval}${noise}; a drop of at most ${t.value} allowed`,
        regression: { baseline: row.baseline.value, delta, ci_low: low, ci_high: high, method, tasks: c.paired_task_count, beyond_noise: beyondNoise },
      });
    }
  }
  return checks;
}

/** `METRIC=VALUE` as a flag gives it; the metric may hold `=` only before the last one. */
export function parseThreshold(text: string, flag: string): Threshold {
  const at = text.lastIndexOf("=");
  const metric = text.slice(0, at).trim();
  const value = Number(text.slice(at + 1));
  if (at <= 0 || !metric || text.slice(at + 1).trim() === "" || !Number.isFinite(value)) {
    throw new GymError("E_BAD_FLAG_VALUE", `${flag} expects METRIC=NUMBER, got '${text}'.`, { hint: `For example ${flag} ${flag === "--max-regression" ? "mean/reward=0.02" : "mean/reward=0.8"}.` });
  }
  return { metric, value };
}


