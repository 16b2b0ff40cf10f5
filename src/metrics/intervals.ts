/** Confidence intervals: one-sample t, Welch (unpaired difference), paired difference, and the suite's weighted Welch. */
import { meanVariance } from "./numeric.ts";
import { studentTQuantile } from "./student-t.ts";

/**
 * scipy `t.interval(level, n − 1, loc=mean, scale=sem)`, as NeMo Gym's repeat-level metrics use it:
 * null when n ≤ 1, collapsed to (mean, mean) when sem is 0 (NeMo Gym warns then).
 */
export function tInterval(mean: number, sem: number, n: number, level = 0.95): [number, number] | null {
  if (n <= 1) return null;
  if (sem === 0) return [mean, mean];
  const df = n - 1;
  return [studentTQuantile((1 - level) / 2, df) * sem + mean, studentTQuantile((1 + level) / 2, df) * sem + mean];
}

/** One side of a comparison: its repeat values summarized. */
export interface SampleSummary {
  n: number;
  mean: number;
  variance: number;
}

export function summarize(values: ArrayLike<number>): SampleSummary {
  const { mean, variance } = meanVariance(values);
  return { n: values.length, mean, variance };
}

/** A difference with its interval. `df` is null when the interval is degenerate (zero variance). */
export interface DifferenceInterval {
  delta: number;
  se: number;
  df: number | null;
  t: number | null;
  low: number;
  high: number;
  level: number;
}

/** Δ ± t·SE for given pieces; degenerate (Δ, Δ) when SE is 0. */
function interval(delta: number, variance: number, df: number, level: number): DifferenceInterval {
  const se = Math.sqrt(variance);
  if (variance === 0 || !Number.isFinite(df)) return { delta, se, df: null, t: null, low: delta, high: delta, level };
  const t = studentTQuantile((1 + level) / 2, df);
  return { delta, se, df, t, low: delta - t * se, high: delta + t * se, level };
}

/**
 * Welch's unpaired interval for mean(candidate) − mean(baseline), each side's repeat values independent:
 * SE = √(s_b²/n_b + s_c²/n_c), ν by Welch–Satterthwaite (fractional). Needs n ≥ 2 on each side.
 */
export function welchInterval(baseline: SampleSummary, candidate: SampleSummary, level = 0.95): DifferenceInterval | null {
  return weightedWelch([{ baseline, candidate, weight: 1 }], level);
}

/** One cell of a weighted Welch sum (compare-suite: one model × benchmark, weight 1/N). */
export interface WelchCell {
  baseline: SampleSummary;
  candidate: SampleSummary;
  weight: number;
}

/** Σ w·(x̄_c − x̄_b) with V = Σ w²(s_b²/n_b + s_c²/n_c) and Satterthwaite degrees of freedom. */
export function weightedWelch(cells: WelchCell[], level = 0.9): DifferenceInterval | null {
  if (cells.length === 0 || cells.some((c) => c.baseline.n < 2 || c.candidate.n < 2)) return null;
  let delta = 0;
  let variance = 0;
  let dfDenominator = 0;
  for (const { baseline: b, candidate: c, weight: w } of cells) {
    delta += w * (c.mean - b.mean);
    const vb = (w * w * b.variance) / b.n;
    const vc = (w * w * c.variance) / c.n;
    variance += vb + vc;
    dfDenominator += (vb * vb) / (b.n - 1) + (vc * vc) / (c.n - 1);
  }
  return interval(delta, variance, (variance * variance) / dfDenominator, level);
}

/**
 * Paired interval over per-task differences d_i = candidate_i − baseline_i (tasks both sides ran):
 * mean(d) ± t_{n−1}·s_d/√n. Removes between-task variance, so it is usually much narrower than Welch's.
 */
export function pairedInterval(differences: ArrayLike<number>, level = 0.95): (DifferenceInterval & { n: number; mde: number | null }) | null {
  const n = differences.length;
  if (n < 2) return null;
  const { mean, variance } = meanVariance(differences);
  const result = interval(mean, variance / n, n - 1, level);
  return { ...result, n, mde: minimumDetectableEffect(result.se, n - 1, level) };
}

/**
 * The smallest true difference a two-sided test at this level would detect with 80 % power:
 * (t_{(1+L)/2} + t_{0.8})·SE.
 */
export function minimumDetectableEffect(se: number, df: number, level: number, power = 0.8): number | null {
  if (!(df > 0) || !Number.isFinite(se)) return null;
  return (studentTQuantile((1 + level) / 2, df) + studentTQuantile(power, df)) * se;
}
