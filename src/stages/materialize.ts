/** materialize: dataset rows → rollout requests (task identity, routing, overrides, repeats), as NeMo Gym expands them. */
import * as fs from "node:fs";
import { GymError } from "../errors.ts";
import { isStream } from "../runtime/files.ts";
import { MemoryBound } from "../runtime/memory.ts";
import { readLines } from "../jsonl/lines.ts";
import { issueError, type Row } from "../jsonl/read.ts";
import { locateJsonError } from "../jsonl/json-error.ts";
import { refuseTooDeep } from "../jsonl/json-depth.ts";
import { hasPromptInput, promptMessages, type PromptConfig } from "../datasets/prompt.ts";
import { canonicalJson, sha256 } from "../outputs/digest.ts";
import { closeMatches } from "../text/difflib.ts";
import { checkResponseCreateParams } from "../protocol/responses.ts";

export interface MaterializeOptions {
  /** Stop after this many non-blank input lines (before dedupe and repeats); 0 or undefined = all. */
  limit?: number;
  promptConfig?: PromptConfig;
  /** `--agent`: routes every row to this agent instance (0.6+ meaning: overrides the row's agent_ref). */
  agentName?: string;
  /** `+agent_map`: routing key (agent_ref.name or task_source) → agent; `_default` for the rest. */
  agentMap?: Record<string, string>;
  /** Agent instances an `--agent-type` swap renamed, old → new: rows whose agent_ref.name is an old name go to the new one. */
  renamedAgents?: Record<string, string>;
  /** `+fan_out`: routing key (agent_ref.name or task_source) → agents that each get their own copies of the row. */
  fanOut?: Record<string, string[]>;
  /** Agent instances that exist, for routing errors; the only one is the default route. */
  knownAgents: string[];
  /** Shallow-merged over each row's `responses_create_params` (a nested key replaces the whole object, as NeMo Gym does). */
  responsesCreateParams?: Record<string, unknown>;
  /** An int for every row, or a map agent → repeats with an optional `_default`. */
  numRepeats?: number | Record<string, number>;
  /** `num_repeats_add_seed`: seed each repeat through responses_create_params.metadata.extra_body. */
  addSeed?: boolean;
  /** Keep only the tasks whose index is `index` modulo `count` (task indices stay those of the whole file). */
  shard?: { index: number; count: number };
  /** Warnings (unused num_repeats keys, overridden agent_refs) go here. */
  warn?: (message: string) => void;
}

interface RawTask {
  line: number;
  text: string;
  row: Row;
}

/** A task's routing: the agents it goes to and the repeats of each (most tasks share one). */
interface TaskRoutes {
  agents: string[];
  repeats: number[];
}

/**
 * What the validating pass keeps of each task, enough to emit its rows from the input line again: its line, task
 * index and routes, in typed columns (the routes interned), so a million rollouts keep no object per task, and
 * nothing small and long-lived is left among the parsed lines' garbage to keep its pages resident.
 */
class TaskPlans {
  private lines = new Float64Array(1024);
  private taskIndices = new Float64Array(1024);
  private routeOf = new Int32Array(1024);
  private readonly routes: TaskRoutes[] = [];
  private readonly routeIds = new Map<string, number>();
  /** The lines' texts, kept only when the input cannot be read twice (stdin). */
  readonly texts: string[] = [];
  length = 0;

  push(line: number, text: string | undefined, agents: string[], repeats: number[], taskIndex: number): void {
    if (this.length === this.lines.length) {
      const grow = <T extends Float64Array | Int32Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.lines = grow(this.lines);
      this.taskIndices = grow(this.taskIndices);
      this.routeOf = grow(this.routeOf);
    }
    const key = JSON.stringify([agents, repeats]);
    let route = this.routeIds.get(key);
    if (route === undefined) this.routeIds.set(key, (route = this.routes.push({ agents, repeats }) - 1));
    this.lines[this.length] = line;
    this.taskIndices[this.length] = taskIndex;
    this.routeOf[this.length] = route;
    if (text !== undefined) this.texts.push(text);
    this.length++;
  }

  line(k: number): number {
    return this.lines[k]!;
  }

  taskIndex(k: number): number {
    return this.taskIndices[k]!;
  }

  routesOf(k: number): TaskRoutes {
    return this.routes[this.routeOf[k]!]!;
  }
}

