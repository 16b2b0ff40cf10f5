/** Reverify's join check: one streaming pass over the verify source before anything is written (collection.md §6.4 step 2). */
import { GymError } from "../../errors.ts";
import type { Row } from "../../jsonl/read.ts";
import { isEvidenceRow } from "../../outputs/store.ts";
import { isJudgeFailure } from "./cache.ts";
import { State, type InputEntry, type InputsIndex } from "./inputs.ts";
import { describeIdentity, identityOf, missingIdentityError, readRowBatches, type TextRow } from "./lines.ts";
import type { Router } from "./route.ts";
import { answersPrompt } from "../../protocol/prompt/digest.ts";
import { answersPromptBytes } from "../../protocol/prompt/bytes.ts";
import { Span } from "../../jsonl/rows.ts";
import { RowIndexBuilder, type RowIndex } from "../../jsonl/row-index.ts";

export interface JoinCheck {
  /** Source rows that will be considered for verification (before --limit and --resume). */
  candidates: number;
  /** Resources servers those rows route to (the guard asks exactly these). */
  servers: Set<string>;
  /** The source's row index and the rows that joined (ascending row numbers, with their line numbers): the verify pass reads only these. */
  picked: Picked;
}

/** The rows that joined, in file order: row numbers in the source's row index, line numbers, input entries. */
export interface Picked {
  index: RowIndex;
  rows: Int32Array;
  lines: Int32Array;
  entries: InputEntry[];
}

const SHOWN = 10;

/** The prompt of a rollout row, read as bytes to check that it is the prompt of the input row it joins. */
const PROMPT_FIELDS = { responses_create_params: { spans: ["input"] } };

/** The members of a verify-source row the join reads (the rest is skipped, not built). */
const JOIN_FIELDS = ["_ng_task_index", "_ng_rollout_index", "_ng_result_type", "_ng_failure_class"] as const;

/**
 * Streams `source` once: every rollout (or, with `judge`, every judge-failure row not already in the output)
 * must have a materialized input, its identity only once (judge rows are deduplicated instead), and a
 * `response`. Problems are gathered and reported together with file:line; the route of each joined input
 * is resolved and stored on its entry.
 */
export async function checkJoin(source: string, index: InputsIndex, router: Router, options: { judge: boolean }): Promise<JoinCheck> {
  const servers = new Set<string>();
  const problems: string[] = [];
  let problemCount = 0;
  let candidates = 0;
  const problem = (text: string) => {
    problemCount++;
    if (problems.length < SHOWN) problems.push(text);
  };
  const rowIndex = new RowIndexBuilder(source);
  const entries: InputEntry[] = [];
  let rows: Int32Array<ArrayBuffer> = new Int32Array(1024);
  let lines: Int32Array<ArrayBuffer> = new Int32Array(1024);
  // Only what the join looks at is parsed: the indices, the result and failure types (response: its presence and null).
  for await (const batch of readRowBatches(source, JOIN_FIELDS, false, PROMPT_FIELDS)) {
    const { offsets, lengths, bytes } = batch.batch;
    for (let b = 0; b < batch.length; b++) {
      const row = batch[b]!;
      const v = row.value;
      const r = rowIndex.push(offsets[b]!, lengths[b]!);
      if (options.judge) {
        if (isEvidenceRow(v)) continue;
        if (Object.hasOwn(v, "stage_index")) throw multiStageError(row);
        if (!isJudgeFailure(v)) continue;
      }
      const key = identityOf(v);
      if (key === undefined) throw missingIdentityError(row, options.judge ? "failures-sidecar" : "rollout");
      const entry = index.entries.get(key);
      if (!entry) {
        problem(`${row.source}:${row.line}: rollout ${describeIdentity(v)} has no row in ${index.source}`);
        continue;
      }
      if (options.judge && entry.state & (State.done | State.joined)) continue;
      if (entry.state & State.joined) {
        problem(`${row.source}:${row.line}: rollout ${describeIdentity(v)} already appeared on line ${entry.joinedAt}`);
        continue;
      }
      if (!Object.hasOwn(v, "response") || v.response === null) {
        problem(`${row.source}:${row.line}: rollout ${describeIdentity(v)} has no 'response'${typeof v._ng_result_type === "string" ? ` (result type '${v._ng_result_type}')` : ""}, so there is nothing to re-verify`);
        continue;
      }
      if (entry.prompt !== undefined && !answersPromptOf(entry.prompt, v, bytes)) {
        problem(`${row.source}:${row.line}: rollout ${describeIdentity(v)} answers another prompt than its input row ${index.source}:${entry.line} (the two files are from different runs?)`);
        continue;
      }
      entry.state |= State.joined;
      entry.joinedAt = row.line;
      servers.add(routeEntry(entry, router, index.source));
      if (candidates === rows.length) (rows = grown(rows)), (lines = grown(lines));
      rows[candidates] = r;
      lines[candidates] = row.line;
      entries.push(entry);
      candidates++;
    }
  }
  if (problemCount > 0) {
    const more = problemCount > problems.length ? `\n  … and ${problemCount - problems.length} more` : "";
    throw new GymError("E_INPUT_SCHEMA", `${problemCount} row(s) of ${source === "-" ? "<stdin>" : source} cannot be re-verified:\n  ${problems.join("\n  ")}${more}`, {
      hint: "Pass the rollouts and the materialized inputs of the same `gym eval run` (joined on _ng_task_index, _ng_rollout_index), each identity once.",
    });
  }
  return { candidates, servers, picked: { index: rowIndex.build(), rows: rows.subarray(0, candidates), lines: lines.subarray(0, candidates), entries } };
}

/** Whether a rollout row's prompt (a Span of the batch's bytes, or absent) answers its input row's. */
function answersPromptOf(prompt: NonNullable<InputEntry["prompt"]>, v: Row, bytes: Uint8Array): boolean {
  const params = v.responses_create_params;
  const input = params !== null && typeof params === "object" ? (params as Row).input : undefined;
  if (input instanceof Span) return answersPromptBytes(prompt, bytes, input);
  return input === undefined || input === null || answersPrompt(prompt, input);
}

function grown(a: Int32Array): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/** The resources server of an input row (the payload is the input row, so its stamps decide), cached on the entry. */
export function routeEntry(entry: InputEntry, router: Router, inputsSource: string): string {
  entry.server ??= router.route(entry.stamps as Row, `${inputsSource}:${entry.line}`);
  return entry.server;
}

function multiStageError(row: TextRow): GymError {
  return new GymError("E_INPUT_SCHEMA", `${row.source}:${row.line}: this failures sidecar comes from a multi-stage run (the row has 'stage_index'); judge recovery handles single-stage runs only.`, {
    hint: "Recover each stage's rollouts separately, or re-run the failed stage.",
  });
}
