/** `gym eval aggregate`: merge rollout shards in (task, rollout) order and recompute aggregate metrics over their union. */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { GymError } from "../errors.ts";
import { readLines } from "../jsonl/lines.ts";
import { groupTail, ProfileAccumulator, type AggregateMetrics } from "../metrics/baseline.ts";
import { acrossRepeatMetrics } from "../metrics/repeat-level.ts";
import { parsePythonJson, stringifyPython } from "../metrics/pyjson.ts";
import { parseRolloutLine } from "../metrics/rollout-parse.ts";
import { indexValue, rolloutInfo, ROLLOUT_INDEX, stripForAggregate, TASK_INDEX } from "../metrics/records.ts";
import { expandInputGlobs, LineReader, scanLines, spillStdin } from "./_aggregate-shards.ts";
import { FileWriter, siblingPath } from "./_aggregate-files.ts";

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
}

interface Index {
  shard: number[];
  line: number[];
  offset: number[];
  length: number[];
  task: number[];
  rollout: number[];
  agent: number[];
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
  const files = await Promise.all(matched.map((m) => (m === "-" ? spillStdin() : Promise.resolve(m))));
  const shown = matched.map((m) => (m === "-" ? "<stdin>" : m));
  const index: Index = { shard: [], line: [], offset: [], length: [], task: [], rollout: [], agent: [] };
  const agents: string[] = [];
  const agentIds = new Map<string, number>();
  const sources: ShardSource[] = [];
  for (let s = 0; s < files.length; s++) {
    const hash = createHash("sha256");
    let rows = 0;
    for await (const { text, line, offset, length } of scanLines(files[s]!, hash)) {
      const row = parseRow(text, shown[s]!, line);
      const name = (row.agent_ref as Row | undefined)?.name;
      let id = -1;
      if (typeof name === "string" && name !== "") {
        id = agentIds.get(name) ?? -1;
        if (id === -1) agentIds.set(name, (id = agents.push(name) - 1));
      }
      index.shard.push(s);
      index.line.push(line);
      index.offset.push(offset);
      index.length.push(length);
      index.task.push(indexValue(row, TASK_INDEX));
      index.rollout.push(indexValue(row, ROLLOUT_INDEX));
      index.agent.push(id);
      rows++;
    }
    sources.push({ path: shown[s]!, rows, size: fs.statSync(files[s]!).size, sha256: hash.digest("hex") });
    log(`Read ${rows} rollout row(s) from ${shown[s]}`);
  }
  const order = sortedOrder(index);
  checkDuplicates(order, index, shown, agents);
  const report: AggregateReport = {
    shards: sources,
    excludedSidecars: sidecars,
    rows: order.length,
    agents: [],
    mergedRollouts: null,
    aggregateMetrics: null,
    sources: siblingPath(options.output, "_sources", ".json"),
    computedBy: options.aggregateHook ? "servers" : "gym-baseline",
  };
  const reader = new LineReader();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "gym-aggregate-"));
  try {
    const emitted = await mergePass(order, index, files, agents, reader, work, options, report);
    const onlyShardIsOutput = sameAsOutput.length === 1 && matched.length === 1;
    writeSources(report.sources, options.output, onlyShardIsOutput ? [] : sources);
    if (emitted.length > 0) {
      report.aggregateMetrics = siblingPath(options.output, "_aggregate_metrics", ".json");
      await writeMetricsFile(report.aggregateMetrics, emitted);
    } else log("No rollout rows with an agent_ref.name: no aggregate metrics written");
    report.agents = emitted.map((e) => e.agent);
  } finally {
    reader.close();
    fs.rmSync(work, { recursive: true, force: true });
    for (let s = 0; s < files.length; s++) if (matched[s] === "-") fs.rmSync(path.dirname(files[s]!), { recursive: true, force: true });
  }
  return report;
}

function parseRow(text: string, source: string, line: number): Row {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new GymError("E_INPUT_JSON", `${source}:${line}: invalid JSON (${(error as Error).message})`, { hint: "Fix or delete that line; each line must be one JSON object." });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new GymError("E_INPUT_JSON", `${source}:${line}: expected a JSON object`, { hint: "Each line of a rollouts file is one JSON object." });
  }
  return value as Row;
}

/** Row numbers sorted by (task, rollout), ties in read order (Python's stable sort). */
function sortedOrder(ix: Index): Int32Array {
  const order = Int32Array.from(ix.task.keys());
  return order.sort((a, b) => ix.task[a]! - ix.task[b]! || ix.rollout[a]! - ix.rollout[b]! || a - b);
}

function checkDuplicates(order: Int32Array, ix: Index, shown: string[], agents: string[]): void {
  for (let i = 0; i < order.length; ) {
    let j = i + 1;
    while (j < order.length && ix.task[order[j]!] === ix.task[order[i]!] && ix.rollout[order[j]!] === ix.rollout[order[i]!]) j++;
    for (let a = i; a < j; a++) {
      for (let b = a + 1; b < j; b++) {
        const x = order[a]!;
        const y = order[b]!;
        if (ix.agent[x] !== ix.agent[y]) continue;
        const who = ix.agent[x]! >= 0 ? `agent ${agents[ix.agent[x]!]}` : "rows without an agent";
        throw new GymError(
          "E_INPUT_SCHEMA",
          `Rollout (${TASK_INDEX}=${ix.task[x]}, ${ROLLOUT_INDEX}=${ix.rollout[x]}) of ${who} appears twice: ${shown[ix.shard[x]!]}:${ix.line[x]} and ${shown[ix.shard[y]!]}:${ix.line[y]}`,
          { hint: "Shards of one run must carry globally unique task indices; aggregate separate runs separately (or re-stamp _ng_task_index)." },
        );
      }
    }
    i = j;
  }
}

