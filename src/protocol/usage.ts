/** Token usage as model answers report it: the Responses form (`input_tokens`, `…_details`) and the Chat Completions form. */

/** Tokens of one model call (or of one rollout's calls, as an agent sums them), split the way prices are. */
export interface Tokens {
  input_tokens: number;
  cached_input_tokens: number;
  output_tokens: number;
  reasoning_tokens: number;
}

// Python-typed floats (PyFloat) are objects whose valueOf() is the number; one finiteness test for both, so a NaN or
// Infinity count (which would turn every budget comparison false, or spend it at once) counts as none.
const count = (v: unknown): number => {
  const n = typeof v === "object" && v !== null ? v.valueOf() : v;
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? n : 0;
};
const object = (v: unknown): Record<string, unknown> | undefined => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

/** Usage in the Responses form or the Chat Completions form (`prompt_tokens`, …); undefined when absent. */
export function tokensOf(usage: unknown): Tokens | undefined {
  const u = object(usage);
  if (!u) return undefined;
  const responses = u.input_tokens !== undefined || u.output_tokens !== undefined;
  if (!responses && u.prompt_tokens === undefined && u.completion_tokens === undefined) return undefined;
  const input = count(responses ? u.input_tokens : u.prompt_tokens);
  const output = count(responses ? u.output_tokens : u.completion_tokens);
  const cached = count(object(responses ? u.input_tokens_details : u.prompt_tokens_details)?.cached_tokens);
  const reasoning = count(object(responses ? u.output_tokens_details : u.completion_tokens_details)?.reasoning_tokens);
  return { input_tokens: input, cached_input_tokens: Math.min(cached, input), output_tokens: output, reasoning_tokens: Math.min(reasoning, output) };
}
