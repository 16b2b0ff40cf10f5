/**
 * `gym dataset validate` and `gym eval run TARGET --agent harbor_oracle` (spec harbor-atif §2.1, §2.3): every selected task through the oracle, one at a time,
 * results under `results/harbor/validation/<taskset>/` (an evaluation: `results/harbor/<taskset>/`) (tasks.jsonl, skipped.json, run_config_harbor_oracle.yaml,
 * rollouts.jsonl, verifier/<task_id>/). Passing means: every selected task loaded, had a solution and scored ≥ 1.
 */
import { mkdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { GymError } from "../../errors.ts";
import { stringify } from "yaml";
import { runOracle, writeAtomic, type OracleRow } from "./oracle.ts";
import type { SandboxProvider } from "../../sandbox/provider.ts";
import { DATASET_DIGEST_KEY, DIGEST_KEY } from "./digest.ts";
import type { HarborTask, TaskSet } from "./tasks.ts";

/** A materialized row (§2.2): the task id, the prompt (or one turn per step), and task_data with the digests. */
export function materializedRow(set: TaskSet, task: HarborTask): Record<string, unknown> {
  const params = (text: string, timeout: number) => ({ input: [{ role: "user", content: text }], metadata: { agent_timeout_sec: Number.isInteger(timeout) ? `${timeout}.0` : String(timeout) } });
  const prompt = task.steps.length
    ? { turns: task.steps.map((s) => ({ step: s.name, responses_create_params: params(s.instruction, s.agentTimeoutSec) })) }
    : { responses_create_params: params(task.instruction, task.agentTimeoutSec) };
  return { _ng_task_id: { taskset: set.taskset, task_id: task.id }, ...prompt, task_data: { ...task.taskData, [DIGEST_KEY]: task.digest, [DATASET_DIGEST_KEY]: set.datasetDigest } };
}

export interface ValidateOutcome {
  dir: string;
  /** Where the rollouts went: `<dir>/rollouts.jsonl`, or the file `--output` named. */
  rollouts: string;
  rows: OracleRow[];
  lines: string[];
  passed: boolean;
}

function status(row: OracleRow): string {
  if (row.oracle === "unvalidated") return "unvalidated (no solution/)";
  if (row.mask_sample) return `masked (${row.failure_kind})`;
  return row.failure_kind ? `oracle ${row.oracle} (${row.failure_kind})` : `oracle ${row.oracle}`;
}

/** Writes a run's preparation files (tasks.jsonl, skipped.json, run_config_<agent>.yaml) and returns its results folder. */
export function prepareResults(set: TaskSet, options: { kind?: "validation" | "eval"; resultsRoot?: string; provider: SandboxProvider; agent: string; config?: Record<string, unknown> }): string {
  // An evaluation never shares a folder with a validation of the same target (it would resume from oracle rewards).
  const dir = resolve(options.resultsRoot ?? "results", "harbor", ...(options.kind === "eval" ? [] : ["validation"]), set.taskset);
  mkdirSync(join(dir, "verifier"), { recursive: true });
  writeAtomic(join(dir, "tasks.jsonl"), set.tasks.map((t) => `${JSON.stringify(materializedRow(set, t))}\n`).join(""));
  writeAtomic(join(dir, "skipped.json"), `${JSON.stringify(set.skipped, null, 2)}\n`);
  const runConfig = { target: set.renderedFrom ?? set.root, taskset: set.taskset, agent: options.agent, sandbox: options.provider.name, sandbox_limits: options.provider.limits, ...options.config, [DATASET_DIGEST_KEY]: set.datasetDigest, tasks: Object.fromEntries(set.tasks.map((t) => [t.id, { [DIGEST_KEY]: t.digest }])) };
  writeAtomic(join(dir, `run_config_${options.agent}.yaml`), stringify(runConfig));
  return dir;
}

/** The rollouts file of a Harbor run: `--output FILE` when given (its folder made), else `<dir>/rollouts.jsonl`. */
export function rolloutsPath(dir: string, output: string | undefined): string {
  if (output === undefined) return join(dir, "rollouts.jsonl");
  const file = resolve(output);
  if (statSync(file, { throwIfNoEntry: false })?.isDirectory()) {
    throw new GymError("E_BAD_FLAG_VALUE", `--output ${output} is a directory; it names the rollouts file.`, { hint: `Pass a file, e.g. --output ${join(output, "rollouts.jsonl")}.` });
  }
  mkdirSync(dirname(file), { recursive: true });
  return file;
}

export async function validateTaskSet(set: TaskSet, options: { kind?: "validation" | "eval"; resultsRoot?: string; output?: string; provider: SandboxProvider; log: (line: string) => void }): Promise<ValidateOutcome> {
  // A bad --output is refused before any task runs.
  if (options.output !== undefined) rolloutsPath(".", options.output);
  const dir = prepareResults(set, { ...options, agent: "harbor_oracle" });
  const rows: OracleRow[] = [];
  const lines: string[] = [];
  for (const [index, task] of set.tasks.entries()) {
    options.log(`[${index + 1}/${set.tasks.length}] ${task.id}: running solution/solve.sh, then tests/test.sh`);
    const row = { ...(await runOracle(task, set.taskset, join(dir, "verifier"), options.provider)), [DATASET_DIGEST_KEY]: set.datasetDigest };
    rows.push(row);
    const line = `${task.id}  ${status(row)}  ${row.oracle === "unvalidated" ? "-" : row.reward}`;
    lines.push(row.failure_reason && row.reward < 1 ? `${line}\n    ${row.failure_reason.trim().split("\n").join("\n    ")}` : line);
  }
  for (const skip of set.skipped) lines.push(`${skip.task_id}  failed: ${skip.reason}  -`);
  const rollouts = rolloutsPath(dir, options.output);
  writeAtomic(rollouts, rows.map((r) => `${JSON.stringify(r)}\n`).join(""));
  const passed = set.skipped.length === 0 && rows.length > 0 && rows.every((r) => r.oracle !== "unvalidated" && !r.mask_sample && r.reward >= 1);
  return { dir, rollouts, rows, lines, passed };
}
