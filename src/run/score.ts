/** Scoring a finished run: newest successes, plus opted-in zeros (counted failures, imputed missing rollouts), then aggregate metrics. */
import * as fs from "node:fs";
import { GymError } from "../errors.ts";
import { readLines } from "../jsonl/lines.ts";
import type { Row } from "../jsonl/read.ts";
import { parsePythonJson, stringifyPython } from "../metrics/pyjson.ts";
import { parseRolloutLine } from "../jsonl/rollout-rows.ts";
import { stripForAggregate } from "../metrics/records.ts";
import { writeFileAtomic } from "../runtime/files.ts";
import type { ServerClient, ServerDirectory } from "../servers/client.ts";
import { identityKey } from "../outputs/paths.ts";
import { attemptOf, isEvidenceRow, type Outcome } from "../outputs/store.ts";

export interface ScoreOptions {
  rolloutsPath: string;
  failuresPath: string;
  /** The identities of the materialized rows, in order. */
  expected: string[];
  /** The materialized rows (read again only to impute missing rollouts). */
  materialized: () => Iterable<Row>;
  store: Map<string, Outcome>;
  countFailureClassesAsZero: string[];
  countMissingRolloutsAsZero: boolean;
  /** Only count (aggregation disabled): the files are not read again. */
  countOnly?: boolean;
  /** The rollout rows as the writer appended them (a run that started with an empty rollouts file): not read again. */
  written?: WrittenRollouts;
}

/**
 * The metric input of the rollouts a run appends, kept as it writes them: each line read back as the file's
 * reader would (Python-typed), stripped to what aggregation sees, the newest attempt per identity. With every
 * row of the file given here, `scoreRun` need not read the rollouts file at the end; its selection is the same.
 */
export class WrittenRollouts {
  private readonly rows = new Map<string, { attempt: number; row: Row }>();

  /** One line just appended to the rollouts file (with its newline). */
  add(line: string): void {
    const row = parseRolloutLine(line.endsWith("\n") ? line.slice(0, -1) : line);
    if (isEvidenceRow(row)) return;
    const id = identityKey(row);
    const attempt = attemptOf(row);
    const kept = this.rows.get(id);
    // The last row of the newest attempt, as a reader in file order keeps it (a later row of an older attempt never wins).
    if (!kept || attempt >= kept.attempt) this.rows.set(id, { attempt, row: stripForAggregate(row) });
  }

  /** The rows `newestRows` would keep from the file. */
  select(keep: (id: string, attempt: number) => boolean): Map<string, Row> {
    const out = new Map<string, Row>();
    for (const [id, { attempt, row }] of this.rows) if (keep(id, attempt)) out.set(id, row);
    return out;
  }
}

export interface ScoredRun {
  /** Metric input, sorted by (task, rollout). */
  rows: Row[];
  scored: number;
  counted: number;
  imputed: number;
}

/** Builds the metric input from the Store's selection. Neither file is modified: zeros exist only here. */
export async function scoreRun(options: ScoreOptions): Promise<ScoredRun> {
  if (options.countOnly) return countRun(options);
  const newest = (id: string, attempt: number) => options.store.get(id)?.kind === "success" && options.store.get(id)!.attempt === attempt;
  const successes = options.written ? options.written.select(newest) : await newestRows(options.rolloutsPath, (id, row) => newest(id, attemptOf(row)));
  const rows = [...successes.values()];
  let counted = 0;
  const classes = new Set(options.countFailureClassesAsZero);
  const failures = await newestRows(options.failuresPath, (id, row) => {
    const o = options.store.get(id);
    return o?.kind === "failure" && o.attempt === attemptOf(row) && (classes.has(o.failureClass) || o.countsAsZero);
  });
  for (const row of failures.values()) {
    rows.push(metricCopy(row));
    counted++;
  }
  let imputed = 0;
  if (options.countMissingRolloutsAsZero) {
    for (const row of options.materialized()) {
      const o = options.store.get(identityKey(row));
      if (o && o.kind !== "missing" && o.kind !== "interrupted") continue;
      rows.push({ _ng_task_index: row._ng_task_index, _ng_rollout_index: row._ng_rollout_index, agent_ref: row.agent_ref, reward: 0 });
      imputed++;
    }
  }
  rows.sort((a, b) => (a._ng_task_index as number) - (b._ng_task_index as number) || (a._ng_rollout_index as number) - (b._ng_rollout_index as number));
  return { rows, scored: successes.size, counted, imputed };
}

