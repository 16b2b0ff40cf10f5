/**
 * A Responses object as an Anthropic Messages response, mapped as NeMo Gym's anthropic_converter maps it: message
 * text (and refusals) → text blocks, reasoning summaries → thinking blocks (encrypted_content → signature),
 * function calls → tool_use; stop_reason max_tokens / refusal / tool_use / end_turn from incomplete_details and
 * the calls; usage → input_tokens and output_tokens. The message id is derived from the response id (NeMo Gym
 * draws a random one). A reasoning item with no summary but reasoning_text content gives that text.
 */
import type { JsonObject } from "../responses-types.ts";
import { AnthropicError } from "./errors.ts";

/** The Messages response for a Responses object; `model` is what the client asked for (else the response's). */
export function responseToMessage(response: JsonObject, model?: unknown): JsonObject {
  const content: JsonObject[] = [];
  let toolUse = false;
  for (const item of (response.output as JsonObject[]) ?? []) {
    const type = item.type ?? "message";
    if (type === "message") content.push(...textBlocks(item));
    else if (type === "reasoning") content.push(...thinkingBlocks(item));
    else if (type === "function_call") {
      content.push({ type: "tool_use", id: item.call_id, name: item.name, input: toolInput(item) });
      toolUse = true;
    } else throw new AnthropicError(500, `The model answered an output item of type ${JSON.stringify(type)}, which has no Anthropic Messages form`);
  }
  const usage = (response.usage ?? {}) as JsonObject;
  const id = typeof response.id === "string" ? response.id.replace(/^resp_/, "") : "";
  return {
    id: `msg_${id}`,
    type: "message",
    role: "assistant",
    model: model ?? response.model,
    content,
    stop_reason: stopReason(response, toolUse),
    stop_sequence: null,
    usage: { input_tokens: Number(usage.input_tokens ?? 0), output_tokens: Number(usage.output_tokens ?? 0) },
  };
}

function textBlocks(item: JsonObject): JsonObject[] {
  return ((item.content as JsonObject[]) ?? []).map((part) => {
    if (part.type === "output_text") return { type: "text", text: String(part.text ?? "") };
    if (part.type === "refusal") return { type: "text", text: String(part.refusal ?? "") };
    throw new AnthropicError(500, `The model answered a message part of type ${JSON.stringify(part.type)}, which has no Anthropic Messages form`);
  });
}

function thinkingBlocks(item: JsonObject): JsonObject[] {
  const summary = (item.summary as JsonObject[] | null) ?? [];
  const texts = summary.length ? summary : ((item.content as JsonObject[] | null) ?? []).filter((part) => part.type === "reasoning_text");
  return texts.map((part) => ({ type: "thinking", thinking: String(part.text ?? ""), signature: typeof item.encrypted_content === "string" ? item.encrypted_content : "" }));
}

function toolInput(item: JsonObject): JsonObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(item.arguments || "{}"));
  } catch {
    throw new AnthropicError(500, `The model's call of ${JSON.stringify(item.name)} has arguments that are not JSON: ${String(item.arguments).slice(0, 200)}`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new AnthropicError(500, `The model's call of ${JSON.stringify(item.name)} has arguments that are not a JSON object`);
  }
  return parsed as JsonObject;
}

function stopReason(response: JsonObject, toolUse: boolean): string {
  const reason = (response.incomplete_details as JsonObject | null | undefined)?.reason;
  if (reason === "max_output_tokens") return "max_tokens";
  if (reason === "content_filter") return "refusal";
  return toolUse ? "tool_use" : "end_turn";
}
