/** A LiteLLM proxy's answer on /v1/responses made a Responses object, as NeMo Gym's litellm_model normalizes it. */
import type { JsonObject } from "../../../protocol/responses.ts";
import { newItemId } from "../../../protocol/responses-dump.ts";
import { assistantMessageToItems } from "../vllm_model/from-chat.ts";

/**
 * Two known proxy quirks: `reasoning.effort` of `"none"` (a string) becomes null, and an answer the proxy
 * downgraded to chat completions (`object: "chat.completion"`) is rebuilt as a Responses object from its
 * first choice that yields output items, usage mapped from either naming.
 */
export function normalizeLiteLLMResponse(data: JsonObject): JsonObject {
  const reasoning = data.reasoning as JsonObject | null | undefined;
  if (reasoning && typeof reasoning === "object" && reasoning.effort === "none") reasoning.effort = null;
  if (data.object !== "chat.completion") return data;

  const usage = (data.usage ?? {}) as JsonObject;
  const inputTokens = Number(usage.input_tokens || usage.prompt_tokens || 0);
  const outputTokens = Number(usage.output_tokens || usage.completion_tokens || 0);
  const totalTokens = Number(usage.total_tokens || inputTokens + outputTokens);

  let output = Array.isArray(data.output) && data.output.length ? (data.output as JsonObject[]) : undefined;
  if (!output) {
    for (const choice of (data.choices as JsonObject[] | undefined) ?? []) {
      const message = choice.message;
      if (!message || typeof message !== "object" || Array.isArray(message)) continue;
      const items = assistantMessageToItems(message as JsonObject, { usesReasoningParser: false }).map(withoutNulls);
      if (items.length) {
        output = items;
        break;
      }
    }
  }
  output ??= [{ id: newItemId("msg"), content: [{ annotations: [], text: "", type: "output_text", logprobs: null }], role: "assistant", status: "completed", type: "message" }];

  return {
    id: data.id ?? "",
    created_at: data.created_at ?? data.created ?? 0,
    model: data.model ?? "",
    object: "response",
    output,
    parallel_tool_calls: data.parallel_tool_calls ?? false,
    tool_choice: data.tool_choice ?? "auto",
    tools: data.tools ?? [],
    usage: {
      input_tokens: inputTokens,
      output_tokens: outputTokens,
      total_tokens: totalTokens,
      input_tokens_details: { cached_tokens: usageDetail(usage, "prompt_tokens_details", "cached_tokens", "cached_input_tokens", "cache_read_input_tokens") },
      output_tokens_details: { reasoning_tokens: usageDetail(usage, "completion_tokens_details", "reasoning_tokens", "reasoning_output_tokens") },
    },
  };
}

/** A nested token count, else the first top-level alias that is a count; null when none is. */
function usageDetail(usage: JsonObject, group: string, name: string, ...aliases: string[]): number | null {
  const count = (value: unknown) => (Number.isInteger(value) && (value as number) >= 0 ? (value as number) : null);
  const nested = count((usage[group] as JsonObject | null | undefined)?.[name]);
  if (nested !== null) return nested;
  for (const alias of aliases) if (count(usage[alias]) !== null) return count(usage[alias]);
  return null;
}

/** pydantic's `model_dump(exclude_none=True)` of an output item: null fields dropped, one level down too. */
function withoutNulls(item: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(item)) {
    if (value === null) continue;
    out[key] = Array.isArray(value) ? value.map((v) => (v && typeof v === "object" && !Array.isArray(v) ? withoutNulls(v as JsonObject) : v)) : value;
  }
  return out;
}
