/** NeMo Gym's baseline statistics (RewardProfiler): per-task group rows, per-agent metrics, repeat-level metrics. */
import { GymError } from "../errors.ts";
import { describeFrame, NumericTable } from "./frame.ts";
import { pyFloat } from "./pyjson.ts";
import { indexValue, numericRecord, rolloutInfo, ROLLOUT_INDEX, TASK_INDEX } from "./records.ts";
import { acrossRepeatMetrics, repeatLevelMetrics } from "./repeat-level.ts";

type Row = Record<string, unknown>;

/**
 * Accumulates rollouts added in (task, rollout) order, keeping only numbers (8 bytes per numeric field)
 * and task boundaries; reports pandas-exact statistics per task, per agent and per repeat.
 */
export class ProfileAccumulator {
  readonly table = new NumericTable();
  /** Contiguous row ranges, one per task, in ascending task order. */
  readonly tasks: Array<{ task: unknown; key: number; start: number; end: number }> = [];
  private readonly agentRows = new Map<string, number[]>();
  private readonly taskKeys: number[] = [];
  private readonly rolloutKeys: number[] = [];

  /** Adds one rollout row (with `response.usage` if it has one) for an agent. Rows must come sorted. */
  add(row: Row, agent: string): void {
    const key = indexValue(row, TASK_INDEX);
    const r = this.table.add(numericRecord(row));
    this.taskKeys.push(key);
    this.rolloutKeys.push(indexValue(row, ROLLOUT_INDEX));
    const last = this.tasks[this.tasks.length - 1];
    if (last && last.key === key) last.end = r + 1;
    else this.tasks.push({ task: row[TASK_INDEX] ?? 0, key, start: r, end: r + 1 });
    let list = this.agentRows.get(agent);
    if (!list) this.agentRows.set(agent, (list = []));
    list.push(r);
  }

  get agents(): string[] {
    return [...this.agentRows.keys()];
  }

  /** `_ng_task_index` then the task's statistics (the start of a group_level_metrics row). */
  groupStats(ordinal: number): Row {
    const t = this.tasks[ordinal]!;
    return { [TASK_INDEX]: t.task, ...describeFrame(this.table, null, t.start, t.end) };
  }

  /** Statistics over all of an agent's rows. */
  agentStats(agent: string): Row {
    return describeFrame(this.table, this.agentRows.get(agent) ?? []);
  }

  /** 0.7 repeat-level entries for an agent (without agent_ref), [] with a single repeat. */
  repeatLevel(agent: string, warn?: (message: string) => void): Row[] {
    return repeatLevelMetrics(
      { table: this.table, rows: this.agentRows.get(agent) ?? [], taskOf: (i) => this.taskKeys[i]!, rolloutOf: (i) => this.rolloutKeys[i]! },
      warn,
    );
  }
}

/** The closing keys of a group row: sample, counts, completion and the rollouts themselves. */
export function groupTail(sample: unknown, numRollouts: number, expected: number, rolloutInfos: Row[]): Row {
  return {
    sample,
    num_rollouts: numRollouts,
    expected_num_rollouts: expected,
    missing_num_rollouts: expected - numRollouts,
    reward_profile_completion_pct: pyFloat(expected === 0 ? 100 : (100 * numRollouts) / expected),
    rollout_infos: rolloutInfos,
  };
}

/** NeMo Gym's `AggregateMetrics` reply (and, with `agent_ref`, one entry of `<stem>_aggregate_metrics.json`). */
export interface AggregateMetrics {
  agent_metrics: Row;
  key_metrics: Row;
  group_level_metrics: Row[];
  /** 0.7: one entry per rollout index when there are ≥ 2, else []. */
  repeat_level_metrics?: Row[];
}

/** A resources server's (or agent's) own metric hooks, as NeMo Gym's AggregateMetricsMixin defines them. */
export interface AggregateHooks {
  /** Rollouts grouped by task (ascending `_ng_task_index`, rollout order within). Merged into agent_metrics; `per_task_metrics` goes into group rows. */
  computeMetrics?(tasks: Row[][]): Row;
  /** Picks the headline metrics; the default is every `mean/…` key. */
  getKeyMetrics?(agentMetrics: Row): Row;
}

