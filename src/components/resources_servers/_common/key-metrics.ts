/** The start of most servers' key metrics (NeMo Gym's get_key_metrics): the mean input and output tokens, where present. */
import type { JsonObject } from "../../../protocol/responses.ts";

export function meanTokenMetrics(agentMetrics: Record<string, unknown>): JsonObject {
  const key: JsonObject = {};
  for (const name of ["mean/input_tokens", "mean/output_tokens"]) if (name in agentMetrics) key[name] = agentMetrics[name] as never;
  return key;
}