async function newestRows(path: string, keep: (id: string, row: Row) => boolean): Promise<Map<string, Row>> {
  const out = new Map<string, Row>();
  if (!fs.existsSync(path)) return out;
  for await (const { text } of readLines(path)) {
    // Python-typed where metrics look (top level, usage): a reward of 1.0 stays a float and prints 1.0.
    let value: Row;
    try {
      value = parseRolloutLine(text);
    } catch {
      continue; // a torn last line; resume repairs it
    }
    if (!value || isEvidenceRow(value)) continue;
    const id = identityKey(value);
    if (keep(id, value)) out.set(id, value);
  }
  return out;
}

/** The counts of scoreRun from the Store alone. */
function countRun(options: ScoreOptions): ScoredRun {
  const classes = new Set(options.countFailureClassesAsZero);
  let scored = 0;
  let counted = 0;
  let imputed = 0;
  for (const id of options.expected) {
    const o = options.store.get(id);
    if (o?.kind === "success") scored++;
    else if (o?.kind === "failure" && (classes.has(o.failureClass) || o.countsAsZero)) counted++;
    else if (options.countMissingRolloutsAsZero && (!o || o.kind === "missing" || o.kind === "interrupted")) imputed++;
  }
  return { rows: [], scored, counted, imputed };
}

function metricCopy(row: Row): Row {
  const copy: Row = {};
  for (const [k, v] of Object.entries(row)) if (!k.startsWith("_ng_failure") && k !== "failure_kind" && k !== "failure_reason") copy[k] = v;
  copy.mask_sample = false;
  if (copy.reward === undefined) copy.reward = 0;
  return copy;
}

/**
 * Posts each agent's rows to its `/aggregate_metrics` (NeMo Gym's way: the server owns its metrics) and
 * writes `<stem>_aggregate_metrics.json` atomically, after the last rollouts write.
 */
export async function writeAggregateMetrics(target: string, rows: Row[], agents: ServerDirectory): Promise<Row[]> {
  const byAgent = new Map<string, Row[]>();
  for (const row of rows) {
    const name = (row.agent_ref as { name?: string } | undefined)?.name ?? "";
    if (!byAgent.has(name)) byAgent.set(name, []);
    // The attempt number is bookkeeping, not an outcome: a resumed run must score exactly like an uninterrupted one.
    const { _ng_attempt_index: _, ...outcome } = row;
    byAgent.get(name)!.push(stripForAggregate(outcome));
  }
  const entries: Row[] = [];
  for (const [name, verifyResponses] of byAgent) {
    const reply = await postAggregateMetrics(agents.get(name), verifyResponses);
    if (!reply.ok) {
      throw new GymError("E_SERVER", `Agent '${name}' could not compute aggregate metrics (${reply.status}): ${reply.text.slice(0, 300)}`, {
        hint: "The rollouts are saved; compute metrics later with `gym eval aggregate --config … --input-glob <rollouts>`.",
      });
    }
    entries.push({ agent_ref: { name }, ...(parsePythonJson(reply.text) as Row) });
  }
  writeFileAtomic(target, stringifyPython(entries, { indent: 2 }));
  return entries;
}

/** POSTs `{verify_responses}` with Python-typed JSON, so floats such as a 1.0 reward reach the server as floats. */
export function postAggregateMetrics(server: ServerClient, verifyResponses: Row[]) {
  return server.post("/aggregate_metrics", undefined, { body: stringifyPython({ verify_responses: verifyResponses }), headers: { "content-type": "application/json" } });
}
