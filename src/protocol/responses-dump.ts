/** Full re-serialisation of Responses objects in NeMo Gym's key order (what pydantic's `model_dump()` writes). */
import type { JsonObject, ResponseUsage } from "./responses.ts";

/** The 23 keys of a fully dumped `responses_create_params`, in order, with HEAD's defaults. */
const CREATE_PARAMS_DEFAULTS: [string, unknown][] = [
  ["background", null],
  ["include", null],
  ["input", null],
  ["instructions", null],
  ["max_output_tokens", null],
  ["max_tool_calls", null],
  ["metadata", null],
  ["model", null],
  ["parallel_tool_calls", true],
  ["previous_response_id", null],
  ["prompt", null],
  ["reasoning", null],
  ["service_tier", null],
  ["store", null],
  ["temperature", null],
  ["text", null],
  ["tool_choice", "auto"],
  ["tools", []],
  ["top_logprobs", null],
  ["top_p", null],
  ["truncation", null],
  ["user", null],
  ["stream", null],
];

/** Declared top-level keys of a Response, in the SDK's field order; any other key follows, in arrival order. */
const RESPONSE_KEYS = [
  "id",
  "created_at",
  "error",
  "incomplete_details",
  "instructions",
  "metadata",
  "model",
  "object",
  "output",
  "parallel_tool_calls",
  "temperature",
  "tool_choice",
  "tools",
  "top_p",
  "background",
  "conversation",
  "max_output_tokens",
  "max_tool_calls",
  "previous_response_id",
  "prompt",
  "prompt_cache_key",
  "reasoning",
  "safety_identifier",
  "service_tier",
  "status",
  "text",
  "top_logprobs",
  "truncation",
  "usage",
  "user",
];

const TOKEN_KEYS = ["prompt_token_ids", "generation_token_ids", "generation_log_probs", "routed_experts"];

/**
 * Objects these dumps made. Both dumps are idempotent (a dump of a dump is equal to it, key order included), so
 * a dump handed back in — an agent's answer re-dumped for /verify, then for /run's result — passes through as
 * it is. A dump is never changed after it is made (callers copy what they change, as in-process readers must).
 */
const DUMPED_PARAMS = new WeakSet<object>();
const DUMPED_RESPONSES = new WeakSet<object>();

/** `responses_create_params` fully dumped: all 23 keys, unset ones at their defaults, items dumped. */
export function dumpResponseCreateParams(params: JsonObject): JsonObject {
  if (DUMPED_PARAMS.has(params)) return params;
  // The defaults in order, then what the params set (an own key keeps its place in the order).
  const out: JsonObject = { ...CREATE_PARAMS_TEMPLATE };
  for (const key in params) if (Object.hasOwn(CREATE_PARAMS_TEMPLATE, key)) out[key] = params[key];
  const input = out.input;
  if (Array.isArray(input)) out.input = input.map((item) => dumpInputItem(item as JsonObject));
  const tools = out.tools;
  if (Array.isArray(tools)) out.tools = tools.map((tool) => dumpTool(tool as JsonObject));
  DUMPED_PARAMS.add(out);
  return out;
}

const CREATE_PARAMS_TEMPLATE: JsonObject = Object.fromEntries(CREATE_PARAMS_DEFAULTS);

/** A Responses object fully dumped: declared keys first (missing ones null), then extras in arrival order. */
export function dumpResponse(response: JsonObject): JsonObject {
  if (DUMPED_RESPONSES.has(response)) return response;
  const out: JsonObject = {};
  for (const key of RESPONSE_KEYS) {
    const value = response[key] ?? null;
    if (key === "output") out.output = ((value as JsonObject[] | null) ?? []).map(dumpOutputItem);
    else if (key === "usage") out.usage = value === null ? null : dumpUsage(value as ResponseUsage);
    else if (key === "tools" && Array.isArray(value)) out.tools = value.map((tool) => dumpTool(tool as JsonObject));
    else out[key] = value;
  }
  for (const key in response) if (!(key in out)) out[key] = response[key];
  DUMPED_RESPONSES.add(out);
  return out;
}

function dumpUsage(usage: ResponseUsage): JsonObject {
  return {
    ...usage,
    input_tokens: usage.input_tokens,
    input_tokens_details: { ...usage.input_tokens_details, cached_tokens: usage.input_tokens_details?.cached_tokens ?? null },
    output_tokens: usage.output_tokens,
    output_tokens_details: { ...usage.output_tokens_details, reasoning_tokens: usage.output_tokens_details?.reasoning_tokens ?? null },
    total_tokens: usage.total_tokens,
  };
}

