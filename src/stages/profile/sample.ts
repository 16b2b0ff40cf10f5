/** The `sample` of a reward-profile row: the task's materialized input without its index fields, printed as orjson would. */
import { parsePythonJson, stringifyPython } from "../../metrics/pyjson.ts";
import { ROLLOUT_INDEX, TASK_INDEX } from "../../metrics/records.ts";

/** Number spellings whose JS and Python printing may differ: fractions, exponents, 16+ digits. */
const PYTHON_NUMBER = /[0-9][.eE]|[0-9]{16}/;

/** One input line → the compact text of the row minus `_ng_task_index` / `_ng_rollout_index`. */
export function sampleText(line: string): string {
  if (!PYTHON_NUMBER.test(line)) {
    // Only small ints among the numbers: JSON.stringify prints exactly what stringifyPython would.
    // Member by member rather than `delete` + stringify: deleting keys turns the object into a slow dictionary.
    const row = JSON.parse(line) as Record<string, unknown>;
    if (row === null || typeof row !== "object" || Array.isArray(row)) return JSON.stringify(row);
    let text = "{";
    for (const key in row) {
      if (key === TASK_INDEX || key === ROLLOUT_INDEX) continue;
      const value = JSON.stringify(row[key]);
      if (value === undefined) continue;
      text += `${text.length > 1 ? "," : ""}${JSON.stringify(key)}:${value}`;
    }
    return `${text}}`;
  }
  const row = parsePythonJson(line) as Record<string, unknown>;
  delete row[TASK_INDEX];
  delete row[ROLLOUT_INDEX];
  return stringifyPython(row);
}
