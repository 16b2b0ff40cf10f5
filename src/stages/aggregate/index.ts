/** `gym eval aggregate`: merge rollout shards in (task, rollout) order and recompute aggregate metrics over their union. */
import * as fs from "node:fs";
import * as path from "node:path";
import { createHash, type Hash } from "node:crypto";
import { emptyInput, GymError } from "../../errors.ts";
import type { AggregateMetrics } from "../../metrics/baseline.ts";
import { utf8 } from "../../metrics/byte-text.ts";
import { GroupWriter, Layout } from "../../metrics/group-render.ts";
import { acrossRepeatMetrics, repeatLevelMetrics } from "../../metrics/repeat-level.ts";
import { stringifyPython } from "../../metrics/pyjson.ts";
import { RolloutTable } from "../../metrics/rollout-table.ts";
import { ROLLOUT_INDEX, stripForAggregate, STRIPPED_FOR_AGGREGATE, TASK_INDEX } from "../../metrics/records.ts";
import { TableView } from "../../metrics/table-view.ts";
import { expandInputGlobs, spillStdin } from "./shards.ts";
import { isStream } from "../../runtime/files.ts";
import { FULL_ROW, rewardWarnings, SCORED_CHECKS, statsShape } from "../../jsonl/rollout-rows.ts";
import { RowReader } from "../../jsonl/rows.ts";
import { siblingPath, FileWriter } from "./files.ts";
import { ByteWriter, copyMerged, type MergeJob, readRuns } from "./copy.ts";
import { SecondCore } from "./second-core.ts";
import { type AgentOutput, baselineMetrics, writeMetricsFile } from "./metrics.ts";
import { sortedOrder } from "./order.ts";
import { collectGarbage } from "../../runtime/gc.ts";
import { hashHere, hashInWorker } from "./hash.ts";
import { AggregateHealth } from "./health.ts";
import type { QualitySummary } from "../health-check/tally.ts";
import { NameIds, RowIndex } from "./rows.ts";
import { Phases } from "./phases.ts";

type Row = Record<string, unknown>;

/** Computes one agent's metrics on a server (NeMo Gym posts `/aggregate_metrics`); the lead wires it from `--config`. */
export type AggregateHook = (agent: string, verifyResponses: Row[]) => Promise<AggregateMetrics>;

export interface AggregateStageOptions {
  /** Globs (comma-separated allowed) or "-" for stdin. */
  inputs: string[];
  /** The merged rollouts file; metrics and sources files are named from its stem. */
  output: string;
  mergeShards?: boolean;
  /** Without it, baseline statistics are computed here (no server hooks). */
  aggregateHook?: AggregateHook;
  /** Also health-check the merged rollouts (verdicts and summary beside them), from this same parse. */
  healthCheck?: boolean;
  /** 0.7 repeat-level metrics (default true). */
  repeatLevel?: boolean;
  log?: (message: string) => void;
}

export interface ShardSource {
  path: string;
  rows: number;
  size: number;
  sha256: string;
}

export interface AggregateReport {
  shards: ShardSource[];
  excludedSidecars: string[];
  rows: number;
  agents: string[];
  mergedRollouts: string | null;
  aggregateMetrics: string | null;
  sources: string;
  computedBy: "gym-baseline" | "servers";
  /** With `healthCheck` and a merged file: its quality summary, or why it could not be checked. */
  health?: QualitySummary | { error: string };
}

/** Merges shards and writes `<stem>_aggregate_metrics.json` and `<stem>_sources.json`; memory holds numbers per row, never row text. */
export async function aggregateShards(options: AggregateStageOptions): Promise<AggregateReport> {
  const log = options.log ?? (() => {});
  const { shards: matched, sidecars } = expandInputGlobs(options.inputs);
  for (const s of sidecars) log(`Skipping sidecar ${s} (not a shard of results)`);
  const output = path.resolve(options.output);
  const sameAsOutput = matched.filter((m) => m !== "-" && path.resolve(m) === output);
  if (sameAsOutput.length > 0 && matched.length > 1) {
    throw new GymError("E_CONFIG", `--output ${options.output} is also one of the ${matched.length} shards being merged`, {
      hint: "Write the merged file to a new path (e.g. results/rollouts.jsonl beside results/rollouts-*.jsonl).",
    });
  }
  // A pipe (stdin, a FIFO, `<(…)`) is read once, into a private file: the stage reads its shards more than once.
  const piped = matched.map((m) => isStream(m));
  const files = await Promise.all(matched.map((m, s) => (piped[s] ? spillStdin(m) : Promise.resolve(m))));
  const shown = matched.map((m) => (m === "-" ? "<stdin>" : m));
  try {
    return await aggregateFiles(files, shown, sidecars, sameAsOutput.length === 1 && matched.length === 1, options);
  } finally {
    for (let s = 0; s < files.length; s++) if (piped[s]) fs.rmSync(path.dirname(files[s]!), { recursive: true, force: true });
  }
}

