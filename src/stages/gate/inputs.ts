/** What `gym eval gate` reads of a run: its aggregate metrics, its rollout counts and its cost (RUN: a rollouts file or a run folder). */
import * as fs from "node:fs";
import { join } from "node:path";
import { GymError } from "../../errors.ts";
import { readJsonFile } from "../../jsonl/json-file.ts";
import { readRows } from "../../jsonl/read.ts";
import { runPaths } from "../../outputs/paths.ts";
import { loadRun, type RunSource } from "../compare/load.ts";
import { runCost } from "../cost/run.ts";
import type { RunCost } from "../cost/index.ts";

export interface GateInputs {
  rollouts: string;
  source: RunSource;
  counts: { expected: number; succeeded: number };
  cost?: RunCost;
}

/** The rollouts file a target names: itself, or the one run of a folder (`rollouts.jsonl` first, else the only `<stem>_aggregate_metrics.json`). */
export function rolloutsOf(target: string, flag: string): string {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) throw new GymError("E_INPUT_NOT_FOUND", `${flag} ${target}: no such file or folder.`, { hint: "Pass a rollouts .jsonl file or the folder a run wrote (its --output folder)." });
  if (!stat.isDirectory()) return target;
  const stems = fs.readdirSync(target).filter((n) => n.endsWith("_aggregate_metrics.json")).map((n) => n.slice(0, -"_aggregate_metrics.json".length)).sort();
  if (stems.includes("rollouts")) return join(target, "rollouts.jsonl");
  if (stems.length === 1) return join(target, `${stems[0]}.jsonl`);
  throw new GymError("E_INPUT_NOT_FOUND", stems.length === 0 ? `${flag} ${target}: the folder holds no *_aggregate_metrics.json.` : `${flag} ${target}: the folder holds ${stems.length} runs (${stems.join(", ")}).`, {
    hint: stems.length === 0 ? "Run gym eval aggregate over its rollouts first, or pass the rollouts file." : `Pass one rollouts file, e.g. ${join(target, `${stems[0]}.jsonl`)}.`,
  });
}

/** Expected rollouts from the run's status file when it has one, else every id seen; succeeded = distinct ids in the rollouts file. */
async function countsOf(rollouts: string): Promise<{ expected: number; succeeded: number }> {
  const paths = runPaths(rollouts);
  const ids = async (file: string) => {
    const seen = new Set<string>();
    if (fs.existsSync(file)) for await (const row of readRows(file, { allowTruncatedTail: true })) if (row._ng_failure_class === undefined) seen.add(`${row._ng_task_index}-${row._ng_rollout_index}-${JSON.stringify(row.agent_ref ?? null)}`);
    return seen;
  };
  const succeeded = await ids(rollouts);
  let expected: number | undefined;
  if (fs.existsSync(paths.batchStatus)) {
    try {
      const status = readJsonFile(paths.batchStatus) as Record<string, unknown>;
      if (typeof status?.expected_rollout_count === "number") expected = status.expected_rollout_count;
    } catch {
      // A damaged status file: count from the rows.
    }
  }
  if (expected === undefined) {
    const failed = new Set<string>();
    if (fs.existsSync(paths.failures)) for await (const row of readRows(paths.failures, { allowTruncatedTail: true, lenient: true })) failed.add(`${row._ng_task_index}-${row._ng_rollout_index}-${JSON.stringify(row.agent_ref ?? null)}`);
    expected = new Set([...succeeded, ...failed]).size;
  }
  return { expected, succeeded: succeeded.size };
}

/** Reads a run for the gate: metrics always; counts and cost only when a check needs them. */
export async function gateInputs(target: string, flag: string, need: { counts?: boolean; cost?: boolean; prices?: string }): Promise<GateInputs> {
  const rollouts = rolloutsOf(target, flag);
  const source = loadRun(rollouts);
  const counts = need.counts ? await countsOf(rollouts) : { expected: 0, succeeded: 0 };
  const cost = need.cost ? await runCost(rollouts, need.prices) : undefined;
  return { rollouts, source, counts, cost };
}
