/** readJsonl: the async-iterator reader every stage starts from (file or stdin, numbered, bad lines named). */
import { GymError } from "../errors.ts";
import { locateJsonError } from "./json-error.ts";
import { readTextBatches } from "./lines.ts";

/** A JSON row as it came from a JSONL source. Rows are open records: keep every key, in order. */
export type Row = Record<string, unknown>;

/** One parsed row and where it came from. */
export interface JsonlRecord<T = Row> {
  value: T;
  source: string;
  line: number;
}

/** A line that is not a usable row. */
export interface JsonlIssue {
  source: string;
  line: number;
  column?: number;
  kind: "invalid-json" | "truncated" | "not-an-object";
  message: string;
}

export interface ReadJsonlOptions {
  /** Skip bad lines (reporting each to `onIssue`) instead of stopping at the first one. */
  lenient?: boolean;
  /** Called for every bad line in lenient mode (and for a truncated last line, which is always skipped when `allowTruncatedTail`). */
  onIssue?: (issue: JsonlIssue) => void;
  /** A cut-off last line (a writer killed mid-row) is reported and skipped instead of failing. */
  allowTruncatedTail?: boolean;
}

/** Counts kept while reading, for summaries ("12 rows, 1 blank line, 2 skipped"). */
export interface ReadStats {
  rows: number;
  blank: number;
  skipped: number;
}

/**
 * Reads JSON objects from a JSONL file, or stdin for "-". Blank lines are passed over. A bad line stops
 * with a GymError naming file:line:column (or is skipped and reported in lenient mode).
 */
export async function* readJsonl<T = Row>(source: string, options: ReadJsonlOptions = {}, stats?: ReadStats): AsyncGenerator<JsonlRecord<T>> {
  for await (const batch of readJsonlBatches<T>(source, options, stats)) yield* batch;
}

/** Like readJsonl, but yields the rows of each chunk read as one array: the fastest way through a big file. */
export async function* readJsonlBatches<T = Row>(source: string, options: ReadJsonlOptions = {}, stats?: ReadStats): AsyncGenerator<JsonlRecord<T>[]> {
  const shown = source === "-" ? "<stdin>" : source;
  for await (const { texts, first, lastTerminated } of readTextBatches(source)) {
    const batch: JsonlRecord<T>[] = [];
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i]!;
      const line = first + i;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        // Blank lines are checked only here, off the hot path: they never parse.
        if (isBlank(text)) {
          if (stats) stats.blank++;
          continue;
        }
        const issue = describeBadLine(shown, line, text, lastTerminated || i < texts.length - 1);
        if (issue.kind === "truncated" && options.allowTruncatedTail) {
          if (stats) stats.skipped++;
          options.onIssue?.(issue);
          continue;
        }
        if (!options.lenient) throw issueError(issue);
        if (stats) stats.skipped++;
        options.onIssue?.(issue);
        continue;
      }
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        const issue: JsonlIssue = {
          source: shown,
          line,
          column: 1,
          kind: "not-an-object",
          message: `expected a JSON object, found ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}`,
        };
        if (!options.lenient) throw issueError(issue);
        if (stats) stats.skipped++;
        options.onIssue?.(issue);
        continue;
      }
      if (stats) stats.rows++;
      batch.push({ value: value as T, source: shown, line });
    }
    if (batch.length > 0) yield batch;
  }
}

/** Reads just the rows, for callers that do not need line numbers. */
export async function* readRows<T = Row>(source: string, options: ReadJsonlOptions = {}): AsyncGenerator<T> {
  for await (const record of readJsonl<T>(source, options)) yield record.value;
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}

function describeBadLine(source: string, line: number, text: string, terminated: boolean): JsonlIssue {
  const problem = locateJsonError(text) ?? { column: 1, message: "invalid JSON" };
  const cutShort = problem.column > text.length || problem.message.startsWith("unexpected end") || problem.message === "unterminated string";
  if (!terminated && cutShort) {
    return {
      source,
      line,
      column: problem.column,
      kind: "truncated",
      message: `the last line is cut off (${text.length} characters, no final newline): a writer was probably killed mid-row`,
    };
  }
  return { source, line, column: problem.column, kind: "invalid-json", message: `invalid JSON: ${problem.message}` };
}

/** The error for a bad line, with the fix a user can apply. */
export function issueError(issue: JsonlIssue): GymError {
  const where = `${issue.source}:${issue.line}${issue.column ? `:${issue.column}` : ""}`;
  const hint =
    issue.kind === "truncated"
      ? "Delete the partial last line, or use --resume, which repairs it."
      : "Fix or delete that line; each line must be one JSON object.";
  return new GymError(issue.kind === "truncated" ? "E_INPUT_TRUNCATED" : "E_INPUT_JSON", `${where}: ${issue.message}`, { hint });
}
