/** What one rollout row contributes to statistics: its key, its numeric record and its `rollout_infos` item. */
import { formatPyFloat, PyFloat, pyNumber, type PyNumber } from "./pyjson.ts";

type Row = Record<string, unknown>;

export const TASK_INDEX = "_ng_task_index";
export const ROLLOUT_INDEX = "_ng_rollout_index";

/** Fields the `/aggregate_metrics` request leaves out (NeMo Gym strips them before posting). */
export const STRIPPED_FOR_AGGREGATE = ["response", "responses_create_params", "ng_agent_observations", "ng_model_call_capture", "ng_trajectory"];

/** A number's value for sorting/grouping (PyFloat unwrapped; missing → 0 like `vr.get(key, 0)`). */
export function indexValue(row: Row, key: string): number {
  const v = row[key];
  if (v === undefined || v === null) return 0;
  return typeof v === "number" ? v : v instanceof PyFloat ? v.value : typeof v === "boolean" ? Number(v) : Number(v);
}

/** Python `str()` of an index value, for `rollout_id` ("3:0"). */
export function pyStr(v: unknown): string {
  if (v instanceof PyFloat) return formatPyFloat(v.value);
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : formatPyFloat(v);
  if (typeof v === "boolean") return v ? "True" : "False";
  return String(v);
}

function usageOf(row: Row): Row {
  const response = row.response;
  if (response && typeof response === "object" && !Array.isArray(response)) {
    const usage = (response as Row).usage;
    if (usage && typeof usage === "object" && !Array.isArray(usage)) return usage as Row;
  }
  return {};
}

/**
 * The numeric fields NeMo Gym takes statistics of: the row merged with `response.usage` (usage wins a
 * clash, keeping the row's key position), bools as 0/1, numbers kept (NaN too), everything else dropped.
 * The two index keys are left out (they are the frame keys, not columns). `_`-prefixed keys stay.
 */
export function numericRecord(row: Row): Array<[string, PyNumber]> {
  const usage = usageOf(row);
  const out: Array<[string, PyNumber]> = [];
  const push = (k: string, v: unknown) => {
    if (k === TASK_INDEX || k === ROLLOUT_INDEX) return;
    const n = pyNumber(v);
    if (n) out.push([k, n]);
  };
  for (const k of Object.keys(row)) push(k, Object.hasOwn(usage, k) ? usage[k] : row[k]);
  for (const k of Object.keys(usage)) if (!Object.hasOwn(row, k)) push(k, usage[k]);
  return out;
}

function numericOrBoolAsInt(v: unknown): unknown {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number" || typeof v === "bigint" || v instanceof PyFloat) return v;
  return undefined;
}

/** One `rollout_infos` item: id, indices, the raw `reward`, numeric usage, then other numeric fields. */
export function rolloutInfo(row: Row): Row {
  const task = row[TASK_INDEX] ?? 0;
  const rollout = row[ROLLOUT_INDEX] ?? 0;
  const info: Row = { rollout_id: `${pyStr(task)}:${pyStr(rollout)}`, [TASK_INDEX]: task, [ROLLOUT_INDEX]: rollout };
  if (Object.hasOwn(row, "reward")) info.reward = row.reward ?? null;
  const usage = usageOf(row);
  for (const [k, v] of Object.entries(usage)) {
    const n = numericOrBoolAsInt(v);
    if (n !== undefined) info[k] = n;
  }
  for (const [k, v] of Object.entries(row)) {
    if (k === TASK_INDEX || k === ROLLOUT_INDEX || k === "reward" || k === "response") continue;
    const n = numericOrBoolAsInt(v);
    if (n !== undefined) info[k] = n;
  }
  return info;
}

/** The stripped row NeMo Gym posts to `/aggregate_metrics`: heavy fields dropped, `response.usage` kept. */
export function stripForAggregate(row: Row): Row {
  const entry: Row = {};
  for (const [k, v] of Object.entries(row)) if (!STRIPPED_FOR_AGGREGATE.includes(k)) entry[k] = v;
  const usage = (row.response as Row | null | undefined)?.usage;
  if (usage && (typeof usage !== "object" || Object.keys(usage).length > 0)) entry.response = { usage };
  return entry;
}
