/** The pass@k family servers use in compute_metrics: pass@k, pass@1[avg-of-k], majority@k, per-run spread. */
import { GymError } from "../errors.ts";
import { bigRatio, comb, pyDiv, pySum, toFloat, type PyScalar } from "./numeric.ts";
import { PyFloat, pyFloat } from "./pyjson.ts";
import { pyStr } from "./records.ts";

type Row = Record<string, unknown>;
/** A score as Python holds it: bigint = int (bools become 0/1), number = float, null = None. */
type Score = PyScalar | null;
type ScoreDict = Map<string, Score>;

/** Returns named scores for one rollout (bools allowed); default `{accuracy: reward}`. */
export type ScoreFn = (rollout: Row) => Record<string, unknown>;

export interface PassMajorityResult {
  metrics: Row;
  scores: ScoreDict[][];
  scoreNames: string[];
  maxK: number;
}

function toScore(v: unknown): Score {
  if (typeof v === "boolean") return v ? 1n : 0n;
  if (typeof v === "bigint") return v;
  if (v instanceof PyFloat) return v.value;
  if (typeof v === "number") return Number.isInteger(v) ? BigInt(v) : v;
  if (v === null || v === undefined) return null;
  throw new GymError("E_INPUT_SCHEMA", `a score must be a number or bool, got ${JSON.stringify(v)}`);
}

function num(s: Score, what: string): PyScalar {
  if (s === null) throw new GymError("E_INPUT_SCHEMA", `${what}: a rollout's score is null (no reward?)`, { hint: "Re-verify the rollout or drop it before aggregating." });
  return s;
}

/** Python equality key: 1 == 1.0 == True share one key, as in a Counter. */
function eqKey(v: unknown): string {
  if (typeof v === "string") return `s${v}`;
  if (typeof v === "boolean" || typeof v === "number" || typeof v === "bigint" || v instanceof PyFloat) return `n${Number(v)}`;
  if (v === null) return "null";
  return `j${JSON.stringify(v)}`;
}

const isBinary = (v: PyScalar) => Number(v) === 0 || Number(v) === 1;
const pct = (total: PyScalar, n: number) => (100 * toFloat(total)) / n;

/** Python `max` of a list: the first of the largest. */
function pyMax(values: PyScalar[]): PyScalar {
  let best = values[0]!;
  for (const v of values.slice(1)) if (v > best) best = v;
  return best;
}

/**
 * NeMo Gym's `compute_pass_majority_metrics`. With `answerKey`, a `no_answer` score is added and
 * majority@k computed. Averages use CPython's sum and are in percent (×100).
 */
