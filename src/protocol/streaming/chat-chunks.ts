/**
 * A complete chat completion re-told as `chat.completion.chunk` events, as OpenAI streams one: per choice a role
 * chunk, then reasoning, content, refusal and tool-call chunks, then a chunk with the finish reason; with
 * `stream_options.include_usage`, a last chunk with no choices carrying the usage (every other chunk has
 * `usage: null`); the stream ends with `data: [DONE]`.
 */
import type { JsonObject } from "../responses-types.ts";
import { sseFrame } from "./sse.ts";

/** The chunk objects, in order. */
export function chatCompletionChunks(completion: JsonObject, includeUsage: boolean): JsonObject[] {
  const chunks: JsonObject[] = [];
  const chunk = (choices: JsonObject[], usage?: unknown) => {
    const out: JsonObject = { id: completion.id, object: "chat.completion.chunk", created: completion.created, model: completion.model };
    if (completion.system_fingerprint !== undefined) out.system_fingerprint = completion.system_fingerprint;
    if (completion.service_tier !== undefined) out.service_tier = completion.service_tier;
    out.choices = choices;
    if (includeUsage) out.usage = usage ?? null;
    chunks.push(out);
  };
  const choices = Array.isArray(completion.choices) ? (completion.choices as JsonObject[]) : [];
  choices.forEach((choice, position) => {
    const index = typeof choice.index === "number" ? choice.index : position;
    const message = (choice.message ?? {}) as JsonObject;
    const delta = (fields: JsonObject, extra: JsonObject = {}) => chunk([{ index, delta: fields, logprobs: null, finish_reason: null, ...extra }]);
    delta({ role: message.role ?? "assistant", content: "", refusal: null });
    for (const key of ["reasoning_content", "reasoning"]) {
      if (typeof message[key] === "string" && message[key]) delta({ [key]: message[key] });
    }
    if (typeof message.content === "string" && message.content) delta({ content: message.content }, { logprobs: choice.logprobs ?? null });
    if (typeof message.refusal === "string" && message.refusal) delta({ refusal: message.refusal });
    const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as JsonObject[]) : [];
    calls.forEach((call, callIndex) => {
      const fn = (call.function ?? {}) as JsonObject;
      delta({ tool_calls: [{ index: callIndex, id: call.id, type: call.type ?? "function", function: { name: fn.name, arguments: "" } }] });
      delta({ tool_calls: [{ index: callIndex, function: { arguments: fn.arguments ?? "" } }] });
    });
    chunk([{ index, delta: {}, logprobs: null, finish_reason: choice.finish_reason ?? "stop" }]);
  });
  if (includeUsage) chunk([], completion.usage ?? null);
  return chunks;
}

/** The stream as SSE frames, `data: [DONE]` last. */
export function chatCompletionFrames(completion: JsonObject, includeUsage: boolean): string[] {
  return [...chatCompletionChunks(completion, includeUsage).map((chunk) => sseFrame(chunk)), sseFrame("[DONE]")];
}
