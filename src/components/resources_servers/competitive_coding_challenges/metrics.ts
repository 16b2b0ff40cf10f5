/** NeMo Gym's contest score: per problem, each subtask's best score over all its rollouts, summed; then over problems. */
import { pyFloat } from "../../../metrics/pyjson.ts";

type Row = Record<string, any>;

export interface SubtaskScore {
  score: unknown;
  max_score: unknown;
}

/** Python's `sum()` of floats: the int 0 when empty, else a float. */
const pySum = (values: number[]) => (values.length ? pyFloat(values.reduce((a, b) => a + b, 0)) : 0);

export function problemScores(tasks: Row[][], cap: (problemId: string, competitionId: string | null, subtask: string) => number) {
  const best = new Map<string, Map<string, number>>();
  const caps = new Map<string, Map<string, number>>();
  for (const rollouts of tasks) {
    for (const r of rollouts) {
      const problemId = r.problem_id || r.ioi_id;
      if (!problemId) continue;
      const results = (r.details?.test_case_results ?? {}) as Record<string, Row | null>;
      for (const [subtask, sub] of Object.entries(results)) {
        const achieved = Number(sub?.score ?? 0) || 0;
        if (!best.has(problemId)) best.set(problemId, new Map());
        const scores = best.get(problemId)!;
        if (achieved > (scores.get(subtask) ?? 0)) scores.set(subtask, achieved);
        if (!caps.has(problemId)) caps.set(problemId, new Map());
        if (!caps.get(problemId)!.has(subtask)) caps.get(problemId)!.set(subtask, cap(problemId, r.competition_id ?? null, subtask));
      }
    }
  }
  let total = 0;
  const perProblem: Record<string, { total: SubtaskScore; subtasks: Record<string, SubtaskScore> }> = {};
  for (const [problemId, scores] of best) {
    const problemTotal = [...scores.values()].reduce((a, b) => a + b, 0);
    const problemCaps = caps.get(problemId) ?? new Map<string, number>();
    const subtasks: Record<string, SubtaskScore> = {};
    for (const [subtask, score] of scores) subtasks[subtask] = { score: pyFloat(score), max_score: pyFloat(problemCaps.get(subtask) ?? 0) };
    perProblem[problemId] = { total: { score: pySum([...scores.values()]), max_score: pySum([...problemCaps.values()]) }, subtasks };
    total += problemTotal;
  }
  return { total, perProblem };
}
