/** NeMo Gym's pass@k / pass@1[avg-of-k] / majority@k family and highest-k selection, with CPython's numerics (metrics.md §1.6). */
import { bigRatio, comb, pyDiv, pySum, toFloat, type PyScalar } from "../../../metrics/numeric.ts";
import { PyFloat, pyFloat } from "../../../metrics/pyjson.ts";
import { PyException } from "../_python/errors.ts";
import { pyEquals } from "../_python/values.ts";

type Row = Record<string, unknown>;

/** Named scores of one rollout (bools become ints, as NeMo Gym does). */
export type ScoreFn = (rollout: Row) => Record<string, unknown>;

/** A JSON value as a Python number: a whole JS number is an int (bigint), PyFloat or fraction a float. */
function scalar(v: unknown): PyScalar {
  if (typeof v === "boolean") return v ? 1n : 0n;
  if (v instanceof PyFloat) return v.value;
  if (typeof v === "number") return Number.isInteger(v) ? BigInt(v) : v;
  throw new PyException("TypeError", `unsupported score value ${JSON.stringify(v)}`);
}

const num = (x: PyScalar) => toFloat(x);
const percentOf = (values: PyScalar[]) => pyFloat((100.0 * num(pySum(values))) / values.length);

function maxFirst(values: PyScalar[]): PyScalar {
  let best = values[0]!;
  for (const v of values) if (num(v) > num(best)) best = v;
  return best;
}

