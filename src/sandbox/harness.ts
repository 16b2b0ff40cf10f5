/**
 * A Python grading program run in the sandbox with one JSON request on stdin and one JSON answer back. The answer
 * line starts with a random nonce given on stdin (read before the graded code runs), so whatever the graded code
 * prints cannot pass for a verdict.
 */
import { randomUUID } from "node:crypto";
import type { Sandbox, SandboxLimits, SandboxResult } from "./index.ts";
import type { PythonInfo } from "./python.ts";

export interface HarnessOutcome<T> {
  /** The harness's answer, or null when it gave none (killed at a limit, crashed). */
  answer: T | null;
  run: SandboxResult;
}

/** Runs `harness` (Python source) with `request` as JSON on stdin; `limits` bound the whole run. */
export async function runPythonHarness<T>(
  sandbox: Sandbox,
  python: PythonInfo,
  harness: string,
  request: Record<string, unknown>,
  limits: Partial<SandboxLimits>,
): Promise<HarnessOutcome<T>> {
  const nonce = `@gym-verdict-${randomUUID()}@`;
  const stdin = new TextEncoder().encode(JSON.stringify({ ...request, nonce }));
  const run = await sandbox.run({
    argv: [python.executable, "/sandbox/harness.py"],
    stdin,
    files: { "harness.py": harness },
    readOnlyRoots: python.roots,
    env: { PYTHONDONTWRITEBYTECODE: "1" },
    limits,
  });
  const at = run.stdout.lastIndexOf(nonce);
  if (at < 0) return { answer: null, run };
  const end = run.stdout.indexOf("\n", at);
  try {
    return { answer: JSON.parse(run.stdout.slice(at + nonce.length, end < 0 ? undefined : end)) as T, run };
  } catch {
    return { answer: null, run };
  }
}
