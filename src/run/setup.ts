/** From a resolved config to a collection: run keys (flags and +key=value alike), the input file, the agents, the settings. */
import * as fs from "node:fs";
import { isStream, readBytes } from "../runtime/files.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Root } from "../config/index.ts";
import { GymError } from "../errors.ts";
import { sha256 } from "../outputs/digest.ts";
import type { RunSettings } from "./settings.ts";
import { runSettings } from "./settings.ts";

/** The collection keys `gym eval run` reads from the merged config (flags set the same keys as `+key=value`). */
export interface RunKeys {
  output_jsonl_fpath?: string;
  input_jsonl_fpath?: string;
  split?: string;
  limit?: number;
  num_repeats?: number | Record<string, number>;
  num_repeats_add_seed?: boolean;
  num_samples_in_parallel?: number;
  max_resident_rollout_tasks?: number;
  responses_create_params?: Record<string, unknown>;
  agent_name?: string;
  agent_map?: Record<string, string>;
  fan_out?: Record<string, string[]>;
  prompt_config?: string;
  resume_from_cache?: boolean;
  disable_aggregation?: boolean;
  route_failures_to_sidecar?: boolean;
  require_complete?: boolean;
  count_failure_classes_as_zero?: string[];
  count_missing_rollouts_as_zero?: boolean;
  record_omitted_rollouts?: boolean;
  dispatch_budget_s?: number;
  drain_margin_s?: number;
  dispatch_longest_first?: boolean;
  retry_terminal_timeouts?: boolean;
  allow_unsafe_resume?: boolean;
  timeout_s?: number;
  /** gym's extension for sharded Slurm submits: "I/N" keeps the tasks whose index is I modulo N. */
  task_shard?: string;
}

const RUN_KEYS: (keyof RunKeys)[] = [
  "output_jsonl_fpath", "input_jsonl_fpath", "split", "limit", "num_repeats", "num_repeats_add_seed", "num_samples_in_parallel",
  "max_resident_rollout_tasks", "responses_create_params", "agent_name", "agent_map", "fan_out", "prompt_config", "resume_from_cache",
  "disable_aggregation", "route_failures_to_sidecar", "require_complete", "count_failure_classes_as_zero",
  "count_missing_rollouts_as_zero", "record_omitted_rollouts", "dispatch_budget_s", "drain_margin_s", "dispatch_longest_first",
  "retry_terminal_timeouts", "allow_unsafe_resume", "timeout_s", "task_shard",
];

/** Reads the run keys from the resolved tree (interpolations resolved). */
export function runKeys(resolved: Record<string, unknown>): RunKeys {
  const keys: Record<string, unknown> = {};
  for (const key of RUN_KEYS) if (resolved[key] !== undefined && resolved[key] !== null) keys[key] = resolved[key];
  const n = keys.num_samples_in_parallel;
  if (n !== undefined && (!Number.isInteger(n) || (n as number) < 1)) {
    throw new GymError("E_BAD_FLAG_VALUE", `--concurrency (num_samples_in_parallel) must be a whole number ≥ 1, got ${JSON.stringify(n)}.`, { hint: "For example --concurrency 32." });
  }
  if (keys.dispatch_budget_s !== undefined && n === undefined && keys.max_resident_rollout_tasks === undefined) {
    throw new GymError("E_CONFIG", "dispatch_budget_s needs a concurrency bound to be meaningful.", { hint: "Add --concurrency N (or +max_resident_rollout_tasks=N)." });
  }
  return keys as RunKeys;
}

/** `task_shard=I/N` (0 ≤ I < N): this run collects the tasks whose _ng_task_index is I modulo N. */
export function parseTaskShard(value: unknown): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(String(value).trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index >= count) {
    throw new GymError("E_BAD_FLAG_VALUE", `task_shard must be I/N with 0 ≤ I < N, got ${JSON.stringify(value)}.`, { hint: "For example +task_shard=0/4 (the first of four shards)." });
  }
  return { index, count };
}

/** Rollouts in flight when neither bound is set (NeMo Gym would start every rollout at once). */
export const DEFAULT_CONCURRENCY = 256;

/** `num_samples_in_parallel` and `max_resident_rollout_tasks` both bound the rollouts in flight: the smaller wins. */
export function concurrencyOf(keys: RunKeys): number {
  const bounds = [keys.num_samples_in_parallel, keys.max_resident_rollout_tasks].filter((n): n is number => typeof n === "number");
  return bounds.length > 0 ? Math.min(...bounds) : DEFAULT_CONCURRENCY;
}

