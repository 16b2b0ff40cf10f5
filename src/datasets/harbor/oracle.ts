/**
 * The oracle harness on one task (spec harbor-atif §1.3, §1.5, §2.3): a fresh sandbox, solution/ → /solution,
 * `bash /solution/solve.sh` from the workdir (limit: min(agent timeout, 3600) s), then tests/ → /tests and
 * `bash /tests/test.sh` (limit: verifier timeout), and the reward file read and scored measured-vs-masked.
 * Verifier logs are copied to `<logsDir>/<task_id>/`.
 */
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { closeSandbox, createSandbox, execIn, hostPath, uploadDir } from "../../sandbox/local-provider.ts";
import { readReward } from "./reward.ts";
import type { HarborTask } from "./tasks.ts";

export type OracleStatus = "solved" | "failed" | "unvalidated";

export interface OracleRow {
  _ng_task_id: { taskset: string; task_id: string };
  reward: number;
  verifier_rewards: Record<string, number> | null;
  verifier_return_code: number | null;
  verifier_logs_dir: string | null;
  verifier_seconds: number | null;
  mask_sample: boolean;
  failure_kind: string | null;
  failure_reason: string | null;
  oracle: OracleStatus;
  oracle_return_code: number | null;
  oracle_error_type: string | null;
  oracle_output: string;
}

const tail = (text: string, n: number) => (text.length > n ? text.slice(-n) : text);
const readIf = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : "");

export async function runOracle(task: HarborTask, taskset: string, logsDir: string): Promise<OracleRow> {
  const base = { _ng_task_id: { taskset, task_id: task.id }, verifier_rewards: null, verifier_return_code: null, verifier_logs_dir: null, verifier_seconds: null, oracle_return_code: null, oracle_error_type: null };
  if (!task.hasSolution) {
    return { ...base, reward: 0, mask_sample: false, failure_kind: null, failure_reason: "no solution/solve.sh", oracle: "unvalidated", oracle_output: "" };
  }
  const handle = await createSandbox({ workdir: task.workdir, env: task.env, memoryMib: task.memoryMb });
  try {
    uploadDir(handle, join(task.dir, "solution"), "solution");
    const solveLimit = Math.min(task.agentTimeoutSec, 3600);
    const solve = await execIn(handle, "bash /solution/solve.sh > /logs/agent/solve-stdout.txt 2>&1", { env: task.solutionEnv, timeoutS: solveLimit });
    const solveLog = readIf(hostPath(handle, "logs/agent/solve-stdout.txt"));
    const oracle: OracleStatus = solve.return_code === 0 ? "solved" : "failed";
    const oracleOutput = tail(solveLog, 4000) + (solve.reason ? `\n[${solve.reason}]` : "");
    // The verifier sees a clean /logs/verifier (nothing the solution planted) and the tests uploaded only now.
    rmSync(hostPath(handle, "logs/verifier"), { recursive: true, force: true });
    mkdirSync(hostPath(handle, "logs/verifier"));
    chmodSync(hostPath(handle, "logs/verifier"), 0o777);
    uploadDir(handle, join(task.dir, "tests"), "tests");
    const started = performance.now();
    const test = await execIn(handle, "bash /tests/test.sh > /logs/verifier/test-stdout.txt 2>&1", { env: task.verifierEnv, timeoutS: task.verifierTimeoutSec });
    const seconds = (performance.now() - started) / 1000;
    const logs = join(logsDir, task.id);
    rmSync(logs, { recursive: true, force: true });
    mkdirSync(logs, { recursive: true });
    cpSync(hostPath(handle, "logs/verifier"), logs, { recursive: true });
    if (existsSync(hostPath(handle, "logs/agent/solve-stdout.txt"))) cpSync(hostPath(handle, "logs/agent/solve-stdout.txt"), join(logs, "solve-stdout.txt"));
    const testLog = tail(readIf(join(logs, "test-stdout.txt")), 600);
    const row = { ...base, verifier_return_code: test.return_code, verifier_logs_dir: logs, verifier_seconds: seconds, oracle, oracle_return_code: solve.return_code, oracle_error_type: solve.error_type, oracle_output: oracleOutput };
    const solveNote = oracle === "failed" ? `solve.sh ${solve.reason ?? `exited ${solve.return_code}`}; ` : "";
    if (test.error_type === "timeout" || test.return_code === 137) {
      return { ...row, reward: 0, mask_sample: false, failure_kind: "harbor:verifier_timeout", failure_reason: `${solveNote}tests/test.sh ${test.reason ?? "was killed"}\n${testLog}`.slice(0, 2000) };
    }
    if (test.error_type === "sandbox") {
      return { ...row, reward: 0, mask_sample: true, failure_kind: "verifier_error", failure_reason: `${solveNote}tests/test.sh: ${test.reason}\n${testLog}`.slice(0, 2000) };
    }
    const read = readReward(logs);
    if (!read.ok) return { ...row, reward: 0, mask_sample: false, failure_kind: read.kind, failure_reason: `${solveNote}${read.reason}\n${testLog}`.slice(0, 2000) };
    const failure = read.reward < 1 ? `${solveNote}reward ${read.reward}; test-stdout.txt: ${testLog.trim()}`.slice(0, 2000) : null;
    return { ...row, reward: read.reward, verifier_rewards: read.rewards, mask_sample: false, failure_kind: null, failure_reason: failure };
  } finally {
    closeSandbox(handle);
  }
}

/** Writes a file through a temp name and a rename. */
export function writeAtomic(path: string, text: string): void {
  const temp = `${path}.tmp-${process.pid}`;
  writeFileSync(temp, text);
  renameSync(temp, path);
}