/** The rows a dataset expands to, emitted on demand (each call of `rows()` reads the input again). */
export interface MaterializedRows {
  /** How many rows `rows()` yields. */
  readonly count: number;
  rows(): AsyncGenerator<Row>;
}

/**
 * Expands an input JSONL file into materialized rows, validating everything first: prompt conflicts,
 * routing and repeat errors are reported all at once, before a single row is emitted.
 */
export async function materialize(source: string, options: MaterializeOptions): Promise<Row[]> {
  const set = await materializeRows(source, options);
  const out: Row[] = [];
  for await (const row of set.rows()) out.push(row);
  return out;
}

/**
 * Materialize's behaviour, versioned: part of the materialization key, so a build that expands rows differently
 * never takes a run's saved inputs for its own. Bump it with any change to what `materialize` emits.
 */
const MATERIALIZE_VERSION = 1;

/** A dataset's materialization, not yet made: the key that names its result, and the validating pass that starts it. */
export interface Materialization {
  /** sha256 over the input's digest, the options and materialize's version: equal keys, equal rows. */
  key(sourceDigest: string): string;
  /** Validates the input (errors as `materialize` reports them) and returns its rows on demand (once: later calls share it). */
  open(): Promise<MaterializedRows>;
}

export function materialization(source: string, options: MaterializeOptions): Materialization {
  let opened: Promise<MaterializedRows> | undefined;
  return {
    key: (sourceDigest) => {
      const { warn: _, ...settings } = options;
      return sha256(canonicalJson({ version: MATERIALIZE_VERSION, source: sourceDigest, settings }));
    },
    open: () => (opened ??= materializeRows(source, options)),
  };
}

/**
 * `materialize` without holding the rows: one pass validates every line (errors as `materialize` reports them)
 * and keeps a few numbers per task; `rows()` then reads the input again and emits the rows in order. A million
 * rollouts never exist as a million objects at once. The input must not change in between (checked).
 */
export async function materializeRows(source: string, options: MaterializeOptions): Promise<MaterializedRows> {
  const shown = source === "-" ? "<stdin>" : source;
  const stream = isStream(source);
  const before = stream ? undefined : fs.statSync(source);
  const taskIndexByText = new Map<string, number>();
  const plans = new TaskPlans();
  const conflicts: number[] = [];
  const routeErrors: { agent: Route }[] = [];
  const repeatErrors: (number | { error: string })[] = [];
  const usedAgents = new Set<string>();
  let firstRowError: unknown;
  let total = 0;
  let allTotal = 0;
  let tasks = 0;
  const memory = new MemoryBound();
  for await (const task of readTasks(source, shown, options.limit)) {
    if (++tasks % 4096 === 0) memory.check(); // each parsed line is garbage once checked
    if (options.promptConfig && hasPromptInput(task.row)) conflicts.push(task.line);
    const routes = routeAgents(task, shown, options);
    const repeats = routes.map((agent) => repeatsFor(agent, task, shown, options));
    const agents: string[] = [];
    const counts: number[] = [];
    routes.forEach((agent, i) => {
      if (typeof agent === "string") (agents.push(agent), usedAgents.add(agent));
      else routeErrors.push({ agent });
      const n = repeats[i]!;
      if (typeof n === "number") counts.push(n), (allTotal += n);
      // Errors, and numbers the check after routing refuses, in row order.
      if (typeof n !== "number" || !Number.isInteger(n) || n < 1) repeatErrors.push(n);
    });
    // The row as it will be sent (prompt filled, overrides merged) must be valid create params: the first bad
    // row is reported once routing is known to be fine, as the emitting loop reports it.
    if (firstRowError === undefined && !(options.promptConfig && hasPromptInput(task.row))) {
      try {
        if (agents.length > 0) buildRow(task, agents[0]!, shown, options);
      } catch (error) {
        firstRowError = error;
      }
    }
    const taskIndex = typeof task.row._ng_task_index === "number" ? task.row._ng_task_index : dedupeIndex(taskIndexByText, task.text);
    const inShard = !options.shard || taskIndex % options.shard.count === options.shard.index;
    if (inShard) for (const n of counts) total += n;
    if (inShard) plans.push(task.line, stream ? task.text : undefined, agents, counts, taskIndex);
  }
  if (tasks === 0) {
    throw new GymError("E_INPUT_EMPTY", `${shown} holds no rows (the file is empty or blank): there is nothing to collect.`, {
      hint: "Pass a dataset with one JSON object per line; nothing was written.",
    });
  }
  if (conflicts.length > 0) promptConflicts(conflicts, shown);
  reportRoutingErrors(routeErrors, repeatErrors, usedAgents, shown, options);
  refuseTooMany(allTotal, tasks, options);
  if (firstRowError !== undefined) throw firstRowError;
  taskIndexByText.clear();

  return {
    count: total,
    async *rows() {
      const rolloutCounter = new Map<number, number>();
      let k = 0;
      const lines = stream ? plans.texts.map((text, k) => ({ line: plans.line(k), text, row: JSON.parse(text) as Row })) : readTasks(source, shown, options.limit);
      for await (const task of lines) {
        // Tasks outside the shard were not kept: their lines are passed over.
        if (k >= plans.length || plans.line(k) !== task.line) continue;
        const { agents, repeats } = plans.routesOf(k);
        const taskIndex = plans.taskIndex(k);
        k++;
        for (let a = 0; a < agents.length; a++) {
          const row = buildRow(task, agents[a]!, shown, options);
          for (let r = 0; r < repeats[a]!; r++) {
            const rolloutIndex = rolloutCounter.get(taskIndex) ?? 0;
            rolloutCounter.set(taskIndex, rolloutIndex + 1);
            const copy: Row = { ...row, _ng_task_index: taskIndex, _ng_rollout_index: rolloutIndex };
            if (options.addSeed) copy.responses_create_params = seeded(copy.responses_create_params as Row | undefined, rolloutIndex);
            yield copy;
          }
        }
      }
      const after = stream ? undefined : fs.statSync(source);
      if (k !== plans.length || (before && after && (before.size !== after.size || before.mtimeMs !== after.mtimeMs))) {
        throw new GymError("E_INPUT_SCHEMA", `${shown} changed while the run was reading it (its rows were validated, then read again to be written out).`, {
          hint: "Leave the dataset alone while `gym eval run` starts, then run again.",
        });
      }
    },
  };
}

