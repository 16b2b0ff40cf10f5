/** `gym eval compare-suite`: normalized scores across benchmarks and models, equal weights, Welch intervals (90 % default). */
import * as fs from "node:fs";
import * as path from "node:path";
import { parseYaml } from "../../config/yaml.ts";
import { fileError } from "../../runtime/files.ts";
import { decodeUtf8 } from "../../text/utf8.ts";
import { GymError } from "../../errors.ts";
import { summarize, weightedWelch, type DifferenceInterval, type SampleSummary } from "../../metrics/intervals.ts";
import { entryFor, agentsOf, loadRun, repeatValues, type RunSource } from "./load.ts";

type Row = Record<string, unknown>;

/** A selected metric and its complete theoretical scale. */
export interface SuiteMetric {
  metric: string;
  lower?: number;
  upper?: number;
  higher_is_better?: boolean;
}

export interface SuiteSide {
  sources: RunSource[];
  agent?: string;
}

export interface SuiteCell {
  model: string;
  benchmark: string;
  eligible: boolean;
  reason: string | null;
  baseline: (SampleSummary & { scores: number[] }) | null;
  candidate: (SampleSummary & { scores: number[] }) | null;
  delta: number | null;
  interval: DifferenceInterval | null;
}

export interface SuiteReport {
  schema_version: "1";
  generated_at: string;
  confidence_level: number;
  cells: SuiteCell[];
  models: Array<{ model: string; cells: number; interval: DifferenceInterval | null }>;
  overall: { cells: number; interval: DifferenceInterval | null };
  excluded: Array<{ model: string; benchmark: string; reason: string }>;
}

/** Normalized score on 0–100: `(100·(x − lo))/(hi − lo)`, reversed when lower is better. */
export function normalize(x: number, m: SuiteMetric): number | null {
  if (!Number.isFinite(x) || m.lower === undefined || m.upper === undefined) return null;
  return m.higher_is_better === false ? (100 * (m.upper - x)) / (m.upper - m.lower) : (100 * (x - m.lower)) / (m.upper - m.lower);
}

/** Per-repeat suite scores of one side: metrics normalized and averaged inside each repeat, repeats of all sources pooled. */
function sideScores(side: SuiteSide, metrics: SuiteMetric[]): { scores: number[]; reason: string | null } {
  const scores: number[] = [];
  for (const source of side.sources) {
    const agent = side.agent ?? agentsOf(source)[0];
    const entry = agent ? entryFor(source, agent) : undefined;
    if (!entry) return { scores: [], reason: `${source.aggregateMetrics}: agent ${agent ?? "(none)"} not found` };
    const perMetric = metrics.map((m) => repeatValues(entry, m.metric).values);
    const n = Math.min(...perMetric.map((v) => v.length));
    if (n === 0) return { scores: [], reason: `${source.aggregateMetrics}: no repeat values for ${metrics.map((m) => m.metric).join(", ")}` };
    for (let i = 0; i < n; i++) {
      const normalized = metrics.map((m, j) => normalize(perMetric[j]![i]!, m));
      if (normalized.some((v) => v === null)) return { scores: [], reason: `a metric has no complete scale (lower, upper) or a non-finite value` };
      scores.push((normalized as number[]).reduce((a, b) => a + b, 0) / normalized.length);
    }
  }
  return { scores, reason: null };
}

/** Compares every declared cell, then each model across its benchmarks and all cells together, with equal weights. */
export function compareSuite(cells: Array<{ model: string; benchmark: string; metrics: SuiteMetric[]; baseline: SuiteSide; candidate: SuiteSide }>, level = 0.9): SuiteReport {
  const results: SuiteCell[] = cells.map(({ model, benchmark, metrics, baseline, candidate }) => {
    const b = sideScores(baseline, metrics);
    const c = sideScores(candidate, metrics);
    const bs = b.scores.length ? { ...summarize(b.scores), scores: b.scores } : null;
    const cs = c.scores.length ? { ...summarize(c.scores), scores: c.scores } : null;
    const reason = b.reason ?? c.reason ?? (bs!.n < 2 || cs!.n < 2 ? "fewer than 2 repeat scores on a side" : null);
    const interval = reason ? null : weightedWelch([{ baseline: bs!, candidate: cs!, weight: 1 }], level);
    return { model, benchmark, eligible: reason === null, reason, baseline: bs, candidate: cs, delta: bs && cs ? cs.mean - bs.mean : null, interval };
  });
  const eligible = results.filter((r) => r.eligible);
  const pool = (list: SuiteCell[]) => (list.length ? weightedWelch(list.map((r) => ({ baseline: r.baseline!, candidate: r.candidate!, weight: 1 / list.length })), level) : null);
  const models = [...new Set(results.map((r) => r.model))].map((model) => {
    const mine = eligible.filter((r) => r.model === model);
    return { model, cells: mine.length, interval: pool(mine) };
  });
  return {
    schema_version: "1",
    generated_at: new Date().toISOString(),
    confidence_level: level,
    cells: results,
    models,
    overall: { cells: eligible.length, interval: pool(eligible) },
    excluded: results.filter((r) => !r.eligible).map((r) => ({ model: r.model, benchmark: r.benchmark, reason: r.reason! })),
  };
}

