/**
 * One model call as the trajectory records it, from whichever API the CLI spoke: OpenAI Responses, Chat
 * Completions or Anthropic Messages, each streamed (SSE) or not. The answer's text, reasoning, tool calls and
 * usage are read from the final response (Responses' `response.completed`, accumulated chat deltas, Messages'
 * content blocks with `message_start`/`message_delta` usage); the tool results the CLI sent back are read from the
 * next request's input (function_call_output / role "tool" / tool_result blocks).
 */
import type { JsonObject, ResponseUsage } from "../../../protocol/responses.ts";
import { isEventStream, parseSse } from "./sse.ts";

export type ModelApi = "responses" | "chat_completions" | "messages";

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments as the model wrote them (a JSON string, as Responses carries them). */
  arguments: string;
}

export interface CapturedCall {
  api: ModelApi;
  path: string;
  startedAt: Date;
  status: number;
  request: JsonObject;
  model: string;
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  usage: ResponseUsage | null;
  /** Tool results this request carried back (call id → text). */
  toolResults: Map<string, string>;
  /** The error body when the call failed. */
  error: string | null;
}

const obj = (v: unknown): JsonObject => (v && typeof v === "object" && !Array.isArray(v) ? (v as JsonObject) : {});
const arr = (v: unknown): JsonObject[] => (Array.isArray(v) ? (v as JsonObject[]) : []);
const str = (v: unknown): string => (typeof v === "string" ? v : v == null ? "" : JSON.stringify(v));
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

export function apiOfPath(path: string): ModelApi | null {
  if (path.endsWith("/responses")) return "responses";
  if (path.endsWith("/chat/completions")) return "chat_completions";
  if (path.endsWith("/messages")) return "messages";
  return null;
}

function usageOf(input: number, output: number, cached: number | null, reasoning: number | null): ResponseUsage {
  return { input_tokens: input, input_tokens_details: { cached_tokens: cached }, output_tokens: output, output_tokens_details: { reasoning_tokens: reasoning }, total_tokens: input + output } as ResponseUsage;
}

const textOfContent = (content: unknown): string => (typeof content === "string" ? content : arr(content).map((p) => str(p.text ?? p.content ?? "")).join(""));

function fromResponse(response: JsonObject) {
  const out = { model: str(response.model), text: "", reasoning: "", toolCalls: [] as ToolCall[], usage: null as ResponseUsage | null };
  for (const item of arr(response.output)) {
    if (item.type === "message") out.text += arr(item.content).map((p) => str(p.text ?? p.refusal ?? "")).join("");
    else if (item.type === "reasoning") out.reasoning += [...arr(item.summary), ...arr(item.content)].map((p) => str(p.text)).join("\n");
    else if (item.type === "function_call") out.toolCalls.push({ id: str(item.call_id), name: str(item.name), arguments: str(item.arguments) });
    else if (item.type === "custom_tool_call") out.toolCalls.push({ id: str(item.call_id), name: str(item.name), arguments: JSON.stringify({ input: str(item.input) }) });
    else if (item.type === "local_shell_call") out.toolCalls.push({ id: str(item.call_id), name: "local_shell", arguments: JSON.stringify(obj(item.action)) });
  }
  const u = obj(response.usage);
  if (response.usage) out.usage = usageOf(num(u.input_tokens), num(u.output_tokens), (obj(u.input_tokens_details).cached_tokens as number) ?? null, (obj(u.output_tokens_details).reasoning_tokens as number) ?? null);
  return out;
}

function fromChat(body: JsonObject) {
  const message = obj(arr(body.choices)[0]?.message);
  const u = obj(body.usage);
  return {
    model: str(body.model),
    text: str(message.content ?? ""),
    reasoning: str(message.reasoning_content ?? message.reasoning ?? ""),
    toolCalls: arr(message.tool_calls).map((c) => ({ id: str(c.id), name: str(obj(c.function).name), arguments: str(obj(c.function).arguments) })),
    usage: body.usage ? usageOf(num(u.prompt_tokens), num(u.completion_tokens), (obj(u.prompt_tokens_details).cached_tokens as number) ?? null, (obj(u.completion_tokens_details).reasoning_tokens as number) ?? null) : null,
  };
}