/** The non-blank lines of the input as parsed objects (up to `limit`), with their field types checked. */
async function* readTasks(source: string, shown: string, limit: number | undefined): AsyncGenerator<RawTask> {
  let count = 0;
  for await (const { text, line, terminated } of readLines(source)) {
    if (text.trim() === "") continue;
    if (limit && count >= limit) break;
    count++;
    refuseTooDeep(text, `${shown}:${line}`);
    let row: unknown;
    try {
      row = JSON.parse(text);
    } catch {
      const problem = locateJsonError(text);
      const kind = !terminated && problem && problem.column > text.length ? "truncated" : "invalid-json";
      throw issueError({ source: shown, line, column: problem?.column, kind, message: kind === "truncated" ? "the last line is cut off" : `invalid JSON: ${problem?.message ?? "parse error"}` });
    }
    if (typeof row !== "object" || row === null || Array.isArray(row)) {
      throw issueError({ source: shown, line, column: 1, kind: "not-an-object", message: "expected a JSON object" });
    }
    checkRowFields(row as Row, `${shown}:${line}`);
    yield { line, text, row: row as Row };
  }
}

/** A task's row for one agent: prompt filled, routed, create-params overrides merged and checked. */
function buildRow(task: RawTask, agent: string, shown: string, options: MaterializeOptions): Row {
  let row: Row = { ...task.row };
  if (options.promptConfig) {
    const rcp = { ...((row.responses_create_params as Row | undefined) ?? {}) };
    rcp.input = promptMessages(options.promptConfig, row, `${shown}:${task.line}`);
    row.responses_create_params = rcp;
  }
  row.agent_ref = { ...((row.agent_ref as Row | undefined) ?? {}), name: agent };
  if (options.responsesCreateParams) {
    row.responses_create_params = { ...((row.responses_create_params as Row | undefined) ?? {}), ...options.responsesCreateParams };
  }
  if (row.responses_create_params !== undefined) checkCreateParams(row.responses_create_params, `${shown}:${task.line}`);
  return row;
}

/** One run materializes at most this many rollouts (its bookkeeping is per rollout): past it, it refuses up front. */
export const MAX_MATERIALIZED_ROLLOUTS = 10_000_000;

