/** `gym eval profile`: the reward profile of a run (per-task rows, per-agent metrics, repeat-level metrics). */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { GymError } from "../errors.ts";
import { readLines } from "../jsonl/lines.ts";
import { groupTail, ProfileAccumulator } from "../metrics/baseline.ts";
import { acrossRepeatMetrics } from "../metrics/repeat-level.ts";
import { parsePythonJson, stringifyPython } from "../metrics/pyjson.ts";
import { parseRolloutLine } from "../metrics/rollout-parse.ts";
import { rolloutInfo, ROLLOUT_INDEX, TASK_INDEX } from "../metrics/records.ts";
import { LineReader, scanLines, spillStdin } from "./_aggregate-shards.ts";
import { FileWriter, siblingPath } from "./_aggregate-files.ts";

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

interface Keyed {
  file: string;
  shown: string;
  task: number[];
  rollout: number[];
  line: number[];
  offset: number[];
  length: number[];
  agent: string[];
}

async function indexFile(source: string, what: string, needAgent: boolean): Promise<Keyed> {
  const file = source === "-" ? await spillStdin() : source;
  const shown = source === "-" ? "<stdin>" : source;
  if (source !== "-" && !fs.existsSync(source)) {
    throw new GymError("E_INPUT_NOT_FOUND", `Input file not found: '${source}' (${what}). Check the path is spelled correctly.`);
  }
  const k: Keyed = { file, shown, task: [], rollout: [], line: [], offset: [], length: [], agent: [] };
  for await (const { text, line, offset, length } of scanLines(file)) {
    let row: Row;
    try {
      row = JSON.parse(text) as Row;
    } catch (error) {
      throw new GymError("E_INPUT_JSON", `Malformed JSON in '${shown}' at line ${line}: ${(error as Error).message}`);
    }
    for (const key of [TASK_INDEX, ROLLOUT_INDEX]) {
      if (typeof row[key] !== "number") throw new GymError("E_INPUT_SCHEMA", `${shown}:${line}: missing integer ${key}`, { hint: `Profile needs the files written by gym eval run (${what}).` });
    }
    const agent = (row.agent_ref as Row | undefined)?.name;
    if (needAgent && typeof agent !== "string") throw new GymError("E_INPUT_SCHEMA", `${shown}:${line}: missing agent_ref.name`, { hint: "Materialized inputs name the agent of every rollout." });
    k.task.push(row[TASK_INDEX] as number);
    k.rollout.push(row[ROLLOUT_INDEX] as number);
    k.line.push(line);
    k.offset.push(offset);
    k.length.push(length);
    if (needAgent) k.agent.push(agent as string);
  }
  return k;
}

function sortKeys(k: Keyed, what: string): Int32Array {
  const order = Int32Array.from(k.task.keys()).sort((a, b) => k.task[a]! - k.task[b]! || k.rollout[a]! - k.rollout[b]! || a - b);
  for (let i = 1; i < order.length; i++) {
    const a = order[i - 1]!;
    const b = order[i]!;
    if (k.task[a] === k.task[b] && k.rollout[a] === k.rollout[b]) {
      throw new GymError("E_INPUT_SCHEMA", `Duplicate ${what} row for rollout key (${k.task[a]}, ${k.rollout[a]}): ${k.shown}:${k.line[a]} and line ${k.line[b]}`);
    }
  }
  return order;
}

const cmp = (at: number, ar: number, bt: number, br: number) => at - bt || ar - br;

/** Joins inputs with rollouts by (task, rollout), then writes the three profile files next to the rollouts. */
export async function profileRollouts(options: ProfileOptions): Promise<ProfileReport> {
  if (options.inputs === "-" && options.rollouts === "-") throw new GymError("E_USAGE", "Only one of --inputs and --rollouts can be read from stdin (-)");
  const base = options.outputBase ?? (options.rollouts === "-" ? undefined : options.rollouts);
  if (!base) throw new GymError("E_MISSING_ARGUMENT", "--output is required when --rollouts is read from stdin", { hint: "Pass --output results/rollouts.jsonl to name the profile files." });
  const inputs = await indexFile(options.inputs, "--inputs", true);
  const results = await indexFile(options.rollouts, "--rollouts", false);
  const io = sortKeys(inputs, "materialized input");
  const ro = sortKeys(results, "result");
  const matched: Array<[number, number]> = [];
  const missing: string[] = [];
  const extra: string[] = [];
  const expected = new Map<number, number>();
  for (const i of io) expected.set(inputs.task[i]!, (expected.get(inputs.task[i]!) ?? 0) + 1);
  for (let a = 0, b = 0; a < io.length || b < ro.length; ) {
    const i = io[a];
    const r = ro[b];
    const c = i === undefined ? 1 : r === undefined ? -1 : cmp(inputs.task[i]!, inputs.rollout[i]!, results.task[r]!, results.rollout[r]!);
    if (c === 0) matched.push([i!, r!]), a++, b++;
    else if (c < 0) missing.push(`(${inputs.task[i!]}, ${inputs.rollout[i!]})`), a++;
    else extra.push(`(${results.task[r!]}, ${results.rollout[r!]})`), b++;
  }
  if (extra.length) {
    throw new GymError("E_INPUT_SCHEMA", `Rollout results contain rows with no matching materialized input rows. Found ${extra.length} extra rollout rows. Extra rollout keys: ${extra.slice(0, 10).join(", ")}`, {
      hint: "Pass the materialized inputs of the same run (--inputs <stem>_materialized_inputs.jsonl).",
    });
  }
  if (missing.length && !options.allowPartialRollouts) {
    throw new GymError("E_INCOMPLETE", `Missing rollout results for ${missing.length} materialized input rows. Missing rollout keys: ${missing.slice(0, 10).join(", ")}`, {
      hint: "Use ++allow_partial_rollouts=true (or --allow-partial-rollouts) to profile the completed rollouts of a partial collection.",
    });
  }
  const summary = completionSummary(expected, matched.map(([i]) => inputs.task[i]!), io.length, extra.length);
  const report = await writeProfile(base, inputs, results, matched, expected, options);
  for (const k of [inputs, results]) if (k.file !== (k === inputs ? options.inputs : options.rollouts)) fs.rmSync(path.dirname(k.file), { recursive: true, force: true });
  return { summary, ...report };
}

