/** Runs one infilled program in the sandbox: the harness's verdict, or "timed out" when it gave none (as NeMo Gym). */
import { runPythonHarness, type PythonInfo, type Sandbox } from "../../../sandbox/index.ts";
import { FIM_HARNESS_PY } from "./harness.ts";
import type { FimProblem } from "./problems.ts";

export interface FimVerdict {
  /** "passed" | "timed out" | "failed: <exception>" (human_eval_infilling's `result`). */
  result: string;
  /** Why the run gave no verdict (a sandbox limit, a crash), else null. */
  reason: string | null;
}

/** NeMo Gym joins the checking process after `timeout + 1` s; Python's start-up in the sandbox gets 5 s more. */
export async function checkCompletion(sandbox: Sandbox, python: PythonInfo, problem: FimProblem, completion: string, options: { timeout: number; memoryBytes: number }): Promise<FimVerdict> {
  const wall = options.timeout + 1 + 5;
  const { answer, run } = await runPythonHarness<{ result: string }>(
    sandbox,
    python,
    FIM_HARNESS_PY,
    { problem: { prompt: problem.prompt, suffix: problem.suffix, test: problem.test, entry_point: problem.entry_point }, completion, timeout: options.timeout },
    { wallSeconds: wall, cpuSeconds: wall, memoryBytes: options.memoryBytes, processes: 64 },
  );
  if (answer && typeof answer.result === "string") return { result: answer.result, reason: null };
  return { result: "timed out", reason: run.reason ?? (run.stderr.trim().split("\n").pop() || `the checker exited with code ${run.exitCode}`) };
}