function refuseTooMany(total: number, tasks: number, options: MaterializeOptions): void {
  if (total <= MAX_MATERIALIZED_ROLLOUTS) return;
  const spec = typeof options.numRepeats === "number" ? `--num-repeats ${options.numRepeats} × ${tasks} task(s)` : `--num-repeats over ${tasks} task(s)`;
  throw new GymError("E_TOO_LARGE", `${spec} is ${total} rollouts; one run materializes at most ${MAX_MATERIALIZED_ROLLOUTS}.`, {
    hint: "Lower --num-repeats (or --limit), or split the dataset into shards run separately and merged with `gym eval aggregate`.",
  });
}

/** The fields materialize reads must have their types: a wrong one names file:line and the field. */
function checkRowFields(row: Row, where: string): void {
  const bad = (field: string, expected: string, value: unknown) =>
    new GymError("E_INPUT_SCHEMA", `${where}: field '${field}' must be ${expected}, got ${JSON.stringify(value)?.slice(0, 80) ?? String(value)}.`, {
      hint: "Fix that field of the row (NeMo Gym's dataset format: responses_create_params is an object, agent_ref is {\"name\": …}).",
    });
  const isObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);
  if (row.responses_create_params !== undefined && !isObject(row.responses_create_params)) throw bad("responses_create_params", "an object", row.responses_create_params);
  if (row.agent_ref !== undefined && row.agent_ref !== null) {
    if (!isObject(row.agent_ref)) throw bad("agent_ref", 'an object like {"name": "…"}', row.agent_ref);
    const name = (row.agent_ref as Row).name;
    if (name !== undefined && typeof name !== "string") throw bad("agent_ref.name", "a string", name);
  }
  const task = row._ng_task_index;
  if (task !== undefined && !(typeof task === "number" && Number.isSafeInteger(task) && task >= 0)) throw bad("_ng_task_index", "a whole number ≥ 0", task);
}

/**
 * A row's `responses_create_params` (with --prompt-config and overrides applied) must be what every agent's
 * /run accepts (NeMo Gym's non-streaming create params): refused here, naming the input line, rather than
 * failing that rollout with the agent's 422 in the middle of the run.
 */
function checkCreateParams(params: unknown, where: string): void {
  const checked = checkResponseCreateParams(params, ["responses_create_params"]);
  if (checked.ok) return;
  const problems = checked.error.detail.slice(0, 3).map((d) => `${d.loc.join(".")}: ${d.msg} (got ${JSON.stringify(d.input)?.slice(0, 60) ?? "nothing"})`);
  const more = checked.error.detail.length > 3 ? `; and ${checked.error.detail.length - 3} more` : "";
  throw new GymError("E_INPUT_SCHEMA", `${where}: responses_create_params is not valid create params: ${problems.join("; ")}${more}.`, {
    hint: "Fix that row of the dataset (the fields and types of the OpenAI Responses API create request); nothing was collected.",
  });
}

/** Byte-identical lines are one task (their repeats continue one counter); others get the next dense index. */
function dedupeIndex(byText: Map<string, number>, text: string): number {
  const key = text.length > 64 ? sha256(text) : text;
  let index = byText.get(key);
  if (index === undefined) {
    index = byText.size;
    byText.set(key, index);
  }
  return index;
}

function promptConflicts(conflicts: number[], source: string): never {
  throw new GymError("E_INPUT_SCHEMA", `${source}: ${conflicts.length} row(s) already have responses_create_params.input, so --prompt-config cannot fill it (lines ${conflicts.slice(0, 20).join(", ")}${conflicts.length > 20 ? ", …" : ""}).`, {
    hint: "Drop --prompt-config to use the rows' own prompts, or remove responses_create_params.input from the input rows.",
  });
}

type Route = string | { error: string };

