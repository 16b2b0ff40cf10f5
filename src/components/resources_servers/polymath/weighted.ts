/**
 * PolyMath's difficulty-weighted pass@k, pass@1[avg-of-k] and majority@k (NeMo Skills' WeightedMathMetrics as NeMo
 * Gym's polymath app.py computes them): each task counts with its first rollout's `weight` (1 when absent or 0).
 */
import { bigRatio, comb } from "../../../metrics/numeric.ts";
import { pyFloat } from "../../../metrics/pyjson.ts";
import type { JsonObject } from "../../../protocol/responses.ts";

type ScoreFn = (r: JsonObject) => Record<string, number>;

/** `{pass@k, pass@1[avg-of-k], majority@k (k ≥ 2)}/<score>_weighted` for k = 1 … the most rollouts of a task, in percent. */
export function weightedPassMajorityMetrics(tasks: JsonObject[][], scoreFn: ScoreFn, answerKey: string): JsonObject {
  const perTask = tasks.filter((r) => r.length > 0).map((rollouts) => ({
    weight: Number(rollouts[0]!.weight || 1.0) || 1.0,
    scores: rollouts.map(scoreFn),
    answers: rollouts.map((r) => r[answerKey] ?? null),
  }));
  if (perTask.length === 0) return {};
  const maxK = Math.max(...perTask.map((t) => t.scores.length));
  const names = [...new Set(perTask.flatMap((t) => t.scores.flatMap((s) => Object.keys(s))))].sort();
  const out: JsonObject = {};
  for (let k = 1; k <= maxK; k++) {
    for (const name of names) {
      let passK = 0;
      let pass1Avg = 0;
      let majority = 0;
      let weightSum = 0;
      for (const { weight, scores, answers } of perTask) {
        const vals = scores.filter((s) => name in s).map((s) => Boolean(s[name]));
        if (vals.length === 0 || k > vals.length) continue;
        const incorrect = vals.filter((v) => !v).length;
        passK += incorrect < k ? weight : weight * (1.0 - bigRatio(comb(incorrect, k), comb(vals.length, k)));
        pass1Avg += (weight * vals.slice(0, k).filter(Boolean).length) / k;
        if (k >= 2) {
          // Counter over (answer, correct) pairs of the first k, answers None skipped; ties share the top count.
          const counts = new Map<string, { v: boolean; n: number }>();
          answers.slice(0, k).forEach((a, i) => {
            if (a === null || i >= vals.length) return;
            const key = JSON.stringify([a, vals[i]]);
            const entry = counts.get(key) ?? { v: vals[i]!, n: 0 };
            entry.n += 1;
            counts.set(key, entry);
          });
          if (counts.size > 0) {
            const top = Math.max(...[...counts.values()].map((e) => e.n));
            const tied = [...counts.values()].filter((e) => e.n === top);
            majority += (weight * tied.filter((e) => e.v).length) / tied.length;
          }
        }
        weightSum += weight;
      }
      if (weightSum > 0) {
        out[`pass@${k}/${name}_weighted`] = pyFloat((100.0 * passK) / weightSum);
        out[`pass@1[avg-of-${k}]/${name}_weighted`] = pyFloat((100.0 * pass1Avg) / weightSum);
        if (k >= 2) out[`majority@${k}/${name}_weighted`] = pyFloat((100.0 * majority) / weightSum);
      }
    }
  }
  return out;
}
