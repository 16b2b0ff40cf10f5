/** Reverify's JSONL reading: rows with their raw text and line number, identities, and file:line wording. */
import { GymError } from "../../errors.ts";
import { issueError, type Row } from "../../jsonl/read.ts";
import { locateJsonError } from "../../jsonl/json-error.ts";
import { readLines } from "../../jsonl/lines.ts";
import { type RowBatch, RowReader, type RowShape } from "../../jsonl/rows.ts";

/** One row of a JSONL file: parsed value, the exact line text (without its newline), where it came from. */
export interface TextRow {
  value: Row;
  text: string;
  source: string;
  line: number;
}

/**
 * Streams the object rows of a file (or stdin for "-") with their text. A malformed line stops with a
 * GymError naming file:line:column; a torn last line is skipped only when `allowTruncatedTail` is set.
 */
export async function* readTextRows(file: string, options: { allowTruncatedTail?: boolean } = {}): AsyncGenerator<TextRow> {
  const source = file === "-" ? "<stdin>" : file;
  for await (const { text, line, terminated } of readLines(file)) {
    if (isBlank(text)) continue;
    const row = parseTextRow(text, source, line, terminated, options.allowTruncatedTail === true);
    if (row) yield row;
  }
}

/** One line's row, or undefined for a torn last line when `allowTruncatedTail`; a malformed line stops with file:line:column. */
export function parseTextRow(text: string, source: string, line: number, terminated: boolean, allowTruncatedTail: boolean): TextRow | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const problem = locateJsonError(text) ?? { column: 1, message: "invalid JSON" };
    const torn = !terminated && (problem.column > text.length || problem.message.startsWith("unexpected end") || problem.message === "unterminated string");
    if (torn && allowTruncatedTail) return undefined;
    throw issueError({
      source,
      line,
      column: problem.column,
      kind: torn ? "truncated" : "invalid-json",
      message: torn ? `the last line is cut off (${text.length} characters, no final newline): a writer was probably killed mid-row` : `invalid JSON: ${problem.message}`,
    });
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw issueError({ source, line, column: 1, kind: "not-an-object", message: `expected a JSON object, found ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}` });
  }
  return { value: value as Row, text, source, line };
}

/**
 * The rows of a file in batches, read by the row reader: only the `fields` named are parsed (as JSON.parse
 * gives them), other scalars kept, strings, objects and arrays skipped (their presence and JSON type stay).
 * Same file:line errors as readTextRows; `text` is the row's exact text when `withText` (else ""); `batch`:
 * the reader's batch (offsets, lengths, bytes).
 */
export async function* readRowBatches(file: string, fields: readonly string[], withText = false, nested?: RowShape["nested"]): AsyncGenerator<TextRow[] & { batch: RowBatch }> {
  const source = file === "-" ? "<stdin>" : file;
  const reader = new RowReader({ whole: [...fields], nested });
  for await (const batch of reader.batches(file, { shown: source })) {
    const { rows, lines } = batch;
    const out = new Array(rows.length) as TextRow[] & { batch: RowBatch };
    for (let i = 0; i < rows.length; i++) out[i] = { value: rows[i]!, text: withText ? batch.text(i) : "", source, line: lines[i]! };
    out.batch = batch;
    yield out;
  }
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}

/**
 * A rollout identity as a map key: one number for the usual small indices (task < 2^32, rollout < 2^20: no
 * string per row), else the string `"{task}-{rollout}"`; a number and a string never name the same key.
 */
export type IdentityKey = number | string;

/** The rollout identity key, or undefined when either index is missing. */
export function identityOf(row: Row): IdentityKey | undefined {
  const task = row._ng_task_index;
  const rollout = row._ng_rollout_index;
  // A string "1" or a bool would join another task's input: only whole numbers ≥ 0 identify a rollout.
  if (!isIndex(task) || !isIndex(rollout)) return undefined;
  if ((task as number) < 4294967296 && (rollout as number) < 1048576) return (task as number) * 1048576 + (rollout as number);
  return `${task}-${rollout}`;
}

/** `(task 3, rollout 0)` for messages. */
export function describeIdentity(row: Row): string {
  return `(_ng_task_index ${JSON.stringify(row._ng_task_index)}, _ng_rollout_index ${JSON.stringify(row._ng_rollout_index)})`;
}

const isIndex = (v: unknown) => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

/** The error for a row without its identity pair (missing, or not a whole number ≥ 0). */
export function missingIdentityError(row: TextRow, what: string): GymError {
  const wrong = ["_ng_task_index", "_ng_rollout_index"].find((k) => row.value[k] !== undefined && row.value[k] !== null && !isIndex(row.value[k]));
  if (wrong) {
    return new GymError("E_INPUT_SCHEMA", `${row.source}:${row.line}: field '${wrong}' must be a whole number ≥ 0, got ${JSON.stringify(row.value[wrong])}.`, {
      hint: "Rollouts and materialized inputs are joined on (_ng_task_index, _ng_rollout_index); fix that row (a string or a float would join the wrong task).",
    });
  }
  const missing = ["_ng_task_index", "_ng_rollout_index"].filter((k) => row.value[k] === undefined || row.value[k] === null);
  return new GymError("E_INPUT_SCHEMA", `${row.source}:${row.line}: this ${what} row has no ${missing.join(" or ")}, so it cannot be joined on (_ng_task_index, _ng_rollout_index).`, {
    hint: "Reverify needs the files `gym eval run` writes: <stem>.jsonl and <stem>_materialized_inputs.jsonl, whose rows carry both indices.",
  });
}