/** The agents a row goes to: its `fan_out` list when its routing key has one, else the one routeAgent picks. */
function routeAgents(task: RawTask, source: string, options: MaterializeOptions): Route[] {
  const ref = task.row.agent_ref as { name?: unknown } | undefined;
  const named = typeof ref?.name === "string" ? ref.name : typeof task.row.task_source === "string" ? task.row.task_source : undefined;
  const list = named === undefined ? undefined : (options.fanOut?.[named] ?? options.fanOut?.[options.renamedAgents?.[named] ?? ""]);
  if (list === undefined) return [routeAgent(task, source, options)];
  const where = `${source}:${task.line}: fan_out for '${named}'`;
  if (!Array.isArray(list) || list.length === 0) return [{ error: `${where} is empty (list at least one agent)` }];
  const duplicate = list.find((agent, i) => list.indexOf(agent) !== i);
  if (duplicate !== undefined) return [{ error: `${where} names '${duplicate}' twice` }];
  return list.map((agent) => {
    if (options.knownAgents.includes(agent)) return agent;
    const [guess] = closeMatches(agent, options.knownAgents, 1, 0.6);
    return { error: `${where} names '${agent}', which is not a configured agent instance${guess ? ` (did you mean '${guess}'?)` : ""}` };
  });
}

function routeAgent(task: RawTask, source: string, options: MaterializeOptions): Route {
  const ref = task.row.agent_ref as { name?: unknown } | undefined;
  const named = typeof ref?.name === "string" ? ref.name : typeof task.row.task_source === "string" ? task.row.task_source : undefined;
  const basis = named !== undefined && options.renamedAgents && Object.hasOwn(options.renamedAgents, named) ? options.renamedAgents[named] : named;
  const mapped = (named !== undefined ? options.agentMap?.[named] ?? options.agentMap?.[basis!] : undefined) ?? options.agentMap?._default ?? options.agentName;
  const agent = mapped ?? basis ?? (options.knownAgents.length === 1 ? options.knownAgents[0] : undefined);
  if (agent === undefined) return { error: `${source}:${task.line}: the row names no agent (no agent_ref.name) and the config has ${options.knownAgents.length} agents` };
  if (!options.knownAgents.includes(agent)) {
    const [guess] = closeMatches(agent, options.knownAgents, 1, 0.6);
    return { error: `${source}:${task.line}: agent '${agent}' is not a configured agent instance${guess ? ` (did you mean '${guess}'?)` : ""}` };
  }
  return agent;
}

function repeatsFor(agent: Route, task: RawTask, source: string, options: MaterializeOptions): number | { error: string } {
  const spec = options.numRepeats ?? 1;
  if (typeof spec === "number") return spec;
  if (typeof agent !== "string") return 1;
  const n = spec[agent] ?? spec._default;
  if (n === undefined) return { error: `${source}:${task.line}: num_repeats has no entry for agent '${agent}' and no _default` };
  return n;
}

function reportRoutingErrors(routes: { agent: Route }[], repeats: (number | { error: string })[], used: Set<string>, source: string, options: MaterializeOptions): void {
  const errors = [...routes.map((r) => r.agent), ...repeats].filter((x): x is { error: string } => typeof x === "object").map((x) => x.error);
  if (errors.length > 0) {
    throw new GymError("E_CONFIG", `${errors.length} row(s) of ${source} cannot be routed:\n  - ${errors.slice(0, 10).join("\n  - ")}${errors.length > 10 ? `\n  … and ${errors.length - 10} more` : ""}`, {
      hint: `Pass --agent <name> (configured agents: ${options.knownAgents.join(", ") || "(none)"}), or fix agent_ref.name in the rows.`,
    });
  }
  for (const n of repeats) {
    if (typeof n === "number" && (!Number.isInteger(n) || n < 1)) {
      throw new GymError("E_BAD_FLAG_VALUE", `num_repeats must be a whole number ≥ 1, got ${n}.`, { hint: "Use --num-repeats 4, or a map like '{simple_agent: 4, _default: 1}'." });
    }
  }
  if (options.numRepeats && typeof options.numRepeats === "object") {
    for (const key of Object.keys(options.numRepeats)) {
      if (key !== "_default" && !used.has(key)) options.warn?.(`num_repeats has an entry for '${key}', which no row is routed to (a typo?).`);
    }
  }
}

function seeded(rcp: Row | undefined, seed: number): Row {
  const params = { ...(rcp ?? {}) };
  const metadata = { ...((params.metadata as Row | undefined) ?? {}) };
  const extra = typeof metadata.extra_body === "string" && metadata.extra_body ? JSON.parse(metadata.extra_body) : {};
  extra.seed = seed;
  metadata.extra_body = JSON.stringify(extra);
  params.metadata = metadata;
  return params;
}
