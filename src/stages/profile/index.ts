/** `gym eval profile`: the reward profile of a run (per-task rows, per-agent metrics, repeat-level metrics). */
import * as fs from "node:fs";
import * as path from "node:path";
import { emptyInput, GymError } from "../../errors.ts";
import { utf8 } from "../../metrics/byte-text.ts";
import { GroupWriter, Layout } from "../../metrics/group-render.ts";
import { acrossRepeatMetrics, repeatLevelMetrics } from "../../metrics/repeat-level.ts";
import { PyFloat, stringifyPython } from "../../metrics/pyjson.ts";
import { rewardWarnings, SCORED_CHECKS, statsShape } from "../../jsonl/rollout-rows.ts";
import { type RowShape, RowReader } from "../../jsonl/rows.ts";
import { RolloutTable } from "../../metrics/rollout-table.ts";
import { ROLLOUT_INDEX, TASK_INDEX } from "../../metrics/records.ts";
import { TableView } from "../../metrics/table-view.ts";
import { spillStdin } from "../aggregate/shards.ts";
import { isStream } from "../../runtime/files.ts";
import { FileWriter, siblingPath } from "../aggregate/files.ts";
import { ByteWriter, readRowsInOrder, readRuns } from "../aggregate/copy.ts";
import { sortedOrder } from "../aggregate/order.ts";
import { NameIds, RowIndex } from "../aggregate/rows.ts";
import { collectGarbage } from "../../runtime/gc.ts";
import { sampleText } from "./sample.ts";
import { RowPrompts } from "./prompts.ts";
import { isStackOverflow, tooDeepError } from "../../jsonl/json-depth.ts";
import { SampleBytes } from "./sample-bytes.ts";
import { Phases } from "../aggregate/phases.ts";

type Row = Record<string, unknown>;

export interface ProfileOptions {
  /** The run's `<stem>_materialized_inputs.jsonl` (or "-"). */
  inputs: string;
  /** The rollouts (or "-"). */
  rollouts: string;
  /** Drop input rows that have no rollout instead of failing (`++allow_partial_rollouts=true`). */
  allowPartialRollouts?: boolean;
  /** Names the output files (default: the rollouts path); required when rollouts come from stdin. */
  outputBase?: string;
  /** 0.7 repeat-level metrics and file (default true). */
  repeatLevel?: boolean;
  log?: (message: string) => void;
}

/** NeMo Gym's `profile_completion_summary`. */
export interface ProfileSummary {
  expected_rollout_rows: number;
  completed_rollout_rows: number;
  missing_rollout_rows: number;
  extra_rollout_rows: number;
  reward_profile_completion_pct: number;
  total_input_rows: number;
  complete_input_rows: number;
  partial_input_rows: number;
  missing_input_rows: number;
}

export interface ProfileReport {
  summary: ProfileSummary;
  rewardProfiling: string;
  agentMetrics: string;
  repeatLevelMetrics: string | null;
}

/** One scanned file: per row its key, line and bytes (and agent, for inputs); rollouts also fill a table. */
interface Keyed {
  file: string;
  shown: string;
  index: RowIndex;
  agents: NameIds;
  table: RolloutTable | null;
  /** Each row's prompt, to check that joined rows belong together. */
  prompts: RowPrompts;
}

async function indexFile(source: string, what: string, inputs: Keyed | null, log?: (message: string) => void): Promise<Keyed> {
  const needAgent = inputs === null;
  const file = isStream(source) ? await spillStdin(source) : source;
  const shown = source === "-" ? "<stdin>" : source;
  if (source !== "-" && !fs.existsSync(source)) {
    throw new GymError("E_INPUT_NOT_FOUND", `Input file not found: '${source}' (${what}). Check the path is spelled correctly.`);
  }
  const k: Keyed = { file, shown, index: needAgent ? new RowIndex({ bytes: true, agent: true, keys: true, spool: true }) : new RowIndex(), agents: new NameIds(), table: needAgent ? null : new RolloutTable({ spool: true }), prompts: inputs ? new RowPrompts(inputs.prompts) : new RowPrompts() };
  try {
    await scanInto(k, needAgent, log);
    if (k.index.rows === 0) throw emptyInput(shown, what);
    // The parse leaves ~120 MB of row garbage at 1 GB; free it before finish() allocates the columns.
    collectGarbage();
    k.index.finish();
    k.table?.finish();
    return k;
  } catch (error) {
    k.index.dispose();
    k.table?.dispose();
    throw error;
  }
}

