/** Grades one program against LiveCodeBench unit tests in the sandbox, with NeMo Gym's global timeout `(t+1)·n+5 s`. */
import { totalmem } from "node:os";
import { runPythonHarness, type PythonInfo, type Sandbox } from "../../../sandbox/index.ts";
import { HARNESS_PY } from "./harness.ts";

export interface UnitTests {
  inputs: string[];
  outputs: string[];
  fn_name: string | null;
}

export interface Verdict {
  /** Per test: true, or LiveCodeBench's error code (-1 global timeout, -2 wrong, -3 time limit, -4 runtime error). */
  result: (boolean | number)[];
  metadata: Record<string, unknown> | null;
}

/** The memory cap of one program: NeMo Gym's 4 GiB, lowered so `concurrency` programs fit in 3/4 of the machine. */
export function programMemoryBytes(concurrency: number, configuredMb?: number | null): number {
  if (configuredMb) return configuredMb * 1024 ** 2;
  return Math.min(4 * 1024 ** 3, Math.floor((0.75 * totalmem()) / Math.max(1, concurrency)));
}

/** Runs the harness; a run that gave no verdict (a limit, a crash) fails every test, as NeMo Gym's global timeout does. */
export async function gradeProgram(
  sandbox: Sandbox,
  python: PythonInfo,
  code: string,
  tests: UnitTests,
  options: { timeoutSecs: number; memoryBytes: number },
): Promise<Verdict> {
  const globalTimeout = (options.timeoutSecs + 1) * tests.inputs.length + 5;
  const { answer, run } = await runPythonHarness<Verdict>(
    sandbox,
    python,
    HARNESS_PY,
    { tests, code, timeout: options.timeoutSecs },
    { wallSeconds: globalTimeout, cpuSeconds: globalTimeout, memoryBytes: options.memoryBytes, processes: 64 },
  );
  if (answer) return answer;
  const reason = run.reason ?? (run.stderr.trim().split("\n").pop() || `the grader exited with code ${run.exitCode}`);
  return {
    result: tests.inputs.map(() => -1),
    metadata: { error_code: -1, error_message: `no verdict: ${reason}`, sandbox_limit: run.limit },
  };
}

/** NeMo Gym's `all(r == True for r in result)`: Python counts `1` as True, so an int 1 passes too. */
export function allPassed(result: (boolean | number)[]): boolean {
  return result.every((r) => r === true || r === 1);
}