export interface AggregateOptions {
  hooks?: AggregateHooks;
  /** Add 0.7's repeat-level metrics and cross-repeat keys (default true; false reproduces 0.5 files). */
  repeatLevel?: boolean;
  /** Receives NeMo Gym's statistical warnings (collapsed intervals, incomplete repeats). */
  warn?: (message: string) => void;
}

/** Sort key and duplicate check shared by every caller: (task, rollout), ascending. */
export function sortByRolloutKey(rows: Row[], what = "result"): Row[] {
  const sorted = rows.map((row, i) => ({ row, i, t: indexValue(row, TASK_INDEX), r: indexValue(row, ROLLOUT_INDEX) }));
  sorted.sort((a, b) => a.t - b.t || a.r - b.r || a.i - b.i);
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1]!;
    const b = sorted[i]!;
    if (a.t === b.t && a.r === b.r) {
      throw new GymError("E_INPUT_SCHEMA", `Duplicate ${what} row for rollout key (${a.t}, ${a.r}): rows ${a.i + 1} and ${b.i + 1}`, {
        hint: "Each (_ng_task_index, _ng_rollout_index) may appear once per agent; aggregate separate runs separately.",
      });
    }
  }
  return sorted.map((s) => s.row);
}

/**
 * NeMo Gym's `/aggregate_metrics` computation (`compute_aggregate_metrics`) over one agent's verify
 * responses: baseline statistics per task and overall, the server's hooks, key metrics, and (0.7)
 * repeat-level metrics. Returns exactly the reply body; values are Python-typed for `stringifyPython`.
 */
export function computeAggregateMetrics(verifyResponses: Row[], options: AggregateOptions = {}): AggregateMetrics {
  if (verifyResponses.length === 0) {
    return { agent_metrics: {}, key_metrics: {}, group_level_metrics: [], ...(options.repeatLevel === false ? {} : { repeat_level_metrics: [] }) };
  }
  const sorted = sortByRolloutKey(verifyResponses);
  const acc = new ProfileAccumulator();
  for (const row of sorted) acc.add(row, "agent");
  const groups: Row[] = acc.tasks.map((t, i) => {
    const infos = sorted.slice(t.start, t.end).map(rolloutInfo);
    const n = t.end - t.start;
    // NeMo Gym's aggregate path synthesizes its input rows, hence the placeholder sample and full counts.
    return { ...acc.groupStats(i), ...groupTail({ agent_ref: { name: "agent" } }, n, n, infos) };
  });
  let agentMetrics = acc.agentStats("agent");
  const repeats = options.repeatLevel === false ? undefined : acc.repeatLevel("agent", options.warn);
  if (repeats) agentMetrics = { ...agentMetrics, ...acrossRepeatMetrics(repeats, options.warn) };
  const hooks = options.hooks;
  if (hooks?.computeMetrics) {
    const tasks = groupByTask(verifyResponses);
    const custom = { ...hooks.computeMetrics(tasks) };
    const perTask = custom.per_task_metrics as Row[] | undefined;
    delete custom.per_task_metrics;
    if (Array.isArray(perTask) && perTask.length > 0) {
      const byIndex = new Map(perTask.map((m) => [indexValue(m, TASK_INDEX), m]));
      for (const group of groups) {
        const extra = byIndex.get(indexValue(group, TASK_INDEX));
        if (extra) for (const [k, v] of Object.entries(extra)) if (k !== TASK_INDEX) group[k] = v;
      }
    }
    Object.assign(agentMetrics, custom);
  }
  const keyMetrics = hooks?.getKeyMetrics
    ? hooks.getKeyMetrics(agentMetrics)
    : Object.fromEntries(Object.entries(agentMetrics).filter(([k]) => k.startsWith("mean/")));
  const result: AggregateMetrics = { agent_metrics: agentMetrics, key_metrics: keyMetrics, group_level_metrics: groups };
  if (repeats) result.repeat_level_metrics = repeats;
  return result;
}

/** Verify responses grouped by task index (missing → 0), ascending; rollouts keep their given order. */
export function groupByTask(rows: Row[]): Row[][] {
  const groups = new Map<number, Row[]>();
  for (const row of rows) {
    const k = indexValue(row, TASK_INDEX);
    let list = groups.get(k);
    if (!list) groups.set(k, (list = []));
    list.push(row);
  }
  return [...groups.keys()].sort((a, b) => a - b).map((k) => groups.get(k)!);
}