const REQUIRED_KEYS = { [TASK_INDEX]: { type: "index", required: true }, [ROLLOUT_INDEX]: { type: "index", required: true } } as const;
/** The prompt is read as bytes, digested where it lies (see prompt-bytes.ts). */
const PROMPT_SPAN: Record<string, RowShape> = { responses_create_params: { spans: ["input"] } };
const INPUT_SHAPE: RowShape = { checks: { ...SCORED_CHECKS, reward: { type: "number", null: "allow" }, ...REQUIRED_KEYS, "agent_ref.name": { type: "string", required: true } }, nested: PROMPT_SPAN };
const ROLLOUT_STATS = statsShape({ ...SCORED_CHECKS, ...REQUIRED_KEYS });
const ROLLOUT_SHAPE: RowShape = { ...ROLLOUT_STATS, nested: { ...ROLLOUT_STATS.nested, ...PROMPT_SPAN } };

/** Reads a file's rows into `k`, each row's fields checked by the reader (file:line errors, counted warnings). */
async function scanInto(k: Keyed, needAgent: boolean, log?: (message: string) => void): Promise<void> {
  const reader = new RowReader(needAgent ? INPUT_SHAPE : ROLLOUT_SHAPE);
  const prompts = k.prompts;
  for await (const batch of reader.batches(k.file, { shown: k.shown })) {
    const { rows, lines, offsets, lengths, bytes } = batch;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      const agent = needAgent ? k.agents.id((row.agent_ref as Row).name as string) : -1;
      k.index.push(0, lines[i]!, offsets[i]!, lengths[i]!, agent, row[TASK_INDEX] as number, row[ROLLOUT_INDEX] as number);
      prompts.add(row, bytes);
      k.table?.add(row);
    }
  }
  for (const warning of rewardWarnings(reader, k.shown)) log?.(warning);
}

function sortKeys(k: Keyed, what: string): Int32Array {
  const { task, rollout } = k.table ?? k.index;
  const order = sortedOrder(task, rollout, k.index.rows);
  for (let i = 1; i < order.length; i++) {
    const a = order[i - 1]!;
    const b = order[i]!;
    if (task[a] === task[b] && rollout[a] === rollout[b]) {
      throw new GymError("E_INPUT_SCHEMA", `Duplicate ${what} row for rollout key (${task[a]}, ${rollout[a]}): ${k.shown}:${k.index.lineOf(a)} and line ${k.index.lineOf(b)}`);
    }
  }
  return order;
}

