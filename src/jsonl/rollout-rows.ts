/**
 * The row shapes of rollouts files, one place for every stage that reads them: what NeMo Gym's statistics
 * take from a row (top-level scalars, `response.usage`, `agent_ref.name`) and the type each of those fields
 * must have. See `rows.ts` for the reader.
 */
import type { FieldCheck, RowShape } from "./rows.ts";
import { RowReader } from "./rows.ts";

/** Types every rollouts reader checks: indices are Python ints ≥ 0, an agent_ref is an object naming its agent. */
const IDENTITY_CHECKS: Record<string, FieldCheck> = {
  _ng_task_index: { type: "index" },
  _ng_rollout_index: { type: "index" },
  agent_ref: { type: "object" },
  "agent_ref.name": { type: "string" },
};

/**
 * A scored rollout: the reward is a number (NeMo Gym's verify response holds a float). NeMo Gym's statistics
 * take a missing or null reward as no value (it is left out of the means), so those are counted warnings;
 * a string or a bool would be silently dropped or miscounted, so those are errors.
 */
export const SCORED_CHECKS: Record<string, FieldCheck> = { ...IDENTITY_CHECKS, reward: { type: "number", required: "warn", null: "warn", nonFinite: "warn" } };

/**
 * The reader's counted reward warnings as `Warning:` lines, each with the rule NeMo Gym's statistics apply
 * (metrics.md §1.4): a null, a missing reward and a NaN are no value (left out of the reward statistics); an
 * ±Infinity is a value (kept), so every statistic it enters is not finite and is written as null or left out.
 */
export function rewardWarnings(reader: RowReader, shown: string): string[] {
  return reader.takeWarnings(shown).map((w) =>
    /Infinity$/.test(w) ? `Warning: ${w} (kept as a value, as NeMo Gym does: the reward statistics it enters are not finite, so they are written as null or left out)` : `Warning: ${w} (left out of the reward statistics, as NeMo Gym does)`,
  );
}

/** A rollout as health-check sees it: a missing or null reward is a finding, not an error; any other non-number is. */
export const HEALTH_CHECKS: Record<string, FieldCheck> = { ...IDENTITY_CHECKS, reward: { type: "number", null: "allow" } };

/** Members the health checks read whole (model-call evidence). */
export const HEALTH_MEMBERS = ["ng_model_call_capture", "ng_trajectory"];

/** What the health checks read of `response` beside its usage: the last model call's outcome. */
export const HEALTH_RESPONSE_MEMBERS = ["status", "error", "incomplete_details"];

/** What the statistics read of a rollout row (and, with `health`, the health checks too). */
export function statsShape(checks: Record<string, FieldCheck>, health = false): RowShape {
  return { nested: { response: { nested: { usage: {} }, whole: health ? HEALTH_RESPONSE_MEMBERS : [] } }, whole: health ? HEALTH_MEMBERS : [], checks };
}

/**
 * A whole row, Python-typed at the top level and in `response.usage` (what NeMo Gym's statistics look at);
 * nested values keep plain JS numbers. For rows that are sent on or copied with changes.
 */
export const FULL_ROW: RowShape = {
  strings: true,
  wholeRest: true,
  nested: { response: { strings: true, wholeRest: true, nested: { usage: { strings: true, wholeRest: true } } } },
};

let fullRows: RowReader | null = null;

/** One rollout line read whole (FULL_ROW), for callers that hold a line rather than a file. */
export function parseRolloutLine(text: string, shown = "<row>", line = 1): Record<string, unknown> {
  fullRows ??= new RowReader(FULL_ROW);
  const row = fullRows.line(text, shown, line);
  if (row === undefined) throw new SyntaxError("a blank line is not a rollout row");
  return row;
}