/** What the scan keeps: the numbers of every row, where its bytes are, its agent. */
interface Scan {
  table: RolloutTable;
  index: RowIndex;
  agents: NameIds;
  sources: ShardSource[];
  /** Files whose rows must be copied as decoded text (invalid UTF-8, a BOM inside): what the reference did. */
  lossy: Set<number>;
  /** Stripped rows per row number, only for server hooks. */
  hooked: Row[] | null;
  health: AggregateHealth | null;
  /** Each file's sha256 as its bytes are read (when not hashed on another core). */
  hashes?: Hash[];
  /** Rows without `_ng_task_index` or `_ng_rollout_index` (NeMo Gym takes a missing one as 0): row → the missing fields. */
  unindexed: Map<number, string>;
  phases: Phases;
}

async function scanShards(files: string[], shown: string[], options: AggregateStageOptions, phases: Phases): Promise<Scan> {
  const scan: Scan = {
    phases, table: new RolloutTable({ strip: STRIPPED_FOR_AGGREGATE, spool: true }), index: new RowIndex({ bytes: true, agent: true, spool: true }), agents: new NameIds(), sources: [], lossy: new Set(), unindexed: new Map(), hooked: options.aggregateHook ? [] : null, health: options.healthCheck && options.mergeShards !== false ? new AggregateHealth(options.output) : null };
  // The shards' sha256: from the blocks the parse reads, or (GYM_AGGREGATE_WORKER=1) on another core, which
  // reads the files a second time. Under load the second core bought no wall time and cost that second read
  // and an engine: shape (c) 200 MB, median of 4 interleaved runs, CPU 1.55 s with the worker, 1.42 s without.
  const hashing = process.env.GYM_AGGREGATE_WORKER === "1" ? hashInWorker(files) : null;
  if (!hashing) scan.hashes = files.map(() => createHash("sha256"));
  try {
    await scanInto(scan, files, shown, options);
    phases.mark("parse");
    const digests = hashing ? await hashing.digests : null;
    for (let s = 0; s < files.length; s++) scan.sources[s]!.sha256 = digests?.[s] ?? scan.hashes?.[s]!.digest("hex") ?? (await hashHere(files[s]!));
    // The parse's garbage goes before the exact-size arrays are loaded beside it.
    collectIfLarge();
    scan.table.finish();
    scan.index.finish();
    phases.mark("columns");
    return scan;
  } catch (error) {
    hashing?.stop();
    scan.table.dispose();
    scan.index.dispose();
    throw error;
  }
}

async function scanInto(scan: Scan, files: string[], shown: string[], options: AggregateStageOptions): Promise<void> {
  const { table, index, agents } = scan;
  // Server hooks get the stripped rows whole; the baseline statistics need only scalars and usage.
  const reader = new RowReader(scan.hooked ? { ...FULL_ROW, checks: SCORED_CHECKS } : statsShape(SCORED_CHECKS, scan.health !== null));
  for (let s = 0; s < files.length; s++) {
    let rows = 0;
    const hash = scan.hashes?.[s];
    const onBytes = !hash ? undefined : scan.phases.on ? (chunk: Uint8Array) => void scan.phases.part("sha256", () => hash.update(chunk)) : (chunk: Uint8Array) => void hash.update(chunk);
    for await (const batch of reader.batches(files[s]!, { shown: shown[s]!, onBytes })) {
      // The reference decoded each line on its own, which drops a BOM at a line's start: such rows are copied as text.
      if (batch.bom) scan.lossy.add(s);
      const { rows: parsed, lines, offsets, lengths } = batch;
      for (let i = 0; i < parsed.length; i++) {
        const row = parsed[i]!;
        scan.health?.add(table.rows, row);
        const name = (row.agent_ref as Row | undefined)?.name;
        const agent = typeof name === "string" && name !== "" ? agents.id(name) : -1;
        const r = table.add(row);
        index.push(s, lines[i]!, offsets[i]!, lengths[i]!, agent);
        if (row._ng_task_index === undefined || row._ng_rollout_index === undefined) noteUnindexed(scan, r, row);
        if (scan.hooked && agent >= 0) scan.hooked[r] = stripForAggregate(row);
        rows++;
      }
    }
    scan.sources.push({ path: shown[s]!, rows, size: fs.statSync(files[s]!).size, sha256: "" });
    options.log?.(`Read ${rows} rollout row(s) from ${shown[s]}`);
    for (const warning of rewardWarnings(reader, shown[s]!)) options.log?.(warning);
  }
}