/** Joins inputs with rollouts by (task, rollout), then writes the three profile files next to the rollouts. */
export async function profileRollouts(options: ProfileOptions): Promise<ProfileReport> {
  if (options.inputs === "-" && options.rollouts === "-") throw new GymError("E_USAGE", "Only one of --inputs and --rollouts can be read from stdin (-)");
  const base = options.outputBase ?? (options.rollouts === "-" ? undefined : options.rollouts);
  if (!base) throw new GymError("E_MISSING_ARGUMENT", "--output is required when --rollouts is read from stdin", { hint: "Pass --output results/rollouts.jsonl to name the profile files." });
  const phases = new Phases("eval profile");
  const inputs = await indexFile(options.inputs, "--inputs", null);
  phases.mark("inputs parse");
  const results = await indexFile(options.rollouts, "--rollouts", inputs, options.log);
  phases.mark("rollouts parse");
  const io = sortKeys(inputs, "materialized input");
  const ro = sortKeys(results, "result");
  const it = inputs.index.task, ir = inputs.index.rollout, rt = results.table!.task, rr = results.table!.rollout;
  // Every rollout row must match an input row (else it is extra), so the matched rows are `ro` itself.
  // One merge of the two sorted key lists also counts, per input task (a run of equal tasks in `io`), its
  // rows and matched rows: the completion summary, and the expected count of every task that has rollouts.
  const inputOf = new Int32Array(ro.length);
  let matched = 0;
  const missing: string[] = [];
  const extra: string[] = [];
  let missingCount = 0;
  let extraCount = 0;
  const tasks = { total: 0, complete: 0, partial: 0, missing: 0 };
  const expectedOfTask: number[] = [];
  let task = NaN;
  let expected = 0;
  let done = 0;
  const closeTask = () => {
    if (done === expected) tasks.complete++;
    else if (done > 0) tasks.partial++;
    else tasks.missing++;
    if (done > 0) expectedOfTask.push(expected);
  };
  for (let a = 0, b = 0; a < io.length || b < ro.length; ) {
    const i = io[a];
    const r = ro[b];
    const c = i === undefined ? 1 : r === undefined ? -1 : it[i]! - rt[r]! || ir[i]! - rr[r]!;
    if (c <= 0) {
      if (it[i!] !== task) {
        if (tasks.total++ > 0) closeTask();
        (task = it[i!]!), (expected = 0), (done = 0);
      }
      expected++;
      if (c === 0) (inputOf[matched++] = i!), done++, b++;
      else if (missingCount++ < 10) missing.push(`(${it[i!]}, ${ir[i!]})`);
      a++;
    } else {
      if (extraCount++ < 10) extra.push(`(${rt[r!]}, ${rr[r!]})`);
      b++;
    }
  }
  if (tasks.total > 0) closeTask();
  if (extraCount) {
    throw new GymError("E_INPUT_SCHEMA", `Rollout results contain rows with no matching materialized input rows. Found ${extraCount} extra rollout rows. Extra rollout keys: ${extra.join(", ")}`, {
      hint: "Pass the materialized inputs of the same run (--inputs <stem>_materialized_inputs.jsonl).",
    });
  }
  if (missingCount && !options.allowPartialRollouts) {
    throw new GymError("E_INCOMPLETE", `Missing rollout results for ${missingCount} materialized input rows. Missing rollout keys: ${missing.join(", ")}`, {
      hint: "Use ++allow_partial_rollouts=true (or --allow-partial-rollouts) to profile the completed rollouts of a partial collection.",
    });
  }
  refuseOtherPrompts(inputs, results, ro, inputOf, matched);
  phases.mark("join");
  const summary = completionSummary(tasks, matched, io.length, extraCount);
  const report = await writeProfile(base, inputs, results, ro, inputOf, expectedOfTask, options, phases);
  phases.report();
  for (const k of [inputs, results]) if (k.file !== (k === inputs ? options.inputs : options.rollouts)) fs.rmSync(path.dirname(k.file), { recursive: true, force: true });
  return { summary, ...report };
}

/** Each joined pair must hold the same prompt: inputs and rollouts of two runs can share every (task, rollout) key. */
function refuseOtherPrompts(inputs: Keyed, results: Keyed, ro: Int32Array, inputOf: Int32Array, matched: number): void {
  const shown: string[] = [];
  let count = 0;
  for (let m = 0; m < matched; m++) {
    const r = ro[m]!;
    const i = inputOf[m]!;
    if (results.prompts.answers(r, inputs.prompts, i)) continue;
    if (count++ < 5) shown.push(`${results.shown}:${results.index.lineOf(r)} and ${inputs.shown}:${inputs.index.lineOf(i)} (rollout (${results.table!.task[r]}, ${results.table!.rollout[r]}))`);
  }
  if (count === 0) return;
  throw new GymError("E_INPUT_SCHEMA", `${count} rollout row(s) answer another prompt than the materialized input row they join: ${shown.join("; ")}${count > shown.length ? "; …" : ""}.`, {
    hint: "The rollouts and the materialized inputs come from different runs: pass the <stem>_materialized_inputs.jsonl that the same `gym eval run` wrote.",
  });
}

function completionSummary(tasks: { total: number; complete: number; partial: number; missing: number }, completed: number, expectedRows: number, extraRows: number): ProfileSummary {
  return {
    expected_rollout_rows: expectedRows,
    completed_rollout_rows: completed,
    missing_rollout_rows: expectedRows - completed,
    extra_rollout_rows: extraRows,
    reward_profile_completion_pct: expectedRows === 0 ? 100 : (100 * completed) / expectedRows,
    total_input_rows: tasks.total,
    complete_input_rows: tasks.complete,
    partial_input_rows: tasks.partial,
    missing_input_rows: tasks.missing,
  };
}

/** A task's sample from its input line's bytes; a line nested too deeply for the printers is refused by file:line. */
function printSample(printer: SampleBytes, bytes: Uint8Array, start: number, end: number, decoder: TextDecoder, where: () => string): string | Uint8Array {
  try {
    return printer.print(bytes, start, end) ?? sampleText(decoder.decode(bytes.subarray(start, end)));
  } catch (error) {
    if (isStackOverflow(error)) throw tooDeepError(where());
    throw error;
  }
}