/** A server instance as collection sees it: name, type and its resolved block. */
export interface InstanceBlock {
  name: string;
  serverType: string;
  block: Record<string, unknown>;
}

/** The agent instances among the servers. */
export function agentNames(instances: InstanceBlock[]): string[] {
  return instances.filter((i) => i.serverType === "responses_api_agents").map((i) => i.name);
}

/** The dataset a run collects from, with what its config entry says about prompts and repeats. */
export interface InputDataset {
  path: string;
  /** The dataset entry's `prompt_config` (used unless --prompt-config is given). */
  promptConfig?: string;
  /** The dataset entry's `num_repeats` (used unless --num-repeats is given). */
  numRepeats?: number;
}

/**
 * The dataset file to collect from: `--input`, else the agents' dataset of the `--split` type (default:
 * `benchmark` when a benchmark dataset exists, else `example`). Built-in files are copied to a temp file.
 */
export async function inputDataset(instances: InstanceBlock[], keys: RunKeys, roots: Root[]): Promise<InputDataset> {
  const { readFromRoots } = await import("../config/index.ts");
  let entry = keys.input_jsonl_fpath;
  let promptConfig: string | undefined;
  let numRepeats: number | undefined;
  if (!entry) {
    const datasets = instances
      .filter((i) => i.serverType === "responses_api_agents")
      .flatMap((i) => ((i.block.datasets as Record<string, unknown>[] | undefined) ?? []).map((d): Record<string, unknown> & { agent: string } => ({ agent: i.name, ...d })));
    const split = keys.split ?? (datasets.some((d) => d.type === "benchmark") ? "benchmark" : "example");
    // A dataset named like the split wins (mcqa declares `example` and `example_with_template_metadata`).
    const named = datasets.filter((d) => d.name === split);
    const matching = named.length > 0 ? named : datasets.filter((d) => d.type === split);
    if (matching.length === 0) {
      throw new GymError("E_CONFIG", `No --input given and no agent declares a '${split}' dataset.`, {
        hint: `Pass --input rows.jsonl, or --split one of: ${[...new Set(datasets.map((d) => String(d.type)))].join(", ") || "(the config declares no datasets)"}.`,
      });
    }
    if (matching.length > 1) {
      throw new GymError("E_CONFIG", `${matching.length} '${split}' datasets are declared (${matching.map((d) => `${d.agent}: ${d.jsonl_fpath}`).join(", ")}).`, { hint: "Pass --input to pick one." });
    }
    entry = String(matching[0]!.jsonl_fpath);
    // A benchmark dataset names the prompt template its rows are rendered with.
    if (typeof matching[0]!.prompt_config === "string") promptConfig = matching[0]!.prompt_config;
    if (typeof matching[0]!.num_repeats === "number") numRepeats = matching[0]!.num_repeats;
  }
  // stdin, a FIFO or `<(…)`: read once into a file (the run reads its input twice: rows, then its digest).
  if (isStream(entry)) return { path: await spoolStdin(entry) };
  if (fs.existsSync(entry)) return { path: entry, promptConfig, numRepeats };
  const { found, searched } = await readFromRoots(entry, roots);
  if (!found) {
    throw new GymError("E_INPUT_NOT_FOUND", `Input dataset not found: ${entry}`, {
      hint: `Searched: ${searched.join(", ")}. ${entry.includes("/data/") ? "Benchmarks need `gym eval prepare` first; other datasets `gym dataset download`." : ""}`.trim(),
    });
  }
  if (found.path && fs.existsSync(found.path)) return { path: found.path, promptConfig, numRepeats };
  const copy = join(tmpdir(), `gym-input-${sha256(found.text).slice(0, 16)}.jsonl`);
  if (!fs.existsSync(copy)) fs.writeFileSync(copy, found.text);
  return { path: copy, promptConfig, numRepeats };
}

/** stdin can only be read once, but materialization and digests read the input twice: spool it. */
async function spoolStdin(source: string): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of readBytes(source)) chunks.push(chunk.slice());
  const data = Buffer.concat(chunks);
  const path = join(tmpdir(), `gym-stdin-${sha256(data).slice(0, 16)}.jsonl`);
  fs.writeFileSync(path, data);
  return path;
}

/** The settings that define the run (semantic) or only how it runs (operational), for resume drift checks. */
export function collectionSettings(keys: RunKeys, instances: InstanceBlock[]): RunSettings {
  const collection: Record<string, unknown> = { ...keys };
  delete collection.resume_from_cache;
  const servers: Record<string, Record<string, unknown>> = {};
  for (const instance of instances) servers[instance.name] = instance.block;
  return runSettings(collection, servers);
}
