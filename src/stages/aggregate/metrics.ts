/** Aggregate's baseline metrics (NeMo Gym's `/aggregate_metrics` computed here) and its metrics file, on whichever thread runs them. */
import type { AggregateMetrics } from "../../metrics/baseline.ts";
import { utf8 } from "../../metrics/byte-text.ts";
import { GroupWriter, Layout } from "../../metrics/group-render.ts";
import { stringifyPython } from "../../metrics/pyjson.ts";
import { acrossRepeatMetrics, repeatLevelMetrics } from "../../metrics/repeat-level.ts";
import { RolloutTable, type TableState } from "../../metrics/rollout-table.ts";
import { TableView } from "../../metrics/table-view.ts";
import { ByteWriter } from "./copy.ts";
import { collectGarbage } from "../../runtime/gc.ts";

export interface AgentOutput {
  agent: string;
  metrics: AggregateMetrics;
  /** Baseline path: the agent's rows (sorted) and frame, for its group rows. */
  rows?: Int32Array;
  view?: TableView;
}

/** NeMo Gym's baseline `/aggregate_metrics` for one agent (group rows are written later, streamed). */
export function baselineMetrics(agent: string, table: RolloutTable, rows: Int32Array, options: { repeatLevel?: boolean; log?: (message: string) => void }): AgentOutput {
  const view = new TableView(table, rows);
  let agentMetrics = view.describeRow(rows);
  const repeats =
    options.repeatLevel === false
      ? undefined
      : repeatLevelMetrics({ table: view.asColumns(), rows, taskOf: (i) => table.task[i]!, rolloutOf: (i) => table.rollout[i]! }, (m) => options.log?.(`Warning (${agent}): ${m}`));
  if (repeats) agentMetrics = { ...agentMetrics, ...acrossRepeatMetrics(repeats) };
  const keyMetrics = Object.fromEntries(Object.entries(agentMetrics).filter(([k]) => k.startsWith("mean/")));
  const metrics: AggregateMetrics = { agent_metrics: agentMetrics, key_metrics: keyMetrics, group_level_metrics: [] };
  if (repeats) metrics.repeat_level_metrics = repeats;
  return { agent, metrics, rows, view };
}

const GROUPS = "\u0000groups\u0000";
const GROUPS_JSON = JSON.stringify(GROUPS);

/**
 * Writes the metrics file (orjson indent 2, no final newline), streaming group rows one task at a time; the
 * caller commits it. `collect`: a full collection every 8192 tasks (on a worker).
 */
export function writeMetricsFile(target: string, entries: AgentOutput[], table: RolloutTable, collect = false): ByteWriter {
  const file = new ByteWriter(target);
  const out = file.out;
  const layout = new Layout(2, 6);
  // NeMo Gym's aggregate path synthesizes its input rows, hence the placeholder sample and full counts.
  const sample = utf8(layout.value({ agent_ref: { name: "agent" } }, 1));
  const groupBreak = utf8(layout.nl(0));
  const comma = utf8(",");
  try {
    out.text("[");
    for (let e = 0; e < entries.length; e++) {
      const { agent, metrics, rows, view } = entries[e]!;
      const entry = { agent_ref: { name: agent }, ...metrics, group_level_metrics: rows ? [GROUPS] : metrics.group_level_metrics };
      const body = stringifyPython([entry], { indent: 2 }).slice(2, -2);
      out.text(`${e > 0 ? "," : ""}\n`);
      if (!rows || !view) {
        out.text(body);
        continue;
      }
      const at = body.indexOf(GROUPS_JSON);
      out.text(body.slice(0, at).trimEnd());
      const groups = new GroupWriter(table, view, layout);
      const task = table.task;
      for (let start = 0, t = 0; start < rows.length; t++) {
        let end = start + 1;
        while (end < rows.length && task[rows[end]!] === task[rows[start]!]) end++;
        if (t > 0) out.bytes(comma);
        out.bytes(groupBreak);
        groups.write(out, rows, start, end, sample, end - start);
        // A worker's engine lets this loop's garbage pile up (~100 MB at 1 GB): collect as it goes.
        if (collect && t % 8192 === 8191) collectGarbage();
        start = end;
      }
      out.text(body.slice(at + GROUPS_JSON.length));
    }
    out.text("\n]");
    out.drain();
    return file;
  } catch (error) {
    file.abort();
    throw error;
  }
}


/** The baseline metrics file as a job for another thread: the finished table and each agent's sorted rows. */
export interface MetricsJob {
  target: string;
  table: TableState;
  strip: readonly string[];
  agents: { agent: string; rows: Int32Array }[];
  repeatLevel?: boolean;
}

/** Runs a MetricsJob: the metrics file written (uncommitted) and the warnings it logged, in order. */
export function runMetricsJob(job: MetricsJob): { file: ByteWriter; warnings: string[] } {
  const table = RolloutTable.fromState(job.table, { strip: job.strip });
  const warnings: string[] = [];
  const emitted = job.agents.map(({ agent, rows }) => baselineMetrics(agent, table, rows, { repeatLevel: job.repeatLevel, log: (m) => warnings.push(m) }));
  return { file: writeMetricsFile(job.target, emitted, table, true), warnings };
}
