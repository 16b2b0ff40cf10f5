/**
 * A complete Messages response re-told as Anthropic's event stream: message_start (empty content, stop_reason
 * null), ping, per block content_block_start / content_block_delta / content_block_stop (a thinking block also
 * sends its signature_delta), message_delta (stop_reason, output_tokens), message_stop. Each block's text or
 * JSON is one delta: gym answers from a complete upstream call.
 */
import type { JsonObject } from "../responses-types.ts";
import { sseFrame } from "../streaming/sse.ts";
import { anthropicErrorBody } from "./errors.ts";

/** The events, in order, each with its `type`. */
export function messageStreamEvents(message: JsonObject): JsonObject[] {
  const usage = (message.usage ?? {}) as JsonObject;
  const events: JsonObject[] = [
    { type: "message_start", message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input_tokens ?? 0, output_tokens: 0 } } },
    { type: "ping" },
  ];
  ((message.content as JsonObject[]) ?? []).forEach((block, index) => {
    const delta = (d: JsonObject) => events.push({ type: "content_block_delta", index, delta: d });
    if (block.type === "tool_use") {
      events.push({ type: "content_block_start", index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } });
      delta({ type: "input_json_delta", partial_json: JSON.stringify(block.input ?? {}) });
    } else if (block.type === "thinking") {
      events.push({ type: "content_block_start", index, content_block: { type: "thinking", thinking: "", signature: "" } });
      delta({ type: "thinking_delta", thinking: block.thinking ?? "" });
      delta({ type: "signature_delta", signature: block.signature ?? "" });
    } else {
      events.push({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
      delta({ type: "text_delta", text: block.text ?? "" });
    }
    events.push({ type: "content_block_stop", index });
  });
  events.push({ type: "message_delta", delta: { stop_reason: message.stop_reason ?? null, stop_sequence: message.stop_sequence ?? null }, usage: { output_tokens: usage.output_tokens ?? 0 } });
  events.push({ type: "message_stop" });
  return events;
}

/** The stream as SSE frames (`event: <type>` and `data: <event>`). */
export function messageStreamFrames(message: JsonObject): string[] {
  return messageStreamEvents(message).map((event) => sseFrame(event, String(event.type)));
}

/** An error sent after the stream was committed, as Anthropic sends one (`event: error`). */
export function messageStreamErrorFrame(status: number, message: string): string {
  return sseFrame(anthropicErrorBody(status, message), "error");
}