async function aggregateFiles(files: string[], shown: string[], sidecars: string[], onlyShardIsOutput: boolean, options: AggregateStageOptions): Promise<AggregateReport> {
  // Started before the parse so its start-up is hidden; it takes a job after the parse. Server hooks keep
  // the single-thread order (merged file first), their time being the servers'.
  const second = options.aggregateHook ? null : new SecondCore();
  const phases = new Phases("eval aggregate");
  try {
    const report = await aggregateScanned(await scanShards(files, shown, options, phases), files, shown, sidecars, onlyShardIsOutput, second, options);
    phases.report();
    return report;
  } catch (error) {
    await second?.abandon();
    throw error;
  } finally {
    second?.stop();
  }
}

/** Rows from which the metrics file is always written on the second core. */
const OFFLOAD_ROWS = 2000;

async function aggregateScanned(scan: Scan, files: string[], shown: string[], sidecars: string[], onlyShardIsOutput: boolean, second: SecondCore | null, options: AggregateStageOptions): Promise<AggregateReport> {
  const { table, index } = scan;
  const order = sortedOrder(table.task, table.rollout, table.rows);
  if (order.length === 0) throw emptyInput(shown.join(", "), "--input-glob");
  checkDuplicates(order, scan, shown);
  scan.phases.mark("order");
  const report: AggregateReport = {
    shards: scan.sources,
    excludedSidecars: sidecars,
    rows: order.length,
    agents: [],
    mergedRollouts: null,
    aggregateMetrics: null,
    sources: siblingPath(options.output, "_sources", ".json"),
    computedBy: options.aggregateHook ? "servers" : "gym-baseline",
  };
  const merge = options.mergeShards !== false ? mergeJob(options.output, files, scan, order) : null;
  const byAgent = rowsByAgent(order, index.agent, scan.agents.names.length);
  const metricsTarget = siblingPath(options.output, "_aggregate_metrics", ".json");
  report.agents = [...byAgent.keys()].map((a) => scan.agents.names[a]!);
  let metricsFile: ByteWriter | string | null = null;
  let mergePosted = false;
  // Big enough inputs wait for the worker to be up (it nearly always is by then); small ones do not.
  const offload = second !== null && byAgent.size > 0 && table.odd.size === 0 && (second.running || (table.rows >= OFFLOAD_ROWS && (await second.whenLoaded())));
  if (offload) {
    // The metrics file (the longer job) on the second core, the merged copy here.
    const { state, transfer } = table.state();
    const agents = [...byAgent].map(([a, rows]) => ({ agent: scan.agents.names[a]!, rows }));
    second!.post({ metrics: { target: metricsTarget, table: state, strip: STRIPPED_FOR_AGGREGATE, agents, repeatLevel: options.repeatLevel } }, transfer);
    if (merge) copyMerged(merge).commit();
    // The health pass too, while the worker finishes the metrics file (it reads only task and rollout).
    if (scan.health) report.health = await writeHealth(scan.health, order, table);
    const reply = await second!.reply();
    for (const warning of reply.warnings ?? []) options.log?.(warning);
    if (reply.tmp) metricsFile = reply.tmp;
    else {
      if (!reply.table) throw new Error(`aggregate metrics worker failed: ${reply.error}`);
      table.restore(reply.table);
    }
  } else if (merge) {
    if (second?.usable) (second.post({ merge }), (mergePosted = true));
    else copyMerged(merge).commit();
    scan.phases.mark("merged copy");
  }
  if (metricsFile === null && byAgent.size > 0) {
    const emitted: AgentOutput[] = [];
    for (const [a, rows] of byAgent) {
      const agent = scan.agents.names[a]!;
      if (options.aggregateHook) emitted.push({ agent, metrics: await options.aggregateHook(agent, Array.from(rows, (r) => scan.hooked![r]!)) });
      else emitted.push(baselineMetrics(agent, table, rows, options));
    }
    scan.phases.mark("agent metrics");
    metricsFile = writeMetricsFile(metricsTarget, emitted, table);
    scan.phases.mark("metrics file");
  }
  try {
    if (merge && mergePosted) {
      const reply = await second!.reply();
      if (reply.tmp) ByteWriter.place(reply.tmp, merge.target);
      else copyMerged(merge).commit();
    }
    writeSources(report.sources, options.output, onlyShardIsOutput ? [] : scan.sources);
  } catch (error) {
    if (metricsFile instanceof ByteWriter) metricsFile.abort();
    else if (metricsFile) fs.rmSync(metricsFile, { force: true });
    throw error;
  }
  if (merge) report.mergedRollouts = options.output;
  if (metricsFile instanceof ByteWriter) metricsFile.commit();
  else if (metricsFile) ByteWriter.place(metricsFile, metricsTarget);
  if (metricsFile) report.aggregateMetrics = metricsTarget;
  else options.log?.("No rollout rows with an agent_ref.name: no aggregate metrics written");
  if (scan.health && !report.health) report.health = await writeHealth(scan.health, order, table);
  scan.phases.mark("health verdicts");
  return report;
}

