/** Chat Completion → Responses object, as vllm_model converts it back (protocol.md §3.8). */
import type { JsonObject } from "../../../protocol/responses.ts";
import { dumpResponse, newItemId } from "../../../protocol/responses-dump.ts";

const THINK = /<think>([\s\S]*?)<\/think>/g;

/** Every `<think>…</think>` span's text, and the content with the spans removed (no trimming, as Python). */
export function extractThinking(content: string): { reasoning: string[]; rest: string } {
  const reasoning = [...content.matchAll(THINK)].map((m) => m[1]!);
  return { reasoning, rest: content.replace(THINK, "") };
}

/** Reasoning texts as inline think tags (empty texts skipped). */
export function wrapThinking(texts: string[]): string {
  return texts.filter((t) => t).map((t) => `<think>${t}</think>`).join("");
}

/** An assistant chat message → Responses output items (reasoning, message, function calls; token fields on the last). */
export function assistantMessageToItems(message: JsonObject, options: { usesReasoningParser: boolean; returnTokenIdInformation?: boolean }): JsonObject[] {
  const items: JsonObject[] = [];
  let content = typeof message.content === "string" ? message.content : "";
  if (options.usesReasoningParser) {
    const { reasoning, rest } = extractThinking(content);
    content = rest;
    if (reasoning.length) {
      items.push({ id: newItemId("rs"), summary: reasoning.map((text) => ({ text, type: "summary_text" })), type: "reasoning", encrypted_content: null, content: null });
    }
  }
  const calls = (message.tool_calls as JsonObject[] | null | undefined) ?? [];
  if (content || !(items.length || calls.length)) {
    items.push({
      id: newItemId("msg"),
      content: [{ annotations: [], text: content, type: "output_text", logprobs: null }],
      role: message.role ?? "assistant",
      status: "completed",
      type: "message",
    });
  }
  for (const call of calls) {
    const fn = call.function as JsonObject;
    items.push({ arguments: fn.arguments, call_id: call.id, name: fn.name, type: "function_call", id: call.id, status: "completed" });
  }
  if (options.returnTokenIdInformation && "prompt_token_ids" in message) {
    const last = items.at(-1)!;
    for (const key of ["prompt_token_ids", "generation_token_ids", "generation_log_probs", "routed_experts"]) {
      if (message[key] != null) last[key] = message[key];
    }
  }
  return items;
}

const ECHOED = [
  "temperature", "top_p", "background", "max_output_tokens", "max_tool_calls", "previous_response_id", "prompt",
  "reasoning", "service_tier", "text", "top_logprobs", "truncation", "metadata", "instructions", "user",
];

/** The Responses object for a chat completion answering `params` (`params.model` = the configured model). */
export function chatCompletionToResponse(
  params: JsonObject,
  completion: JsonObject,
  options: { usesReasoningParser: boolean; returnTokenIdInformation?: boolean },
): JsonObject {
  const choice = (completion.choices as JsonObject[])[0]!;
  const output = assistantMessageToItems(choice.message as JsonObject, options);
  const finish = choice.finish_reason;
  const incomplete = finish === "length" ? { reason: "max_output_tokens" } : finish === "content_filter" ? { reason: "content_filter" } : null;
  const response: JsonObject = {
    id: newItemId("resp"),
    created_at: completion.created,
    model: params.model,
    object: "response",
    output,
    tool_choice: params.tool_choice ?? "auto",
    parallel_tool_calls: params.parallel_tool_calls ?? true,
    tools: params.tools ?? [],
  };
  for (const key of ECHOED) response[key] = params[key] ?? null;
  response.status = incomplete ? "incomplete" : "completed";
  response.incomplete_details = incomplete;
  response.usage = usageOf(completion.usage as JsonObject | null | undefined);
  return dumpResponse(response);
}

function usageOf(usage: JsonObject | null | undefined): JsonObject | null {
  if (!usage) return null;
  const count = (value: unknown) => (Number.isInteger(value) && (value as number) >= 0 ? (value as number) : null);
  const detail = (group: string, name: string, ...aliases: string[]) => {
    const nested = count((usage[group] as JsonObject | null | undefined)?.[name]);
    if (nested !== null) return nested;
    for (const alias of aliases) if (count(usage[alias]) !== null) return count(usage[alias]);
    return null;
  };
  return {
    input_tokens: usage.prompt_tokens,
    input_tokens_details: { cached_tokens: detail("prompt_tokens_details", "cached_tokens", "cached_input_tokens", "cache_read_input_tokens") },
    output_tokens: usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: detail("completion_tokens_details", "reasoning_tokens", "reasoning_output_tokens") },
    // Provider totals can differ from prompt + completion; copied, not recomputed.
    total_tokens: usage.total_tokens,
  };
}
