/**
 * NeMo Gym's CCC evaluation of one rollout: the problem's tests (only the asked subtask's, when it names one) run
 * in batches of `test_batch_size`; within a batch a test runs when one of its subtasks still counts (a `min` subtask
 * stops counting at its first test below 1, unless every test must run); each subtask's score is
 * `round(min(scores) · score, precision)` (`min`) or its count of passed tests (`sum_tests`).
 */
import type { Semaphore } from "../../../jsonl/concurrency.ts";
import type { Sandbox } from "../../../sandbox/index.ts";
import type { Problem, Subtask } from "./metadata.ts";
import { compileSolution, runTest, type RunLimits, type TestOutput } from "./run-tests.ts";

export interface Evaluation {
  name: string;
  subtask: string | null;
  test_case_results: Record<string, { score: number; outputs: TestOutput[] }>;
  num_tests_run: number;
  total_test_execution_time_s: number;
  mean_test_execution_time_s: number;
}

export interface EvaluateOptions {
  testBatchSize: number;
  timeScale: number;
  runAllTests: boolean;
  limits: RunLimits;
  /** Test runs in flight across all rollouts (NeMo Gym's thread pool of `test_batch_size`). */
  slots: Semaphore;
}

function pyRound(x: number, digits: number): number {
  const factor = 10 ** digits;
  const scaled = x * factor;
  const floor = Math.floor(scaled);
  const diff = scaled - floor;
  const rounded = diff > 0.5 || (diff === 0.5 && floor % 2 !== 0) ? floor + 1 : floor;
  return rounded / factor;
}

function subtaskScore(meta: Subtask, outputs: TestOutput[], failed: boolean): number {
  if (meta.aggregation === "min") {
    if (failed) return 0;
    const scores = outputs.map((o) => Number(o.score ?? 0));
    return pyRound((scores.length ? Math.min(...scores) : 0) * Number(meta.score), Math.max(0, Math.trunc(meta.score_precision ?? 0)));
  }
  if (meta.aggregation === "sum_tests") return outputs.filter((o) => Number(o.score ?? 0) > 0).length;
  throw new Error(`Unsupported aggregation: ${meta.aggregation}`);
}

export async function evaluate(
  sandbox: Sandbox,
  problem: Problem,
  entry: { problemId: string; name: string; subtask: string | null; code: string; taskType: string; totalTime: number },
  options: EvaluateOptions,
): Promise<Evaluation> {
  const timeScale = options.timeScale * (entry.totalTime > 300 ? 0.5 : 1);
  const state = new Map(Object.entries(problem.subtasks).map(([name, meta]) => [name, { aggregation: meta.aggregation, outputs: [] as TestOutput[], failed: false }]));
  const testSubtasks = new Map<string, string[]>();
  for (const [name, meta] of Object.entries(problem.subtasks)) for (const test of meta.test_names) testSubtasks.set(test, [...(testSubtasks.get(test) ?? []), name]);
  let tests = Object.entries(problem.all_tests);
  if (entry.subtask && entry.subtask in problem.subtasks) {
    const wanted = new Set(problem.subtasks[entry.subtask]!.test_names);
    tests = tests.filter(([name]) => wanted.has(name));
  }
  const times: number[] = [];
  const build = await compileSolution(sandbox, problem, entry.problemId, entry.code, entry.taskType, options.limits);
  try {
    for (let i = 0; i < tests.length; i += options.testBatchSize) {
      const batch = tests.slice(i, i + options.testBatchSize).filter(([name]) =>
        options.runAllTests || (testSubtasks.get(name) ?? []).some((s) => state.get(s)!.aggregation === "sum_tests" || !state.get(s)!.failed),
      );
      if (!batch.length) continue;
      const results = await Promise.all(
        batch.map(async ([, data]) => {
          await options.slots.acquire();
          try {
            return await runTest(sandbox, build, data, timeScale, options.limits);
          } finally {
            options.slots.release();
          }
        }),
      );
      batch.forEach(([name], k) => {
        const result = results[k]!;
        if (result.run_time_s !== undefined) times.push(result.run_time_s);
        result.test_name = name;
        const group = problem.all_tests[name]!.group;
        if (group != null) result.test_group = group;
        for (const s of testSubtasks.get(name) ?? []) {
          const st = state.get(s)!;
          if (!options.runAllTests && st.aggregation === "min" && st.failed) continue;
          st.outputs.push({ ...result });
          if (st.aggregation === "min" && Number(result.score ?? 0) < 1) st.failed = true;
        }
      });
    }
  } finally {
    build.dispose();
  }
  const results: Evaluation["test_case_results"] = {};
  for (const [name, meta] of Object.entries(problem.subtasks)) {
    const st = state.get(name)!;
    results[name] = { score: subtaskScore(meta, st.outputs, st.failed), outputs: st.outputs };
  }
  const total = times.reduce((a, b) => a + b, 0);
  return {
    name: entry.name,
    subtask: entry.subtask,
    test_case_results: results,
    num_tests_run: times.length,
    total_test_execution_time_s: total,
    mean_test_execution_time_s: times.length ? total / times.length : 0,
  };
}
