/**
 * The types of the rollout fields that metrics are computed from, checked on each row as parsed. A wrong type
 * would silently drop or mis-group a row (a string reward, a float task index): each is an error naming
 * file:line, the field, what was expected and what was found.
 */
import { GymError } from "../errors.ts";

type Row = Record<string, unknown>;

export interface RolloutFieldRules {
  /** `number`: a number when present and not null (NeMo Gym's statistics treat a null or missing reward as missing: the caller counts those); `unchecked`: the caller checks it. */
  reward: "number" | "unchecked";
  /** The identity pair must be present (default true). */
  identity?: boolean;
}

const isIndex = (v: unknown) => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const describe = (v: unknown) => (v === undefined ? "nothing (the field is missing)" : `${JSON.stringify(v)} (${v === null ? "null" : Array.isArray(v) ? "a list" : typeof v})`);

function wrong(where: string, field: string, expected: string, value: unknown): GymError {
  return new GymError("E_INPUT_SCHEMA", `${where}: field '${field}' must be ${expected}, got ${describe(value)}.`, {
    hint: "Fix that row (the files `gym eval run` writes carry these types), or re-score the file with `gym eval reverify`.",
  });
}

/**
 * Throws for the first field of `row` whose type would change the metrics. `where` is `file:line`. Returns
 * whether the row has no reward (null or missing), which the caller reports as a counted warning.
 */
export function checkRolloutFields(row: Row, where: string, rules: RolloutFieldRules): boolean {
  const reward = row.reward;
  const noReward = reward === undefined || reward === null;
  if (rules.reward === "number" && !noReward && typeof reward !== "number") throw wrong(where, "reward", "a number (or null)", reward);
  for (const key of ["_ng_task_index", "_ng_rollout_index"]) {
    const v = row[key];
    if (v === undefined && rules.identity === false) continue;
    if (!isIndex(v)) throw wrong(where, key, "a whole number ≥ 0", v);
  }
  const ref = row.agent_ref;
  if (ref !== undefined && ref !== null) {
    if (typeof ref !== "object" || Array.isArray(ref)) throw wrong(where, "agent_ref", 'an object like {"name": "…"}', ref);
    const name = (ref as Row).name;
    if (name !== undefined && typeof name !== "string") throw wrong(where, "agent_ref.name", "a string", name);
  }
  return noReward;
}
