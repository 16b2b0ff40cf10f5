/**
 * One EvalPlus verdict in the sandbox: the canonical solution's outputs and times (once per task, cached), then the
 * solution on the base inputs and on the plus inputs, each in its own run with EvalPlus's process timeout
 * `min(60, Σ limits) + 3 s`. A run killed there is EvalPlus's "timeout".
 */
import { runPythonHarness, type PythonInfo, type Sandbox } from "../../../sandbox/index.ts";
import { EVALPLUS_HARNESS_PY } from "./harness.ts";

export interface GroundTruth {
  blob: string;
  base_time: number[];
  plus_time: number[];
}

export interface CheckOptions {
  dataset: string;
  minTimeLimit: number;
  gtTimeLimitFactor: number;
  memoryBytes: number;
}

export interface CheckResult {
  base_status: string | null;
  plus_status: string | null;
  base_details: number[] | null;
  plus_details: number[] | null;
}

/** Expected outputs and reference times of one problem, from its canonical solution. */
export async function groundTruth(sandbox: Sandbox, python: PythonInfo, problemLine: string, memoryBytes: number): Promise<GroundTruth> {
  const { answer, run } = await runPythonHarness<GroundTruth>(sandbox, python, EVALPLUS_HARNESS_PY, { mode: "groundtruth", problem_line: problemLine }, {
    wallSeconds: 300,
    cpuSeconds: 300,
    memoryBytes,
  });
  if (!answer) throw new Error(`the canonical solution gave no expected outputs: ${run.reason ?? run.stderr.trim().split("\n").pop()}`);
  return answer;
}

/** Base then plus, as `check_correctness(..., base_only=False, fast_check=False)`. */
export async function checkSolution(sandbox: Sandbox, python: PythonInfo, problemLine: string, code: string, truth: GroundTruth, options: CheckOptions): Promise<CheckResult> {
  const out: CheckResult = { base_status: null, plus_status: null, base_details: null, plus_details: null };
  for (const key of ["base", "plus"] as const) {
    const limits = truth[`${key}_time`].map((t) => Math.max(options.minTimeLimit, options.gtTimeLimitFactor * t));
    const wall = Math.min(60, limits.reduce((a, b) => a + b, 0)) + 3;
    const { answer } = await runPythonHarness<[string, number[]]>(
      sandbox,
      python,
      EVALPLUS_HARNESS_PY,
      { mode: "check", key, dataset: options.dataset, problem_line: problemLine, code, blob: truth.blob, time_limits: limits, memory_bytes: options.memoryBytes },
      { wallSeconds: wall, cpuSeconds: wall, memoryBytes: options.memoryBytes + 512 * 1024 ** 2 },
    );
    out[`${key}_status`] = answer ? answer[0] : "timeout";
    out[`${key}_details`] = answer ? answer[1] : [];
  }
  return out;
}
