/**
 * A complete Responses object re-told as the OpenAI Responses event stream: response.created, in_progress, per
 * output item its added / part / delta / done events, then response.completed (or .incomplete / .failed).
 * Each text and argument string is sent as one delta: gym answers from a complete upstream call.
 */
import type { JsonObject } from "../responses-types.ts";
import { sseFrame } from "./sse.ts";

type Emit = (type: string, fields: JsonObject) => void;

/** The events, in order, each with its `type` and `sequence_number`. */
export function responseStreamEvents(response: JsonObject): JsonObject[] {
  const events: JsonObject[] = [];
  const emit: Emit = (type, fields) => events.push({ type, sequence_number: events.length, ...fields });
  const output = Array.isArray(response.output) ? (response.output as JsonObject[]) : [];
  const shell: JsonObject = { ...response, status: "in_progress", output: [], usage: null, incomplete_details: null };
  if ("error" in response) shell.error = null;
  emit("response.created", { response: shell });
  emit("response.in_progress", { response: shell });
  output.forEach((item, index) => itemEvents(item, index, emit));
  const status = response.status === "incomplete" ? "incomplete" : response.status === "failed" ? "failed" : "completed";
  emit(`response.${status}`, { response });
  return events;
}

/** The stream as SSE frames (`event: <type>` and `data: <event>`). */
export function responseStreamFrames(response: JsonObject): string[] {
  return responseStreamEvents(response).map((event) => sseFrame(event, String(event.type)));
}

/** A stream that reports a failure after it was committed (Codex expects a terminal response.failed). */
export function failedResponseEvents(id: string, message: string, code = "server_error"): JsonObject[] {
  const response: JsonObject = { id, object: "response", status: "failed", output: [], error: { code, message }, usage: null };
  return [
    { type: "response.created", sequence_number: 0, response: { ...response, status: "in_progress", error: null } },
    { type: "response.failed", sequence_number: 1, response },
  ];
}

function itemEvents(item: JsonObject, index: number, emit: Emit): void {
  const at = { output_index: index };
  const itemId = typeof item.id === "string" ? item.id : "";
  if (item.type === "message" && Array.isArray(item.content)) {
    emit("response.output_item.added", { ...at, item: { ...item, status: "in_progress", content: [] } });
    (item.content as JsonObject[]).forEach((part, content_index) => {
      const where = { item_id: itemId, ...at, content_index };
      if (part.type === "refusal") {
        emit("response.content_part.added", { ...where, part: { ...part, refusal: "" } });
        emit("response.refusal.delta", { ...where, delta: part.refusal });
        emit("response.refusal.done", { ...where, refusal: part.refusal });
      } else {
        emit("response.content_part.added", { ...where, part: { ...part, text: "", annotations: [] } });
        const logprobs = Array.isArray(part.logprobs) ? part.logprobs : [];
        emit("response.output_text.delta", { ...where, delta: part.text ?? "", logprobs });
        emit("response.output_text.done", { ...where, text: part.text ?? "", logprobs });
      }
      emit("response.content_part.done", { ...where, part });
    });
  } else if (item.type === "function_call") {
    emit("response.output_item.added", { ...at, item: { ...item, arguments: "", status: "in_progress" } });
    const where = { item_id: itemId, ...at };
    emit("response.function_call_arguments.delta", { ...where, delta: item.arguments ?? "" });
    emit("response.function_call_arguments.done", { ...where, name: item.name, arguments: item.arguments ?? "" });
  } else if (item.type === "reasoning") {
    const summary = Array.isArray(item.summary) ? (item.summary as JsonObject[]) : [];
    const content = Array.isArray(item.content) ? (item.content as JsonObject[]) : undefined;
    emit("response.output_item.added", { ...at, item: { ...item, summary: [], ...(content ? { content: [] } : {}) } });
    summary.forEach((part, summary_index) => {
      const where = { item_id: itemId, ...at, summary_index };
      emit("response.reasoning_summary_part.added", { ...where, part: { ...part, text: "" } });
      emit("response.reasoning_summary_text.delta", { ...where, delta: part.text ?? "" });
      emit("response.reasoning_summary_text.done", { ...where, text: part.text ?? "" });
      emit("response.reasoning_summary_part.done", { ...where, part });
    });
    (content ?? []).forEach((part, content_index) => {
      const where = { item_id: itemId, ...at, content_index };
      emit("response.content_part.added", { ...where, part: { ...part, text: "" } });
      emit("response.reasoning_text.delta", { ...where, delta: part.text ?? "" });
      emit("response.reasoning_text.done", { ...where, text: part.text ?? "" });
      emit("response.content_part.done", { ...where, part });
    });
  } else {
    emit("response.output_item.added", { ...at, item });
  }
  emit("response.output_item.done", { ...at, item });
}
