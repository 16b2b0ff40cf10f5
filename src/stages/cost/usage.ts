/** The token usage a row records: the policy's (`response.usage`) and each judge call's (`judge_evaluations[].response.usage`). */
import { tokensOf, type Tokens } from "../../protocol/usage.ts";

export { tokensOf, type Tokens };

type Row = Record<string, unknown>;

/** One usage record of a row: who spent it, on which model. */
export interface UsageRecord extends Tokens {
  role: "policy" | "judge";
  model: string;
}

const object = (v: unknown): Row | undefined => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Row) : undefined);

/** The model a response names (`response.model`), else the model its create params asked for, else "unknown". */
function modelOf(response: Row | undefined, params: unknown): string {
  const named = response?.model ?? object(params)?.model;
  return typeof named === "string" && named !== "" ? named : "unknown";
}

/**
 * Every usage record of a rollout (or failure) row. Judges keep their calls as NeMo Gym's servers do: a
 * `judge_evaluations` list (or any top-level `judge…` field) of `{responses_create_params, response}`.
 */
export function usageRecords(row: Row): UsageRecord[] {
  const records: UsageRecord[] = [];
  const response = object(row.response);
  const policy = tokensOf(response?.usage);
  if (policy) records.push({ role: "policy", model: modelOf(response, row.responses_create_params), ...policy });
  for (const key in row) {
    if (!key.startsWith("judge")) continue;
    const value = row[key];
    for (const exchange of Array.isArray(value) ? value : [value]) {
      const e = object(exchange);
      const judged = object(e?.response) ?? (e?.usage !== undefined ? e : undefined);
      const tokens = tokensOf(judged?.usage);
      if (tokens) records.push({ role: "judge", model: modelOf(judged, e?.responses_create_params), ...tokens });
    }
  }
  return records;
}