/** compute_pass_majority_metrics(tasks, score_fn, answer_key)[0]: metric name → value (percent). */
export function passMajorityMetrics(tasks: Row[][], scoreFn: ScoreFn = (r) => ({ accuracy: r.reward }), answerKey?: string): Row {
  if (tasks.length === 0) return {};
  const maxK = Math.max(...tasks.map((t) => t.length));
  const metrics: Row = {};
  const scores: Map<string, PyScalar>[][] = [];
  const answers: unknown[][] = [];
  for (const rollouts of tasks) {
    const taskScores: Map<string, PyScalar>[] = [];
    const taskAnswers: unknown[] = [];
    for (const r of rollouts) {
      const s = new Map<string, PyScalar>();
      for (const [k, v] of Object.entries(scoreFn(r))) s.set(k, scalar(v));
      if (answerKey !== undefined) {
        const answer = r[answerKey] ?? null;
        taskAnswers.push(answer);
        s.set("no_answer", answer === null ? 1n : 0n);
      }
      taskScores.push(s);
    }
    scores.push(taskScores);
    answers.push(taskAnswers);
  }
  // sorted() of str: code-point order, which is UTF-16 order for these ASCII-ish names.
  const names = [...new Set(scores.flatMap((t) => t.flatMap((s) => [...s.keys()])))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

  for (let k = 1; k <= maxK; k++) {
    for (const name of names) {
      const passValues: PyScalar[] = [];
      for (const taskScores of scores) {
        const vals = taskScores.filter((s) => s.has(name)).map((s) => s.get(name)!);
        if (vals.length === 0 || k > vals.length) continue;
        if (vals.every((v) => num(v) === 0 || num(v) === 1)) {
          const wrong = vals.filter((v) => num(v) === 0).length;
          passValues.push(wrong < k ? 1.0 : 1.0 - bigRatio(comb(wrong, k), comb(vals.length, k)));
        } else passValues.push(maxFirst(vals.slice(0, k)));
      }
      if (passValues.length) metrics[`pass@${k}/${name}`] = percentOf(passValues);

      const avgValues: PyScalar[] = [];
      for (const taskScores of scores) {
        const vals = taskScores.slice(0, k).filter((s) => s.has(name)).map((s) => s.get(name)!);
        if (vals.length) avgValues.push(pyDiv(pySum(vals), BigInt(vals.length)));
      }
      if (avgValues.length) metrics[`pass@1[avg-of-${k}]/${name}`] = percentOf(avgValues);

      if (answerKey !== undefined) {
        const majority: PyScalar[] = scores.map((taskScores, t) => majorityValue(answers[t]!.slice(0, k), taskScores.slice(0, k), name));
        if (majority.length) metrics[`majority@${k}/${name}`] = percentOf(majority);
      }
    }
  }

  const perSample: Record<string, (number | PyFloat)[]> = {};
  const perSampleRaw: Record<string, number[]> = {};
  for (const name of names) {
    perSampleRaw[name] = [];
    for (let run = 0; run < maxK; run++) {
      const runScores = scores.filter((t) => run < t.length && t[run]!.has(name)).map((t) => t[run]!.get(name)!);
      if (runScores.length) perSampleRaw[name].push((100.0 * num(pySum(runScores))) / runScores.length);
    }
    if (perSampleRaw[name].length) perSample[name] = perSampleRaw[name].map(pyFloat);
  }
  metrics.per_sample_aggregate = perSample;

  for (let k = 2; k <= maxK; k++) {
    for (const name of names) {
      const runs = (perSampleRaw[name] ?? []).slice(0, k);
      if (runs.length < 2) continue;
      const mean = num(pySum(runs)) / runs.length;
      // x ** 2 is libm pow in Python; d*d differs in the last ulp for a few inputs (metrics.md N5).
      const variance = num(pySum(runs.map((x) => (x - mean) * (x - mean)))) / (runs.length - 1);
      const std = Math.sqrt(variance);
      metrics[`pass@1[avg-of-${k}]/${name}/std_dev_across_runs`] = pyFloat(std);
      metrics[`pass@1[avg-of-${k}]/${name}/std_err_across_runs`] = pyFloat(std / Math.sqrt(runs.length));
    }
  }
  return metrics;
}

/** Majority vote over (answer, score) pairs with an answer; ties average the tied pairs' scores. */
function majorityValue(answers: unknown[], taskScores: Map<string, PyScalar>[], name: string): PyScalar {
  const pairs: { answer: unknown; score: PyScalar; count: number }[] = [];
  for (let i = 0; i < Math.min(answers.length, taskScores.length); i++) {
    const answer = answers[i];
    if (answer === null || answer === undefined || !taskScores[i]!.has(name)) continue;
    const score = taskScores[i]!.get(name)!;
    const same = pairs.find((p) => pyEquals(p.answer, answer) && num(p.score) === num(score));
    if (same) same.count++;
    else pairs.push({ answer, score, count: 1 });
  }
  if (pairs.length === 0) return 0n;
  const top = Math.max(...pairs.map((p) => p.count));
  const tied = pairs.filter((p) => p.count === top);
  return pyDiv(pySum(tied.map((p) => p.score)), BigInt(tied.length));
}

const STAT_SUFFIXES = ["std_dev_across_runs", "std_err_across_runs", "avg_sample_std_dev"];

/** highest_k_metrics: the entries of `pattern` (with `{k}`) at the largest k, filtered by score name. */
export function highestKMetrics(metrics: Row, pattern: string, scoreNames?: string[], excludeNames?: string[]): Row {
  const escaped = pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace("\\{k\\}", "(\\d+)");
  const regex = new RegExp(`^${escaped}/(.+)$`, "s");
  const matches: [number, string][] = [];
  for (const key of Object.keys(metrics)) {
    const m = regex.exec(key);
    if (!m) continue;
    const name = m[2]!;
    if (STAT_SUFFIXES.some((s) => name.endsWith(s))) continue;
    if (scoreNames && !scoreNames.includes(name)) continue;
    if (excludeNames && excludeNames.includes(name)) continue;
    matches.push([Number(m[1]), key]);
  }
  if (matches.length === 0) return {};
  const top = Math.max(...matches.map(([k]) => k));
  return Object.fromEntries(matches.filter(([k]) => k === top).map(([, key]) => [key, metrics[key]]));
}