export function computePassMajorityMetrics(tasks: Row[][], options: { scoreFn?: ScoreFn; answerKey?: string } = {}): PassMajorityResult {
  if (tasks.length === 0) return { metrics: {}, scores: [], scoreNames: [], maxK: 0 };
  const scoreFn = options.scoreFn ?? ((r: Row) => ({ accuracy: r.reward }));
  const answerKey = options.answerKey;
  const maxK = Math.max(...tasks.map((t) => t.length));
  const scores: ScoreDict[][] = [];
  const answers: unknown[][] = [];
  for (const rollouts of tasks) {
    const taskScores: ScoreDict[] = [];
    const taskAnswers: unknown[] = [];
    for (const r of rollouts) {
      const dict: ScoreDict = new Map(Object.entries(scoreFn(r)).map(([k, v]) => [k, toScore(v)]));
      if (answerKey !== undefined) {
        const answer = r[answerKey] ?? null;
        taskAnswers.push(answer);
        dict.set("no_answer", answer === null ? 1n : 0n);
      }
      taskScores.push(dict);
    }
    scores.push(taskScores);
    answers.push(taskAnswers);
  }
  const names = [...new Set(scores.flatMap((t) => t.flatMap((s) => [...s.keys()])))].sort();
  const metrics: Row = {};
  for (let k = 1; k <= maxK; k++) {
    for (const name of names) {
      const passValues: PyScalar[] = [];
      for (const taskScores of scores) {
        const vals = taskScores.filter((s) => s.has(name)).map((s) => s.get(name)!);
        if (vals.length === 0 || k > vals.length) continue;
        const nums = vals.map((v) => num(v, `pass@${k}/${name}`));
        if (nums.every(isBinary)) {
          const incorrect = nums.filter((v) => Number(v) === 0).length;
          passValues.push(incorrect < k ? 1.0 : 1.0 - bigRatio(comb(incorrect, k), comb(nums.length, k)));
        } else passValues.push(pyMax(nums.slice(0, k)));
      }
      if (passValues.length) metrics[`pass@${k}/${name}`] = pyFloat(pct(pySum(passValues), passValues.length));
      const avgValues: number[] = [];
      for (const taskScores of scores) {
        const vals = taskScores.slice(0, k).filter((s) => s.has(name)).map((s) => num(s.get(name)!, `pass@1[avg-of-${k}]/${name}`));
        if (vals.length) avgValues.push(pyDiv(pySum(vals), BigInt(vals.length)));
      }
      if (avgValues.length) metrics[`pass@1[avg-of-${k}]/${name}`] = pyFloat(pct(pySum(avgValues), avgValues.length));
      if (answerKey !== undefined) {
        const majority: PyScalar[] = scores.map((taskScores, t) => majorityValue(taskScores.slice(0, k), answers[t]!.slice(0, k), name));
        if (majority.length) metrics[`majority@${k}/${name}`] = pyFloat(pct(pySum(majority), majority.length));
      }
    }
  }
  const perSample: Record<string, number[]> = {};
  for (const name of names) perSample[name] = [];
  for (let run = 0; run < maxK; run++) {
    for (const name of names) {
      const runScores = scores.filter((t) => run < t.length && t[run]!.has(name)).map((t) => num(t[run]!.get(name)!, "per_sample_aggregate"));
      if (runScores.length) perSample[name]!.push(pct(pySum(runScores), runScores.length));
    }
  }
  for (const name of names) if (perSample[name]!.length === 0) delete perSample[name];
  metrics.per_sample_aggregate = Object.fromEntries(Object.entries(perSample).map(([k, v]) => [k, v.map(pyFloat)]));
  for (let k = 2; k <= maxK; k++) {
    for (const name of names) {
      const runs = (perSample[name] ?? []).slice(0, k);
      if (runs.length < 2) continue;
      const std = sampleStd(runs);
      metrics[`pass@1[avg-of-${k}]/${name}/std_dev_across_runs`] = pyFloat(std);
      metrics[`pass@1[avg-of-${k}]/${name}/std_err_across_runs`] = pyFloat(std / Math.sqrt(runs.length));
    }
  }
  return { metrics, scores, scoreNames: names, maxK };
}

function majorityValue(taskScores: ScoreDict[], taskAnswers: unknown[], name: string): PyScalar {
  const counts = new Map<string, { score: PyScalar; count: number }>();
  for (let i = 0; i < Math.min(taskScores.length, taskAnswers.length); i++) {
    const answer = taskAnswers[i];
    if (answer === null || answer === undefined || !taskScores[i]!.has(name)) continue;
    const score = num(taskScores[i]!.get(name)!, `majority/${name}`);
    const key = `${eqKey(answer)}\u0000${eqKey(score)}`;
    const entry = counts.get(key);
    if (entry) entry.count++;
    else counts.set(key, { score, count: 1 });
  }
  if (counts.size === 0) return 0n;
  const top = Math.max(...[...counts.values()].map((e) => e.count));
  const tied = [...counts.values()].filter((e) => e.count === top).map((e) => e.score);
  return pyDiv(pySum(tied), BigInt(tied.length));
}