/** `rows` are the rollouts in (task, rollout) order, `inputOf` their materialized input rows, `expected` each task's input rows. */
async function writeProfile(base: string, inputs: Keyed, results: Keyed, rows: Int32Array, inputOf: Int32Array, expected: number[], options: ProfileOptions, phases: Phases) {
  const table = results.table!;
  const view = new TableView(table, rows);
  // Tasks: runs of equal task index; each task's sample is the input row of its first rollout.
  const starts: number[] = [];
  for (let p = 0; p < rows.length; p++) if (p === 0 || table.task[rows[p]!] !== table.task[rows[p - 1]!]) starts.push(p);
  const samples = Int32Array.from(starts, (p) => inputOf[p]!);
  const profiling = new ByteWriter(siblingPath(base, "_reward_profiling", ".jsonl"));
  const out = profiling.out;
  const groups = new GroupWriter(table, view, new Layout());
  const decoder = new TextDecoder();
  const printer = new SampleBytes();
  const newline = utf8("\n");
  let t = 0;
  let sinceGc = 0;
  try {
    const where = inputs.index.locations();
    const runs = readRuns(inputs.index.task, inputs.index.rollout, where.file, inputs.index.rows);
    readRowsInOrder([inputs.file], where, runs, samples, (bytes, start, end) => {
      // Most lines are printed from their bytes; the rest (see SampleBytes) by the general printer.
      const sample = printSample(printer, bytes, start, end, decoder, () => `${inputs.shown}:${inputs.index.lineOf(samples[t]!)}`);
      const from = starts[t]!;
      const to = t + 1 < starts.length ? starts[t + 1]! : rows.length;
      groups.write(out, rows, from, to, sample, expected[t]!);
      out.bytes(newline);
      t++;
      // Each task leaves strings behind; beside ~200 MB of live columns the engine lets that garbage grow
      // by as much again before it collects (430 MB peak at 1 GB). A full collection every ~128k rollouts
      // keeps the phase flat (~170 MB) for ~10 ms each.
      if ((sinceGc += to - from) >= 1 << 17) (sinceGc = 0), collectGarbage();
    });
    profiling.commit();
  } catch (error) {
    profiling.abort();
    throw error;
  }
  phases.mark("reward profiling file");
  const warn = (m: string) => options.log?.(`Warning: ${m}`);
  // Each agent's rows (the agent of a rollout is its input row's), in (task, rollout) order.
  const agentOf = inputs.index.agent;
  const counts = new Int32Array(inputs.agents.names.length);
  for (let p = 0; p < rows.length; p++) counts[agentOf[inputOf[p]!]!]!++;
  const agentRows = Array.from(counts, (n) => new Int32Array(n));
  const fill = new Int32Array(counts.length);
  for (let p = 0; p < rows.length; p++) {
    const a = agentOf[inputOf[p]!]!;
    agentRows[a]![fill[a]!++] = rows[p]!;
  }
  const agents = [...counts.keys()].filter((a) => counts[a]! > 0).map((a) => ({ a, name: inputs.agents.names[a]! })).sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  const repeatRows: Row[] = [];
  const agentEntries = agents.map(({ a, name: agent }) => {
    const mine = agentRows[a]!;
    const entry: Row = { ...view.describeRow(mine), agent_ref: { name: agent } };
    if (options.repeatLevel === false) return entry;
    const repeats = repeatLevelMetrics({ table: view.asColumns(), rows: mine, taskOf: (i) => table.task[i]!, rolloutOf: (i) => table.rollout[i]! }, warn);
    for (const r of repeats) repeatRows.push({ agent_ref: { name: agent }, ...r });
    // 0.7 appends the cross-repeat keys after agent_ref (dict.update on the finished entry).
    return { ...entry, ...acrossRepeatMetrics(repeats) };
  });
  const agentFile = new FileWriter(siblingPath(base, "_agent_metrics", ".json"));
  agentFile.write(stringifyPython(agentEntries));
  agentFile.commit();
  let repeatPath: string | null = null;
  if (options.repeatLevel !== false) {
    const repeatFile = new FileWriter((repeatPath = siblingPath(base, "_repeat_level_metrics", ".json")));
    repeatFile.write(stringifyPython(repeatRows));
    repeatFile.commit();
  }
  phases.mark("agent and repeat metrics");
  return { rewardProfiling: profiling.target, agentMetrics: agentFile.target, repeatLevelMetrics: repeatPath };
}