interface AgentOutput {
  agent: string;
  metrics: AggregateMetrics;
  /** Baseline path: rollout_infos lines, one per row, to stream into the group rows. */
  infosFile?: string;
  acc?: ProfileAccumulator;
}

async function mergePass(order: Int32Array, ix: Index, files: string[], agents: string[], reader: LineReader, work: string, options: AggregateStageOptions, report: AggregateReport): Promise<AgentOutput[]> {
  const merge = options.mergeShards !== false;
  const merged = merge ? new FileWriter(options.output) : null;
  const accs = new Map<number, ProfileAccumulator>();
  const infos = new Map<number, FileWriter>();
  const hooked = new Map<number, Row[]>();
  const firstSeen: number[] = [];
  for (const r of order) {
    const text = reader.read(files[ix.shard[r]!]!, ix.offset[r]!, ix.length[r]!);
    merged?.write(`${text}\n`);
    const a = ix.agent[r]!;
    if (a < 0) continue;
    const stripped = stripForAggregate(parseRolloutLine(text));
    if (!accs.has(a) && !hooked.has(a)) firstSeen.push(a);
    if (options.aggregateHook) {
      if (!hooked.has(a)) hooked.set(a, []);
      hooked.get(a)!.push(stripped);
      continue;
    }
    let acc = accs.get(a);
    if (!acc) {
      accs.set(a, (acc = new ProfileAccumulator()));
      infos.set(a, new FileWriter(path.join(work, `infos-${a}.jsonl`)));
    }
    acc.add(stripped, "agent");
    infos.get(a)!.write(`${stringifyPython(rolloutInfo(stripped))}\n`);
  }
  if (merged) {
    merged.commit();
    report.mergedRollouts = options.output;
  }
  const out: AgentOutput[] = [];
  for (const a of firstSeen) {
    const agent = agents[a]!;
    if (options.aggregateHook) {
      out.push({ agent, metrics: await options.aggregateHook(agent, hooked.get(a)!) });
      continue;
    }
    const acc = accs.get(a)!;
    infos.get(a)!.commit();
    let agentMetrics = acc.agentStats("agent");
    const repeats = options.repeatLevel === false ? undefined : acc.repeatLevel("agent", (m) => options.log?.(`Warning (${agent}): ${m}`));
    if (repeats) agentMetrics = { ...agentMetrics, ...acrossRepeatMetrics(repeats) };
    const keyMetrics = Object.fromEntries(Object.entries(agentMetrics).filter(([k]) => k.startsWith("mean/")));
    const metrics: AggregateMetrics = { agent_metrics: agentMetrics, key_metrics: keyMetrics, group_level_metrics: [] };
    if (repeats) metrics.repeat_level_metrics = repeats;
    out.push({ agent, metrics, infosFile: path.join(work, `infos-${a}.jsonl`), acc });
  }
  return out;
}

const GROUPS = "\u0000groups\u0000";
const GROUPS_JSON = JSON.stringify(GROUPS);

/** Writes the metrics file (orjson indent 2, no final newline), streaming group rows one task at a time. */
async function writeMetricsFile(target: string, entries: AgentOutput[]): Promise<void> {
  const file = new FileWriter(target);
  file.write("[");
  for (let e = 0; e < entries.length; e++) {
    const { agent, metrics, infosFile, acc } = entries[e]!;
    const entry = { agent_ref: { name: agent }, ...metrics, group_level_metrics: infosFile ? [GROUPS] : metrics.group_level_metrics };
    const body = stringifyPython([entry], { indent: 2 }).slice(2, -2);
    file.write(`${e > 0 ? "," : ""}\n`);
    if (!infosFile || !acc) {
      file.write(body);
      continue;
    }
    const at = body.indexOf(GROUPS_JSON);
    file.write(body.slice(0, at).trimEnd());
    const lines = readLines(infosFile)[Symbol.asyncIterator]();
    for (let t = 0; t < acc.tasks.length; t++) {
      const task = acc.tasks[t]!;
      const rolloutInfos: Row[] = [];
      for (let i = task.start; i < task.end; i++) rolloutInfos.push(parsePythonJson((await lines.next()).value!.text) as Row);
      const n = task.end - task.start;
      const group = { ...acc.groupStats(t), ...groupTail({ agent_ref: { name: "agent" } }, n, n, rolloutInfos) };
      file.write(`${t > 0 ? "," : ""}\n${indentBlock(stringifyPython(group, { indent: 2 }), 6)}`);
    }
    await lines.return?.(undefined);
    file.write(body.slice(at + GROUPS_JSON.length));
  }
  file.write("\n]");
  file.commit();
}

function indentBlock(text: string, spaces: number): string {
  const pad = " ".repeat(spaces);
  return text.split("\n").map((l) => pad + l).join("\n");
}

function writeSources(target: string, output: string, shards: ShardSource[]): void {
  const w = new FileWriter(target);
  w.write(`${stringifyPython({ schema_version: 1, output, shards }, { indent: 2 })}\n`);
  w.commit();
}
