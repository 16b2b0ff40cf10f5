/** Responses create params → Chat Completions create params, exactly as vllm_model converts them (protocol.md §3.6). */
import type { JsonObject } from "../../../protocol/responses.ts";

/** An Error whose `name` is the Python exception class, so the 500 body reads like Python's repr. */
export function pyError(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

const TOKEN_FIELDS = ["prompt_token_ids", "generation_token_ids", "generation_log_probs", "routed_experts"];
const REQUIRED_TOKEN_FIELDS = ["prompt_token_ids", "generation_token_ids", "generation_log_probs"];

/** Chat create-params keys in the SDK model's field order; anything else (Responses-only keys) is dropped. */
const CHAT_KEYS = [
  "messages", "model", "audio", "frequency_penalty", "logit_bias", "logprobs", "max_completion_tokens", "max_tokens",
  "metadata", "modalities", "n", "parallel_tool_calls", "prediction", "presence_penalty", "reasoning_effort",
  "response_format", "seed", "service_tier", "stop", "store", "stream_options", "temperature", "tool_choice", "tools",
  "top_logprobs", "top_p", "user", "web_search_options", "stream",
];

class State {
  messages: JsonObject[] = [];
  content = "";
  toolCalls: JsonObject[] = [];
  buffered = false;
  tokens: JsonObject | undefined;
  constructor(readonly returnTokenIds: boolean) {}

  flush(): void {
    if (!(this.buffered || this.content || this.toolCalls.length)) {
      this.tokens = undefined;
      return;
    }
    const message: JsonObject = { content: this.content || null, role: "assistant" };
    // Omitted rather than `tool_calls: []`: OpenAI rejects empty arrays.
    if (this.toolCalls.length) message.tool_calls = this.toolCalls;
    if (this.returnTokenIds && this.tokens) Object.assign(message, this.tokens);
    this.messages.push(message);
    this.content = "";
    this.toolCalls = [];
    this.buffered = false;
    this.tokens = undefined;
  }
}

export interface ToChatOptions {
  returnTokenIdInformation?: boolean;
}

/** Converts a `/v1/responses` body (only the keys the caller set) into a chat completions body. */
export function responsesToChatParams(params: JsonObject, options: ToChatOptions = {}): JsonObject {
  const rest: JsonObject = structuredClone(params);
  const state = new State(!!options.returnTokenIdInformation);
  const input = rest.input;
  delete rest.input;
  const items: JsonObject[] =
    typeof input === "string" ? [{ content: [{ text: input, type: "input_text" }], role: "user", type: "message" }] : ((input as JsonObject[]) ?? []);

  for (const item of items) {
    if (!item.type && item.role) item.type = "message";
    if (item.type === undefined) throw pyError("KeyError", "type");
    switch (item.type) {
      case "message":
        formatMessage(item, state);
        break;
      case "reasoning":
        state.buffered = true;
        for (const part of (item.summary as JsonObject[]) ?? []) if (part.text) state.content += `<think>${part.text}</think>`;
        break;
      case "function_call":
        state.buffered = true;
        state.toolCalls.push({ id: item.call_id, function: { arguments: item.arguments, name: item.name }, type: "function" });
        break;
      case "function_call_output":
        state.flush();
        state.messages.push({ content: toolOutputContent(item), role: "tool", tool_call_id: item.call_id });
        break;
      default:
        throw pyError(
          "NotImplementedError",
          `'${item.type}' has no Chat Completions representation, so this rollout cannot be downconverted.`,
        );
    }
    if (options.returnTokenIdInformation) {
      const present = TOKEN_FIELDS.filter((k) => k in item);
      if (present.length) {
        const missing = REQUIRED_TOKEN_FIELDS.filter((k) => !(k in item));
        if (missing.length) throw pyError("ValueError", `partial token metadata; missing: ${missing.join(", ")}`);
        state.tokens = Object.fromEntries(present.filter((k) => item[k] != null).map((k) => [k, item[k]]));
      }
    }
  }
  state.flush();

  const instructions = rest.instructions;
  delete rest.instructions;
  if (instructions) {
    const parts = [instructions as string];
    while (state.messages.length && ["system", "developer"].includes(state.messages[0]!.role as string)) {
      parts.push(contentText(state.messages.shift()!.content));
    }
    state.messages.unshift({ content: parts.join("\n\n"), role: "system" });
  }

  const out: JsonObject = { ...rest, messages: state.messages };
  if (rest.max_output_tokens != null) out.max_tokens = rest.max_output_tokens;
  const effort = (rest.reasoning as JsonObject | null | undefined)?.effort;
  if (effort != null) out.reasoning_effort = effort;
  const tools = rest.tools as JsonObject[] | undefined;
  if (tools && tools.length) {
    out.tools = tools.map(toChatTool);
    if (out.tool_choice !== undefined) out.tool_choice = toChatToolChoice(out.tool_choice);
  } else {
    if (rest.tool_choice === "required") throw pyError("ValueError", "tool_choice='required' requires at least one tool");
    delete out.tools;
    delete out.tool_choice;
    delete out.parallel_tool_calls;
  }
  const ordered: JsonObject = {};
  for (const key of CHAT_KEYS) if (out[key] !== undefined) ordered[key] = out[key];
  return ordered;
}

function formatMessage(item: JsonObject, state: State): void {
  let content = item.content as unknown;
  if (Array.isArray(content) && item.role !== "assistant") content = content.map(toChatPart);
  switch (item.role) {
    case "assistant":
      state.buffered = true;
      if (Array.isArray(content)) state.content += content.map((p) => (p as JsonObject)?.text ?? "").join("");
      else if (typeof content === "string") state.content += content;
      else if (content != null) throw pyError("NotImplementedError", `Expected m['content'] to be str or list[dict]`);
      // Chat-shaped turns carry their tool calls inline.
      for (const call of (item.tool_calls as JsonObject[] | undefined) ?? []) {
        const fn = call.function as JsonObject;
        state.toolCalls.push({ id: call.id, function: { arguments: fn.arguments, name: fn.name }, type: "function" });
      }
      return;
    case "tool":
      state.flush();
      state.messages.push({ content, role: "tool", tool_call_id: item.tool_call_id });
      return;
    case "user":
    case "system":
    case "developer":
      state.flush();
      state.messages.push({ content, role: item.role });
      return;
    default:
      throw pyError("NotImplementedError", `Unrecognized role for message: \`${item.role}\``);
  }
}

function toChatPart(part: JsonObject): JsonObject {
  switch (part.type) {
    case "input_text":
      return { type: "text", text: part.text };
    case "input_image": {
      let url = part.image_url ?? "";
      if (url && typeof url === "object") url = (url as JsonObject).url ?? "";
      if (!url) throw pyError("ValueError", "input_image requires a non-empty image_url");
      return { type: "image_url", image_url: { url, detail: "detail" in part ? part.detail : "auto" } };
    }
    case "input_video": {
      const key = "video_url" in part ? "video_url" : "video";
      let url = part[key] ?? "";
      if (url && typeof url === "object") url = (url as JsonObject).url ?? "";
      if (!url) throw pyError("ValueError", `input_video.${key} requires a non-empty URL`);
      return { type: "video_url", video_url: { url } };
    }
    default:
      throw pyError("NotImplementedError", `Unsupported part param type: ${part.type}`);
  }
}

function toolOutputContent(item: JsonObject): unknown {
  const output = item.output;
  if (typeof output === "string") return output;
  const parts = (output as JsonObject[]) ?? [];
  const unsupported = [...new Set(parts.filter((p) => p.type !== "input_text").map((p) => String(p.type ?? "<missing>")))].sort();
  if (unsupported.length) {
    throw pyError(
      "NotImplementedError",
      `Cannot convert Responses function_call_output for call '${item.call_id}' to a Chat Completions tool message: Chat tool messages cannot represent content part type(s) ${unsupported.map((t) => `'${t}'`).join(", ")}`,
    );
  }
  return parts.map((p) => ({ type: "text", text: p.text }));
}

function toChatTool(tool: JsonObject): JsonObject {
  if (typeof tool.name !== "string") throw pyError("ValidationError", `tool of type '${tool.type}' has no name`);
  if (tool.type === "function" && tool.parameters === null) throw pyError("ValidationError", `function tool '${tool.name}' has parameters: null`);
  const fn: JsonObject = { name: tool.name };
  if ("description" in tool) fn.description = tool.description;
  if ("parameters" in tool) fn.parameters = tool.parameters;
  return { type: "function", function: fn };
}

/**
 * `tool_choice` in Chat spelling. HEAD copies the Responses object form unconverted and then fails Chat
 * validation (500 whenever tools are present); we convert `{"type":"function","name":X}` to
 * `{"type":"function","function":{"name":X}}` instead, as protocol.md §8 recommends.
 */
function toChatToolChoice(choice: unknown): unknown {
  if (choice && typeof choice === "object" && (choice as JsonObject).type === "function" && "name" in (choice as JsonObject)) {
    return { type: "function", function: { name: (choice as JsonObject).name } };
  }
  return choice;
}

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  return ((content as JsonObject[]) ?? []).map((p) => (typeof p?.text === "string" ? p.text : "")).join("");
}
