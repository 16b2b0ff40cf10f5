/** NeMo Gym's CCC rewards: binary (the asked subtask, or the whole problem, at its full score) and fraction (tests passed). */
import type { Evaluation } from "./evaluate.ts";
import type { ProblemIndex } from "./metadata.ts";

export interface Request {
  competition_id?: string | null;
  problem_id: string;
  subtask?: string | null;
  subtask_score?: number | null;
}

const num = (x: unknown) => Number(x ?? 0) || 0;

/** The most a subtask can award (`sum_tests`: its test count), or 0 when unknown. */
export function subtaskCap(index: ProblemIndex, problemId: string, competitionId: string | null, subtask: string): number {
  try {
    const meta = index.get(problemId, competitionId).subtasks[subtask];
    if (!meta) return 0;
    if (meta.aggregation === "sum_tests") return meta.test_names.length;
    return meta.score != null ? Number(meta.score) : 0;
  } catch {
    return 0;
  }
}

function subtaskMax(request: Request, index: ProblemIndex): number | null {
  if (request.subtask_score != null) return Number(request.subtask_score);
  if (!request.subtask) return null;
  try {
    const meta = index.get(request.problem_id, request.competition_id || null).subtasks[request.subtask];
    if (!meta) return null;
    if (meta.aggregation === "sum_tests") return meta.test_names.length;
    return meta.score != null ? Number(meta.score) : null;
  } catch {
    return null;
  }
}

export function binaryReward(request: Request, evaluation: Evaluation, index: ProblemIndex): number {
  const results = evaluation.test_case_results ?? {};
  if (request.subtask && request.subtask in results) {
    const achieved = num(results[request.subtask]!.score);
    const max = subtaskMax(request, index);
    return (max && achieved >= max) || (max === null && achieved > 0) ? 1 : 0;
  }
  const total = Object.values(results).reduce((sum, r) => sum + num(r.score), 0);
  let subtasks = {};
  try {
    subtasks = index.get(request.problem_id, request.competition_id || null).subtasks;
  } catch {}
  let maxTotal = 0;
  for (const meta of Object.values(subtasks) as { aggregation: string; score: number; test_names: string[] }[]) {
    maxTotal += meta.aggregation === "sum_tests" ? meta.test_names.length : num(meta.score);
  }
  if (maxTotal && total >= maxTotal) return 1;
  if (maxTotal === 0 && Object.values(results).every((r) => num(r.score) > 0)) return 1;
  return 0;
}

export function fractionReward(request: Request, evaluation: Evaluation): number {
  const results = evaluation.test_case_results ?? {};
  let outputs: { score?: number; test_name?: string }[] = [];
  if (request.subtask && request.subtask in results) outputs = results[request.subtask]!.outputs ?? [];
  else {
    const seen = new Set<string>();
    for (const [name, result] of Object.entries(results)) {
      (result.outputs ?? []).forEach((output, i) => {
        const key = output.test_name != null ? `t:${output.test_name}` : `s:${name}:${i}`;
        if (seen.has(key)) return;
        seen.add(key);
        outputs.push(output);
      });
    }
  }
  if (!outputs.length) return 0;
  return outputs.filter((o) => num(o.score) >= 1).length / outputs.length;
}
