/** The token usage a row records: the policy's (`response.usage`) and each judge call's (`judge_evaluations[].response.usage`). */

type Row = Record<string, unknown>;

/** Tokens of one model call (or of one rollout's calls, as an agent sums them), split the way prices are. */
export interface Tokens {
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  reasoning_tokens: number;
}

/** One usage record of a row: who spent it, on which model. */
export interface UsageRecord extends Tokens {
  role: "policy" | "judge";
  model: string;
}

const count = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : typeof v === "object" && v !== null && typeof v.valueOf() === "number" ? Math.max(0, Number(v.valueOf())) : 0);
const object = (v: unknown): Row | undefined => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Row) : undefined);

/** Usage in the Responses form (`input_tokens`, `…_details`) or the Chat Completions form (`prompt_tokens`, …); undefined when absent. */
export function tokensOf(usage: unknown): Tokens | undefined {
  const u = object(usage);
  if (!u) return undefined;
  const responses = u.input_tokens !== undefined || u.output_tokens !== undefined;
  const input = count(responses ? u.input_tokens : u.prompt_tokens);
  const output = count(responses ? u.output_tokens : u.completion_tokens);
  const cached = count(object(responses ? u.input_tokens_details : u.prompt_tokens_details)?.cached_tokens);
  const reasoning = count(object(responses ? u.output_tokens_details : u.completion_tokens_details)?.reasoning_tokens);
  if (input + output === 0 && !responses && u.prompt_tokens === undefined) return undefined;
  return { input_tokens: input, cached_input_tokens: Math.min(cached, input), output_tokens: output, reasoning_tokens: Math.min(reasoning, output) };
}

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