/** Python's sample std of floats/ints: sum(...)/n mean, Σ(x − mean)²/(n − 1), sqrt. */
function sampleStd(values: PyScalar[]): number {
  const mean = pyDiv(pySum(values), BigInt(values.length));
  // Python evaluates `(x - mean) ** 2` with libm pow; d*d can differ in the last ulp (metrics.md N5).
  const squares = values.map((x) => {
    const d = toFloat(x) - mean;
    return d * d;
  });
  return Math.sqrt(toFloat(pySum(squares)) / (values.length - 1));
}

/** `add_avg_sample_std_dev`: mean over tasks of each task's std among its first k scores (0–1 scale). */
export function addAvgSampleStdDev(result: PassMajorityResult): void {
  if (result.maxK <= 1) return;
  for (let k = 2; k <= result.maxK; k++) {
    for (const name of result.scoreNames) {
      const stds: number[] = [];
      for (const taskScores of result.scores) {
        const vals = taskScores.slice(0, k).filter((s) => s.has(name)).map((s) => num(s.get(name)!, name));
        if (vals.length >= 2) stds.push(sampleStd(vals));
      }
      if (stds.length) result.metrics[`pass@1[avg-of-${k}]/${name}/avg_sample_std_dev`] = pyFloat(toFloat(pySum(stds)) / stds.length);
    }
  }
}

/** `compute_subset_metrics`: the family per value of `key` on each task's first rollout; falsy values (0, "", null) drop the task. */
export function computeSubsetMetrics(tasks: Row[][], key: string, options: { scoreFn?: ScoreFn; answerKey?: string } = {}): Row {
  const subsets = new Map<string, { label: string; tasks: Row[][] }>();
  for (const rollouts of tasks) {
    const value = rollouts[0]?.[key];
    if (!value || (value instanceof PyFloat && value.value === 0)) continue;
    const id = eqKey(value);
    if (!subsets.has(id)) subsets.set(id, { label: pyStr(value), tasks: [] });
    subsets.get(id)!.tasks.push(rollouts);
  }
  const metrics: Row = {};
  for (const { label, tasks: subsetTasks } of subsets.values()) {
    for (const [k, v] of Object.entries(computePassMajorityMetrics(subsetTasks, options).metrics)) {
      if (k !== "per_sample_aggregate") metrics[`${label}/${k}`] = v;
    }
  }
  return metrics;
}

/** `highest_k_metrics`: entries matching `pattern` (with `{k}`) at the largest k, spread statistics excluded. */
export function highestKMetrics(agentMetrics: Row, pattern: string, scoreNames?: string[], excludeNames?: string[]): Row {
  const escaped = pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace("\\{k\\}", "(\\d+)");
  const regex = new RegExp(`^${escaped}/(.+)$`, "s");
  const matches: Array<[number, string]> = [];
  for (const key of Object.keys(agentMetrics)) {
    const m = regex.exec(key);
    if (!m) continue;
    const name = m[2]!;
    if (["std_dev_across_runs", "std_err_across_runs", "avg_sample_std_dev"].some((s) => name.endsWith(s))) continue;
    if (scoreNames && !scoreNames.includes(name)) continue;
    if (excludeNames && excludeNames.includes(name)) continue;
    matches.push([Number(m[1]), key]);
  }
  if (matches.length === 0) return {};
  const top = Math.max(...matches.map(([k]) => k));
  return Object.fromEntries(matches.filter(([k]) => k === top).map(([, key]) => [key, agentMetrics[key]]));
}

/** The key metrics of a pass@k / majority@k server (math_with_judge, frontierscience_judge): mean tokens, then the highest k of each. */
export function passMajorityKeyMetrics(agentMetrics: Row): Row {
  const key: Row = {};
  for (const name of ["mean/input_tokens", "mean/output_tokens"]) if (name in agentMetrics) key[name] = agentMetrics[name];
  Object.assign(key, highestKMetrics(agentMetrics, "pass@1[avg-of-{k}]"));
  Object.assign(key, highestKMetrics(agentMetrics, "pass@{k}", undefined, ["no_answer"]));
  Object.assign(key, highestKMetrics(agentMetrics, "majority@{k}", undefined, ["no_answer"]));
  return key;
}