const asList = (v: unknown): string[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);

/** Reads a suite YAML (benchmarks with metrics and scales; models × benchmarks with baseline/candidate sources). */
export function loadSuite(file: string): Array<{ model: string; benchmark: string; metrics: SuiteMetric[]; baseline: SuiteSide; candidate: SuiteSide }> {
  const shown = file === "-" ? "<stdin>" : file;
  let bytes: Uint8Array;
  try {
    bytes = fs.readFileSync(file === "-" ? 0 : file);
  } catch (error) {
    throw fileError(file, error);
  }
  const doc = parseYaml(decodeUtf8(bytes, shown), shown) as Row;
  for (const key of ["benchmarks", "models"]) {
    const v = doc?.[key];
    if (v !== undefined && v !== null && (typeof v !== "object" || Array.isArray(v))) throw new GymError("E_CONFIG", `${shown}: '${key}' must be a mapping, got ${JSON.stringify(v)}.`, { hint: "See gym eval compare-suite --help for the suite layout." });
  }
  const base = file === "-" ? process.cwd() : path.dirname(file);
  const resolve = (p: string) => (path.isAbsolute(p) ? p : path.join(base, p));
  const benchmarks = (doc?.benchmarks ?? {}) as Record<string, Row>;
  const models = (doc?.models ?? {}) as Record<string, Record<string, Row>>;
  if (!Object.keys(models).length) throw new GymError("E_CONFIG", `${file}: the suite declares no models`, { hint: "Add models: {<model>: {<benchmark>: {baseline: PATH, candidate: PATH}}}." });
  const out = [];
  for (const [model, cells] of Object.entries(models)) {
    for (const [benchmark, cell] of Object.entries(cells ?? {})) {
      const bench = benchmarks[benchmark];
      if (!bench) throw new GymError("E_CONFIG", `${file}: models.${model}.${benchmark} names a benchmark not declared under benchmarks`);
      const metrics = ((bench.metrics as unknown[]) ?? []).map((m) => (typeof m === "string" ? { metric: m } : (m as SuiteMetric)));
      if (!metrics.length) throw new GymError("E_CONFIG", `${file}: benchmarks.${benchmark} selects no metrics`);
      const side = (name: "baseline" | "candidate"): SuiteSide => {
        const runs = asList(cell[name]);
        const aggs = asList(cell[`${name}_agg_metrics`]);
        if (!runs.length && !aggs.length) throw new GymError("E_CONFIG", `${file}: models.${model}.${benchmark} has no ${name}`);
        const n = Math.max(runs.length, aggs.length);
        return {
          sources: Array.from({ length: n }, (_, i) => {
            try {
              return loadRun(runs[i] ? resolve(runs[i]!) : null, aggs[i] ? resolve(aggs[i]!) : undefined);
            } catch (error) {
              if (!(error instanceof GymError)) throw error;
              throw new GymError(error.code, `${shown}: models.${model}.${benchmark}.${name}: ${error.message}`, { hint: error.hint, cause: error });
            }
          }),
          agent: (cell[`${name}_agent`] ?? cell.agent) as string | undefined,
        };
      };
      out.push({ model, benchmark, metrics, baseline: side("baseline"), candidate: side("candidate") });
    }
  }
  return out;
}

const f = (v: number | null | undefined) => (v === null || v === undefined || !Number.isFinite(v) ? "—" : v.toFixed(Math.abs(v) < 10 ? 4 : 2));
const ci = (i: DifferenceInterval | null) => (i ? `[${f(i.low)}, ${f(i.high)}]` : "—");

/** The `suite_compare_report.md` text. */
export function renderSuiteMarkdown(r: SuiteReport): string {
  const lines = [
    "# Suite comparison",
    "",
    `Scores are normalized to 0–100 per metric, averaged within each repeat, benchmarks weighted equally; Δ = candidate − baseline with unpaired Welch intervals at ${r.confidence_level * 100}%.`,
    "",
    "| model | benchmark | baseline | candidate | Δ | CI |",
    "|---|---|---|---|---|---|",
    ...r.cells.map((c) => `| ${c.model} | ${c.benchmark} | ${f(c.baseline?.mean)} (n=${c.baseline?.n ?? 0}) | ${f(c.candidate?.mean)} (n=${c.candidate?.n ?? 0}) | ${f(c.delta)} | ${c.eligible ? ci(c.interval) : `excluded: ${c.reason}`} |`),
    "",
    "| model | cells | Δ | CI | ν |",
    "|---|---|---|---|---|",
    ...r.models.map((m) => `| ${m.model} | ${m.cells} | ${f(m.interval?.delta)} | ${ci(m.interval)} | ${f(m.interval?.df)} |`),
    `| **all pairs** | ${r.overall.cells} | ${f(r.overall.interval?.delta)} | ${ci(r.overall.interval)} | ${f(r.overall.interval?.df)} |`,
  ];
  return `${lines.join("\n")}\n`;
}
