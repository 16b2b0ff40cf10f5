/** `gym eval plan`: one benchmark's tasks, each once, sorted by id, with a digest of its prepared row (format nemo-gym.eval-plan.v1). */
import { createHash } from "node:crypto";
import { canonicalJson } from "../outputs/digest.ts";
import { GymError } from "../errors.ts";
import { readJsonl } from "../jsonl/read.ts";
import { closeMatches } from "../text/difflib.ts";
import type { BenchmarkDataset } from "./prepare.ts";

export const PLAN_SCHEMA_ID = "nemo-gym.eval-plan.v1";

/** Fields a row may take its task id from, in order. There is no fallback to the row's position. */
export const TASK_ID_FIELDS = ["task_id", "problem_id", "instance_id"] as const;

/** Routing and bookkeeping fields left out of a task's digest (plus every key starting with `_ng_`). */
export const DIGEST_EXCLUDED = ["agent_ref", "task_source", "skills_ref"] as const;

export interface PlanTask {
  id: string;
  taskset: string;
  /** `sha256:<hex>` of the canonical JSON of the prepared row without the excluded fields. */
  digest: string;
}

export interface EvalPlan {
  schema: typeof PLAN_SCHEMA_ID;
  benchmark: string;
  dataset: string;
  agent: string;
  num_repeats: number;
  prompt_config: string | null;
  jsonl_fpath: string;
  task_count: number;
  tasks: PlanTask[];
}

/** The digest of one prepared row: the template is applied at run time, so it never enters the digest. */
export function rowDigest(row: Record<string, unknown>): string {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if ((DIGEST_EXCLUDED as readonly string[]).includes(key) || key.startsWith("_ng_")) continue;
    kept[key] = value;
  }
  return `sha256:${createHash("sha256").update(canonicalJson(kept)).digest("hex")}`;
}

/** Builds the plan from a prepared JSONL; `taskIds` keeps only those tasks (unknown ones are an error). */
export async function buildPlan(benchmark: string, dataset: BenchmarkDataset, preparedPath: string, taskIds?: string[]): Promise<EvalPlan> {
  const taskset = typeof dataset.entry.taskset === "string" ? dataset.entry.taskset : benchmark;
  const tasks = new Map<string, PlanTask>();
  for await (const { value, source, line } of readJsonl(preparedPath)) {
    const field = TASK_ID_FIELDS.find((f) => typeof value[f] === "string" || typeof value[f] === "number");
    if (!field) {
      throw new GymError("E_INPUT_SCHEMA", `${source}:${line}: the row has no ${TASK_ID_FIELDS.join(", ")} field, so benchmark '${benchmark}' cannot be planned.`, {
        hint: "eval plan needs a stable id per task and does not fall back to row positions; make the prepare step write task_id.",
      });
    }
    const id = String(value[field]);
    if (tasks.has(id)) {
      throw new GymError("E_INPUT_SCHEMA", `${source}:${line}: task id '${id}' appears twice.`, { hint: "Each task needs a unique task_id (problem_id, instance_id)." });
    }
    tasks.set(id, { id, taskset, digest: rowDigest(value) });
  }
  let selected = [...tasks.values()];
  if (taskIds && taskIds.length > 0) {
    const missing = taskIds.filter((id) => !tasks.has(id));
    if (missing.length > 0) {
      const [close] = closeMatches(missing[0]!, [...tasks.keys()], 1, 0.6);
      throw new GymError("E_BAD_FLAG_VALUE", `--task-ids: ${missing.map((m) => `'${m}'`).join(", ")} ${missing.length === 1 ? "is" : "are"} not a task of ${benchmark}.${close ? ` Did you mean \`${close}\`?` : ""}`, {
        hint: `Ids come from ${TASK_ID_FIELDS.join(" / ")} in ${preparedPath}.`,
      });
    }
    const wanted = new Set(taskIds);
    selected = selected.filter((t) => wanted.has(t.id));
  }
  selected.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    schema: PLAN_SCHEMA_ID,
    benchmark,
    dataset: dataset.name,
    agent: dataset.agent,
    num_repeats: dataset.numRepeats,
    prompt_config: dataset.promptConfig ?? null,
    jsonl_fpath: dataset.jsonlPath,
    task_count: selected.length,
    tasks: selected,
  };
}

/** The JSON Schema of the plan format (printed by `gym eval plan --schema`). */
export const PLAN_JSON_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: PLAN_SCHEMA_ID,
  title: "NeMo Gym eval plan, version 1",
  description:
    "One benchmark's tasks, each once, sorted by id, with a digest of each prepared row. Version 1 only changes additively. A digest is sha256 over the row's canonical JSON (keys sorted, no whitespace) without agent_ref, task_source, skills_ref and keys starting with _ng_; the prompt template is applied at run time and is not part of it.",
  type: "object",
  required: ["schema", "benchmark", "dataset", "agent", "num_repeats", "prompt_config", "jsonl_fpath", "task_count", "tasks"],
  properties: {
    schema: { const: PLAN_SCHEMA_ID },
    benchmark: { type: "string", description: "The --benchmark value" },
    dataset: { type: "string", description: "The benchmark dataset's name" },
    agent: { type: "string", description: "The agent instance that runs the benchmark" },
    num_repeats: { type: "integer", minimum: 1 },
    prompt_config: { type: ["string", "null"] },
    jsonl_fpath: { type: "string", description: "The prepared data, as the config names it" },
    task_count: { type: "integer", minimum: 0 },
    tasks: {
      type: "array",
      items: {
        type: "object",
        required: ["id", "taskset", "digest"],
        properties: {
          id: { type: "string", description: "The row's task_id, problem_id or instance_id" },
          taskset: { type: "string", description: "The dataset's declared taskset, else the benchmark name" },
          digest: { type: "string", pattern: "^sha256:[0-9a-f]{64}$" },
        },
      },
    },
  },
} as const;
