/**
 * The types of the rollout fields that metrics are computed from, checked on each row as parsed. A wrong type
 * would silently drop or mis-group a row (a string reward, a float task index): each is an error naming
 * file:line, the field, what was expected and what was found.
 */
import { GymError } from "../errors.ts";

type Row = Record<string, unknown>;

export interface RolloutFieldRules {
  /** `required`: reward must be a number (aggregate, profile); `optional`: a number when present and not null (dev compare masks the rest). */
  reward: "required" | "optional";
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

/** Throws for the first field of `row` whose type would change the metrics. `where` is `file:line`. */
export function checkRolloutFields(row: Row, where: string, rules: RolloutFieldRules): void {
  const reward = row.reward;
  if (rules.reward === "required" ? typeof reward !== "number" : reward !== undefined && reward !== null && typeof reward !== "number") {
    throw wrong(where, "reward", "a number", reward);
  }
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
}