/** Chat Completions chunks folded into one chat.completion body. */
function foldChatChunks(events: JsonObject[]): JsonObject {
  let content = "";
  let reasoning = "";
  const calls: { id: string; name: string; args: string }[] = [];
  let model = "";
  let usage: unknown = null;
  for (const chunk of events) {
    model ||= str(chunk.model);
    if (chunk.usage) usage = chunk.usage;
    const delta = obj(arr(chunk.choices)[0]?.delta);
    content += str(delta.content ?? "");
    reasoning += str(delta.reasoning_content ?? delta.reasoning ?? "");
    for (const call of arr(delta.tool_calls)) {
      const i = typeof call.index === "number" ? call.index : calls.length;
      calls[i] ??= { id: "", name: "", args: "" };
      if (call.id) calls[i]!.id = str(call.id);
      const fn = obj(call.function);
      if (fn.name) calls[i]!.name += str(fn.name);
      if (fn.arguments) calls[i]!.args += str(fn.arguments);
    }
  }
  const tool_calls = calls.filter(Boolean).map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.args } }));
  return { model, usage: usage as never, choices: [{ message: { content, reasoning_content: reasoning, tool_calls } }] };
}

function fromMessage(message: JsonObject) {
  const out = { model: str(message.model), text: "", reasoning: "", toolCalls: [] as ToolCall[], usage: null as ResponseUsage | null };
  for (const block of arr(message.content)) {
    if (block.type === "text") out.text += str(block.text);
    else if (block.type === "thinking") out.reasoning += str(block.thinking);
    else if (block.type === "tool_use") out.toolCalls.push({ id: str(block.id), name: str(block.name), arguments: JSON.stringify(block.input ?? {}) });
  }
  const u = obj(message.usage);
  if (message.usage) out.usage = usageOf(num(u.input_tokens) + num(u.cache_read_input_tokens), num(u.output_tokens), num(u.cache_read_input_tokens), null);
  return out;
}

/** Messages stream events folded into one message (content blocks by index, usage from start and delta). */
function foldMessageEvents(events: JsonObject[]): JsonObject {
  let message: JsonObject = {};
  const blocks: JsonObject[] = [];
  const partial: string[] = [];
  for (const e of events) {
    if (e.type === "message_start") message = { ...obj(e.message) };
    else if (e.type === "content_block_start") blocks[num(e.index)] = { ...obj(e.content_block) };
    else if (e.type === "content_block_delta") {
      const i = num(e.index);
      const d = obj(e.delta);
      const block = (blocks[i] ??= { type: "text", text: "" });
      if (d.type === "text_delta") block.text = str(block.text) + str(d.text);
      else if (d.type === "thinking_delta") block.thinking = str(block.thinking) + str(d.thinking);
      else if (d.type === "input_json_delta") partial[i] = (partial[i] ?? "") + str(d.partial_json);
    } else if (e.type === "message_delta") message.usage = { ...obj(message.usage), ...obj(e.usage) };
  }
  blocks.forEach((block, i) => {
    if (block?.type === "tool_use" && partial[i]) {
      try {
        block.input = JSON.parse(partial[i]!);
      } catch {
        block.input = { raw: partial[i]! };
      }
    }
  });
  return { ...message, content: blocks.filter(Boolean) };
}

/** Tool results carried by a request (call id → text). */
export function toolResultsOf(api: ModelApi, request: JsonObject): Map<string, string> {
  const results = new Map<string, string>();
  if (api === "responses") for (const item of arr(request.input)) if (item.type === "function_call_output" || item.type === "custom_tool_call_output") results.set(str(item.call_id), textOfContent(item.output));
  if (api === "chat_completions") for (const m of arr(request.messages)) if (m.role === "tool") results.set(str(m.tool_call_id), textOfContent(m.content));
  if (api === "messages") for (const m of arr(request.messages)) for (const b of arr(m.content)) if (b.type === "tool_result") results.set(str(b.tool_use_id), textOfContent(b.content));
  return results;
}

/** The call's record from its request and its answer's status, content type and body text. */
export function captureCall(api: ModelApi, path: string, startedAt: Date, request: JsonObject, status: number, contentType: string | null, body: string): CapturedCall {
  const base = { api, path, startedAt, status, request, toolResults: toolResultsOf(api, request) };
  const empty = { model: str(request.model), text: "", reasoning: "", toolCalls: [], usage: null };
  if (status < 200 || status >= 300) return { ...base, ...empty, error: body.slice(0, 2000) };
  let parsed: JsonObject;
  if (isEventStream(contentType)) {
    const events = parseSse(body).map((e) => obj(e.data));
    if (api === "responses") parsed = obj([...events].reverse().find((e) => e.type === "response.completed" || e.type === "response.incomplete" || e.type === "response.failed")?.response);
    else if (api === "chat_completions") parsed = foldChatChunks(events);
    else parsed = foldMessageEvents(events);
  } else {
    try {
      parsed = obj(JSON.parse(body));
    } catch {
      return { ...base, ...empty, error: `the answer is not JSON: ${body.slice(0, 300)}` };
    }
  }
  const read = api === "responses" ? fromResponse(parsed) : api === "chat_completions" ? fromChat(parsed) : fromMessage(parsed);
  return { ...base, ...read, model: read.model || empty.model, error: null };
}