/**
 * A full collection at a phase boundary, only when the process is big enough that the previous phase's
 * garbage could set the peak: at 200 MB of rows a collection costs ~50 ms for a peak ~130 MB either way.
 */
function collectIfLarge(): void {
  if (process.memoryUsage.rss() > COLLECT_FROM_RSS) collectGarbage();
}
const COLLECT_FROM_RSS = 160 * 2 ** 20;

/** The health verdicts and summary of the merged rows, or why they could not be written. */
async function writeHealth(health: AggregateHealth, order: Int32Array, table: RolloutTable): Promise<QualitySummary | { error: string }> {
  try {
    collectIfLarge();
    return await health.write(order, table);
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** The merged file's copy job: rows in (task, rollout) order, each exactly its input bytes. */
function mergeJob(target: string, files: string[], scan: Scan, order: Int32Array): MergeJob {
  const { index, table } = scan;
  const where = index.locations();
  const runs = readRuns(table.task, table.rollout, where.file, index.rows);
  return { target, files, file: where.file, offset: where.offset, length: where.length, runs, order, lossy: [...scan.lossy] };
}

/** Each agent's rows in (task, rollout) order, agents in order of their first row. */
function rowsByAgent(order: Int32Array, agentOf: Int32Array, agents: number): Map<number, Int32Array> {
  const counts = new Int32Array(agents);
  const firstSeen: number[] = [];
  for (let i = 0; i < order.length; i++) {
    const a = agentOf[order[i]!]!;
    if (a >= 0 && counts[a]!++ === 0) firstSeen.push(a);
  }
  const lists = Array.from(counts, (n) => new Int32Array(n));
  const fill = new Int32Array(agents);
  for (let i = 0; i < order.length; i++) {
    const r = order[i]!;
    const a = agentOf[r]!;
    if (a >= 0) lists[a]![fill[a]!++] = r;
  }
  return new Map(firstSeen.map((a) => [a, lists[a]!]));
}

/** Remembers a row that lacks an index (the first thousand: enough to name the rows of a duplicate). */
function noteUnindexed(scan: Scan, r: number, row: Row): void {
  if (scan.unindexed.size >= 1000) return;
  const missing = [TASK_INDEX, ROLLOUT_INDEX].filter((f) => row[f] === undefined);
  scan.unindexed.set(r, missing.join(" and "));
}

/** A duplicate that a missing index made: the row that has no index is named as such, not as a repeat. */
function duplicateMessage(scan: Scan, x: number, y: number, key: string, who: string, at: (r: number) => string): string {
  const bare = [x, y].filter((r) => scan.unindexed.has(r));
  if (bare.length === 0) return `Rollout ${key} of ${who} appears twice: ${at(x)} and ${at(y)}`;
  const lacking = bare.map((r) => `${at(r)} has no ${scan.unindexed.get(r)}`).join("; ");
  return `${lacking} (NeMo Gym takes a missing index as 0), so ${at(x)} and ${at(y)} are both rollout ${key} of ${who}`;
}

function checkDuplicates(order: Int32Array, scan: Scan, shown: string[]): void {
  const { task, rollout } = scan.table;
  const { index } = scan;
  const { agent } = index;
  for (let i = 0; i < order.length; ) {
    let j = i + 1;
    while (j < order.length && task[order[j]!] === task[order[i]!] && rollout[order[j]!] === rollout[order[i]!]) j++;
    for (let a = i; a < j; a++) {
      for (let b = a + 1; b < j; b++) {
        const x = order[a]!;
        const y = order[b]!;
        if (agent[x] !== agent[y]) continue;
        const who = agent[x]! >= 0 ? `agent ${scan.agents.names[agent[x]!]}` : "rows without an agent";
        const at = (r: number) => `${shown[index.fileOf(r)]}:${index.lineOf(r)}`;
        const bare = scan.unindexed.has(x) || scan.unindexed.has(y);
        throw new GymError("E_INPUT_SCHEMA", duplicateMessage(scan, x, y, `(${TASK_INDEX}=${task[x]}, ${ROLLOUT_INDEX}=${rollout[x]})`, who, at), {
          hint: bare
            ? "Give every row its _ng_task_index and _ng_rollout_index (gym eval run and NeMo Gym write both)."
            : "Shards of one run must carry globally unique task indices; aggregate separate runs separately (or re-stamp _ng_task_index).",
        });
      }
    }
    i = j;
  }
}

function writeSources(target: string, output: string, shards: ShardSource[]): void {
  const w = new FileWriter(target);
  w.write(`${stringifyPython({ schema_version: 1, output, shards }, { indent: 2 })}\n`);
  w.commit();
}
