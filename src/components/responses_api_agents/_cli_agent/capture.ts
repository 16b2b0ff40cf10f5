/**
 * One model call as the trajectory records it, from the rollout gateway's exchange: whichever API the CLI spoke
 * (OpenAI Responses, Chat Completions or Anthropic Messages, streamed or not), the gateway made one non-streaming
 * inner call (Messages become Responses), so the answer's text, reasoning, tool calls and usage are read from a
 * Responses object or a chat completion; the tool results the CLI sent back are read from its own request
 * (function_call_output items, role "tool" messages, tool_result blocks).
 */
import type { JsonObject, ResponseUsage } from "../../../protocol/responses.ts";
import type { RolloutModelCall } from "../../../servers/model-api/index.ts";

export type ModelApi = RolloutModelCall["dialect"];

export interface ToolCall {
  id: string;
  name: string;
  /** The arguments as the model wrote them (a JSON string, as Responses carries them). */
  arguments: string;
}

export interface CapturedCall {
  api: ModelApi;
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
  /** The error answer when the call failed. */
  error: string | null;
}

const obj = (v: unknown): JsonObject => (v && typeof v === "object" && !Array.isArray(v) ? (v as JsonObject) : {});
const arr = (v: unknown): JsonObject[] => (Array.isArray(v) ? (v as JsonObject[]) : []);
const str = (v: unknown): string => (typeof v === "string" ? v : v == null ? "" : JSON.stringify(v));
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const orNull = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

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
  }
  const u = obj(response.usage);
  if (response.usage) out.usage = usageOf(num(u.input_tokens), num(u.output_tokens), orNull(obj(u.input_tokens_details).cached_tokens), orNull(obj(u.output_tokens_details).reasoning_tokens));
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
    usage: body.usage ? usageOf(num(u.prompt_tokens), num(u.completion_tokens), orNull(obj(u.prompt_tokens_details).cached_tokens), orNull(obj(u.completion_tokens_details).reasoning_tokens)) : null,
  };
}

/** Tool results carried by a request in the CLI's own API (call id → text). */
export function toolResultsOf(api: ModelApi, request: JsonObject): Map<string, string> {
  const results = new Map<string, string>();
  if (api === "responses") for (const item of arr(request.input)) if (item.type === "function_call_output" || item.type === "custom_tool_call_output") results.set(str(item.call_id), textOfContent(item.output));
  if (api === "chat") for (const m of arr(request.messages)) if (m.role === "tool") results.set(str(m.tool_call_id), textOfContent(m.content));
  if (api === "messages") for (const m of arr(request.messages)) for (const b of arr(m.content)) if (b.type === "tool_result") results.set(str(b.tool_use_id), textOfContent(b.content));
  return results;
}

/** The call's record from the gateway's exchange. */
export function captureCall(exchange: RolloutModelCall): CapturedCall {
  const request = obj(exchange.request);
  const base = { api: exchange.dialect, startedAt: new Date(exchange.startedAt * 1000), status: exchange.status, request, toolResults: toolResultsOf(exchange.dialect, request) };
  if (exchange.status < 200 || exchange.status >= 300 || !exchange.answer) {
    return { ...base, model: str(request.model), text: "", reasoning: "", toolCalls: [], usage: null, error: JSON.stringify(exchange.answer ?? null).slice(0, 2000) };
  }
  const answer = obj(exchange.answer);
  const read = exchange.innerPath.endsWith("/chat/completions") ? fromChat(answer) : fromResponse(answer);
  return { ...base, ...read, model: read.model || str(request.model), error: null };
}