function dumpTool(tool: JsonObject): JsonObject {
  if (tool.type !== "function") return tool;
  return { name: tool.name, parameters: tool.parameters ?? null, strict: tool.strict ?? null, type: "function", description: tool.description ?? null };
}

/** One output item in Gym's canonical shape (undeclared keys on Gym's own item types are dropped, §3.3). */
export function dumpOutputItem(item: JsonObject): JsonObject {
  switch (item.type) {
    case "message":
      if (item.role !== undefined && item.role !== "assistant") return dumpInputItem(item);
      return withTokens(item, {
        id: item.id,
        content: ((item.content as JsonObject[]) ?? []).map(dumpContentPart),
        role: "assistant",
        status: item.status ?? "completed",
        type: "message",
      });
    case "function_call":
      return withTokens(item, {
        arguments: item.arguments,
        call_id: item.call_id,
        name: item.name,
        type: "function_call",
        id: item.id ?? null,
        status: item.status ?? null,
      });
    case "function_call_output":
      return { call_id: item.call_id, output: item.output, type: "function_call_output", id: item.id ?? null, status: item.status ?? null };
    case "reasoning":
      return withTokens(item, {
        id: item.id,
        summary: ((item.summary as JsonObject[]) ?? []).map((s) => ({ text: s.text, type: s.type ?? "summary_text" })),
        type: "reasoning",
        encrypted_content: item.encrypted_content ?? null,
        content: item.content ?? null,
      });
    default:
      // An easy message appended to a trajectory (gymnasium observations) dumps with its `type` filled in.
      return item.type === undefined && "role" in item ? dumpInputItem(item) : item;
  }
}

/** An input item: easy messages `{content, role, type}`, input messages with status, outputs as above. */
export function dumpInputItem(item: JsonObject): JsonObject {
  const isMessage = item.type === undefined || item.type === "message";
  if (!isMessage) return dumpOutputItem(item);
  if (item.role === "assistant" && "id" in item) return dumpOutputItem({ ...item, type: "message" });
  if ("status" in item && Array.isArray(item.content)) {
    return withTokens(item, { content: item.content, role: item.role, status: item.status, type: "message" });
  }
  return withTokens(item, { content: item.content, role: item.role, type: "message" });
}

function dumpContentPart(part: JsonObject): JsonObject {
  if (part.type === "output_text") return { annotations: part.annotations ?? [], text: part.text, type: "output_text", logprobs: part.logprobs ?? null };
  if (part.type === "refusal") return { refusal: part.refusal, type: "refusal" };
  return part;
}

function withTokens(source: JsonObject, out: JsonObject): JsonObject {
  for (const key of TOKEN_KEYS) if (key in source && !(key === "routed_experts" && source[key] == null)) out[key] = source[key];
  return out;
}

/** Sums two usages the way HEAD does: null skipped, counts added, detail counts null if either side is null. */
export function accumulateUsage(total: ResponseUsage | null | undefined, next: ResponseUsage | null | undefined): ResponseUsage | null {
  if (!next) return total ?? null;
  if (!total) return copyData(next) as ResponseUsage;
  const add = (a: number | null | undefined, b: number | null | undefined) => (a == null || b == null ? null : a + b);
  return {
    input_tokens: total.input_tokens + next.input_tokens,
    input_tokens_details: { cached_tokens: add(total.input_tokens_details?.cached_tokens, next.input_tokens_details?.cached_tokens) },
    output_tokens: total.output_tokens + next.output_tokens,
    output_tokens_details: {
      reasoning_tokens: add(total.output_tokens_details?.reasoning_tokens, next.output_tokens_details?.reasoning_tokens),
    },
    total_tokens: total.total_tokens + next.total_tokens,
  };
}

/** A deep copy of parsed JSON (plain objects, arrays, primitives) without structuredClone's overhead; other objects go through it. */
function copyData(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(copyData);
  if (Object.getPrototypeOf(value) !== Object.prototype) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copyData((value as Record<string, unknown>)[key]);
    if (key === "__proto__") Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  return out;
}

/** A Gym-style item id: `<prefix>_<32 hex>`. */
export function newItemId(prefix: string): string {
  return `${prefix}_${crypto.randomUUID().replaceAll("-", "")}`;
}