function completionSummary(expected: Map<number, number>, matchedTasks: number[], expectedRows: number, extraRows: number): ProfileSummary {
  const done = new Map<number, number>();
  for (const t of matchedTasks) done.set(t, (done.get(t) ?? 0) + 1);
  let complete = 0, partial = 0, missing = 0;
  for (const [t, n] of expected) {
    const c = done.get(t) ?? 0;
    if (c === n) complete++;
    else if (c > 0) partial++;
    else missing++;
  }
  return {
    expected_rollout_rows: expectedRows,
    completed_rollout_rows: matchedTasks.length,
    missing_rollout_rows: expectedRows - matchedTasks.length,
    extra_rollout_rows: extraRows,
    reward_profile_completion_pct: expectedRows === 0 ? 100 : (100 * matchedTasks.length) / expectedRows,
    total_input_rows: expected.size,
    complete_input_rows: complete,
    partial_input_rows: partial,
    missing_input_rows: missing,
  };
}

async function writeProfile(base: string, inputs: Keyed, results: Keyed, matched: Array<[number, number]>, expected: Map<number, number>, options: ProfileOptions) {
  const reader = new LineReader();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "gym-profile-"));
  const acc = new ProfileAccumulator();
  const infosFile = path.join(work, "infos.jsonl");
  const infos = new FileWriter(infosFile);
  const sampleOf: number[] = [];
  try {
    for (const [i, r] of matched) {
      const row = parseRolloutLine(reader.read(results.file, results.offset[r]!, results.length[r]!));
      if (acc.tasks.length === 0 || acc.tasks[acc.tasks.length - 1]!.key !== results.task[r]) sampleOf.push(i);
      acc.add(row, inputs.agent[i]!);
      infos.write(`${stringifyPython(rolloutInfo(row))}\n`);
    }
    infos.commit();
    const profiling = new FileWriter(siblingPath(base, "_reward_profiling", ".jsonl"));
    const lines = readLines(infosFile)[Symbol.asyncIterator]();
    for (let t = 0; t < acc.tasks.length; t++) {
      const task = acc.tasks[t]!;
      const rolloutInfos: Row[] = [];
      for (let k = task.start; k < task.end; k++) rolloutInfos.push(parsePythonJson((await lines.next()).value!.text) as Row);
      const i = sampleOf[t]!;
      const sample = parsePythonJson(reader.read(inputs.file, inputs.offset[i]!, inputs.length[i]!)) as Row;
      delete sample[TASK_INDEX];
      delete sample[ROLLOUT_INDEX];
      const row = { ...acc.groupStats(t), ...groupTail(sample, task.end - task.start, expected.get(task.key) ?? 0, rolloutInfos) };
      profiling.write(`${stringifyPython(row)}\n`);
    }
    await lines.return?.(undefined);
    profiling.commit();
    const warn = (m: string) => options.log?.(`Warning: ${m}`);
    const agents = acc.agents.sort();
    const repeatRows: Row[] = [];
    const agentRows = agents.map((agent) => {
      const entry: Row = { ...acc.agentStats(agent), agent_ref: { name: agent } };
      if (options.repeatLevel === false) return entry;
      const repeats = acc.repeatLevel(agent, warn);
      for (const r of repeats) repeatRows.push({ agent_ref: { name: agent }, ...r });
      // 0.7 appends the cross-repeat keys after agent_ref (dict.update on the finished entry).
      return { ...entry, ...acrossRepeatMetrics(repeats) };
    });
    const agentFile = new FileWriter(siblingPath(base, "_agent_metrics", ".json"));
    agentFile.write(stringifyPython(agentRows));
    agentFile.commit();
    let repeatPath: string | null = null;
    if (options.repeatLevel !== false) {
      const repeatFile = new FileWriter((repeatPath = siblingPath(base, "_repeat_level_metrics", ".json")));
      repeatFile.write(stringifyPython(repeatRows));
      repeatFile.commit();
    }
    return { rewardProfiling: profiling.target, agentMetrics: agentFile.target, repeatLevelMetrics: repeatPath };
  } finally {
    reader.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}
