/** The AvgMinMax statistic of dataset collate: running mean/variance (two update paths) and NeMo Gym's rounding. */
import { pyRound } from "../metrics/numeric.ts";
import { pyFloat, type PyFloat } from "../metrics/pyjson.ts";

/** Running state: count, mean, sum of squared deviations, extremes. */
export class AvgMinMax {
  total = 0;
  mean = 0;
  m2 = 0;
  min = Infinity;
  max = -Infinity;

  /** Welford's update, used for the "other" fields of a row. */
  observe(x: number): void {
    if (x < this.min) this.min = x;
    if (x > this.max) this.max = x;
    this.total += 1;
    const delta = x - this.mean;
    this.mean += delta / this.total;
    this.m2 += delta * (x - this.mean);
  }

  /** One-observation accumulator; the fixed fields are built this way and then merged (not observed). */
  static of(x: number): AvgMinMax {
    const acc = new AvgMinMax();
    acc.observe(x);
    return acc;
  }

  /** Chan et al.'s merge. Algebraically equal to observing, not bitwise equal: NeMo Gym uses both. */
  merge(other: AvgMinMax): void {
    if (other.total === 0) return;
    if (this.total === 0) {
      this.total = other.total;
      this.mean = other.mean;
      this.m2 = other.m2;
      this.min = other.min;
      this.max = other.max;
      return;
    }
    const n1 = this.total;
    const n2 = other.total;
    const delta = other.mean - this.mean;
    const n = n1 + n2;
    this.mean = this.mean + delta * (n2 / n);
    this.m2 = this.m2 + other.m2 + delta * delta * ((n1 * n2) / n);
    this.total = n;
    if (other.min < this.min) this.min = other.min;
    if (other.max > this.max) this.max = other.max;
  }

  /** The JSON object NeMo Gym writes, with its key names, rounding, and 0.0 for an empty field. */
  summary(): AvgMinMaxSummary {
    const n = this.total;
    return {
      "Total # non-null values": n,
      Average: pyFloat(roundMetric(n > 0 ? this.mean : 0)),
      Min: pyFloat(n > 0 ? roundMetric(this.min) : 0),
      Max: pyFloat(n > 0 ? roundMetric(this.max) : 0),
      "Standard deviation": pyFloat(roundMetric(n > 1 ? Math.sqrt(this.m2 / (n - 1)) : 0)),
    };
  }
}

export interface AvgMinMaxSummary {
  "Total # non-null values": number;
  Average: number | PyFloat;
  Min: number | PyFloat;
  Max: number | PyFloat;
  "Standard deviation": number | PyFloat;
}

/**
 * Two decimals from 1 up (judged before rounding), three below. Integral values are unchanged by this,
 * which is why NeMo Gym's "ints are not rounded" rule needs no int/float tracking here.
 */
function roundMetric(x: number): number {
  return x >= 1 || x <= -1 ? pyRound(x, 2) : pyRound(x, 3);
}
