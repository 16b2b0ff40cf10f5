/** Reading rollout rows for `gym dev compare`: Python-flavoured JSONL (bare NaN/Infinity) and the task a row belongs to. */
import { createHash } from "node:crypto";
import { locateJsonError } from "../../jsonl/json-error.ts";
import { readLines } from "../../jsonl/lines.ts";
import { issueError, type Row } from "../../jsonl/read.ts";

/** A task as a row names it: an id, and the taskset when the row says (Harbor rows: `_ng_task_id.taskset`). */
export interface TaskKey {
  taskset: string | null;
  id: string;
}

/** The task a row belongs to, and which field said so. */
export function taskKeyOf(row: Row, key?: string): { key: TaskKey; source: string } | undefined {
  if (key !== undefined) {
    const found = idFrom(dig(row, key));
    return found && { key: found, source: key };
  }
  for (const field of ["_ng_task_id", "task_id", "task_name"]) {
    const found = idFrom(row[field]);
    if (found) return { key: found, source: field };
  }
  const meta = row.verifier_metadata;
  if (isDoc(meta)) {
    for (const field of ["task_id", "instance_id", "id"]) {
      const found = idFrom(meta[field]);
      if (found) return { key: found, source: `verifier_metadata.${field}` };
    }
  }
  if (typeof row._ng_task_index === "number") return { key: { taskset: null, id: `task #${row._ng_task_index}` }, source: "_ng_task_index" };
  const rcp = row.responses_create_params;
  if (isDoc(rcp) && rcp.input !== undefined) {
    // No id at all (NeMo Gym's own example rollouts): identical prompts are one task, as NeMo Gym indexes them.
    const digest = createHash("sha256").update(JSON.stringify(rcp.input)).digest("hex").slice(0, 12);
    return { key: { taskset: null, id: `prompt ${digest}` }, source: "prompt digest" };
  }
  return undefined;
}

function idFrom(value: unknown): TaskKey | undefined {
  if (typeof value === "string" || (typeof value === "number" && Number.isFinite(value))) return { taskset: null, id: String(value) };
  if (isDoc(value) && (typeof value.task_id === "string" || typeof value.task_id === "number")) {
    return { taskset: typeof value.taskset === "string" ? value.taskset : null, id: String(value.task_id) };
  }
  return undefined;
}

function dig(row: Row, path: string): unknown {
  if (path in row) return row[path];
  let value: unknown = row;
  for (const part of path.split(".")) value = isDoc(value) ? value[part] : undefined;
  return value;
}

/** JSONL rows with line numbers; Python's `NaN` / `Infinity` tokens are read as numbers; a torn last line is skipped with a warning. */
export async function* rowsOf(path: string, warn?: (message: string) => void): AsyncGenerator<{ row: Row; line: number }> {
  const shown = path === "-" ? "<stdin>" : path;
  for await (const { text, line, terminated } of readLines(path)) {
    if (text.trim() === "") continue;
    const row = parseRow(text);
    if (row === undefined) {
      const problem = locateJsonError(text) ?? { column: 1, message: "invalid JSON" };
      if (!terminated) {
        warn?.(`${shown}:${line}: skipped a cut-off last line (a writer still running, or killed mid-row).`);
        continue;
      }
      throw issueError({ source: shown, line, column: problem.column, kind: "invalid-json", message: `invalid JSON: ${problem.message}` });
    }
    if (!isDoc(row)) throw issueError({ source: shown, line, column: 1, kind: "not-an-object", message: "expected a JSON object" });
    yield { row, line };
  }
}

const NON_FINITE = { NaN: Number.NaN, Infinity: Number.POSITIVE_INFINITY, "-Infinity": Number.NEGATIVE_INFINITY } as Record<string, number>;
const MARK = "\u0000ng-nonfinite:";

function parseRow(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    if (!/NaN|Infinity/.test(text)) return undefined;
  }
  // Python's json.dumps writes NaN / Infinity bare; swap them (outside strings) for marked strings, then back.
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    const token = ["-Infinity", "Infinity", "NaN"].find((t) => text.startsWith(t, i));
    if (token) {
      out += JSON.stringify(MARK + token);
      i += token.length - 1;
    } else out += c;
  }
  try {
    return JSON.parse(out, (_k, v) => (typeof v === "string" && v.startsWith(MARK) ? NON_FINITE[v.slice(MARK.length)] : v));
  } catch {
    return undefined;
  }
}

export function isDoc(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
