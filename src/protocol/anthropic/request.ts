/**
 * An Anthropic Messages request as Responses create params, mapped as NeMo Gym's anthropic_converter maps it
 * (ingress): system → instructions; text/image blocks → one message item; tool_use → function_call; tool_result
 * → function_call_output; thinking → reasoning (signature → encrypted_content); tools → function tools;
 * tool_choice auto/none/any/tool → auto/none/required/{function}; max_tokens → max_output_tokens.
 * Differences, on purpose: a reasoning item's id is derived from its text (NeMo Gym draws a random one, which
 * would defeat the response cache); a function_call carries the tool_use id as `call_id` only (NeMo Gym also sets
 * it as the item `id`, which OpenAI's Responses API refuses: item ids there must begin with `fc`);
 * `disable_parallel_tool_use` maps to `parallel_tool_calls: false` (NeMo Gym ignores it); `redacted_thinking`
 * blocks are dropped (they carry nothing a non-Anthropic backend can read; NeMo Gym refuses them).
 */
import { createHash } from "node:crypto";
import { stringifyPython } from "../../metrics/pyjson.ts";
import type { JsonObject } from "../responses-types.ts";
import { AnthropicError } from "./errors.ts";

const IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

/** The Responses create params for a Messages request body (`stream` is the caller's business, not copied). */
export function messagesToResponsesParams(body: JsonObject): JsonObject {
  if (!Array.isArray(body.messages)) throw new AnthropicError(400, "messages: Field required (a list of {role, content})");
  const params: JsonObject = { input: (body.messages as JsonObject[]).flatMap(messageItems) };
  const instructions = systemText(body.system);
  if (instructions) params.instructions = instructions;
  if (body.model != null) params.model = body.model;
  if (body.max_tokens != null) params.max_output_tokens = body.max_tokens;
  if (body.temperature != null) params.temperature = body.temperature;
  if (body.top_p != null) params.top_p = body.top_p;
  if (Array.isArray(body.tools) && body.tools.length) params.tools = (body.tools as JsonObject[]).map(functionTool);
  const choice = body.tool_choice as JsonObject | undefined | null;
  if (choice) {
    params.tool_choice = toolChoice(choice);
    if (choice.disable_parallel_tool_use === true) params.parallel_tool_calls = false;
  }
  return params;
}

function systemText(system: unknown): string {
  if (system == null) return "";
  if (typeof system === "string") return system;
  if (!Array.isArray(system)) throw new AnthropicError(400, "system: expected a string or a list of text blocks");
  return (system as JsonObject[])
    .filter((block) => block?.type === "text" && block.text)
    .map((block) => String(block.text))
    .join("\n");
}

function messageItems(message: JsonObject, index: number): JsonObject[] {
  const role = message?.role;
  // A `system` message inside `messages` passes through as a system input item, as NeMo Gym passes it.
  if (role !== "user" && role !== "assistant" && role !== "system") throw new AnthropicError(400, `messages.${index}.role: expected "user" or "assistant", got ${JSON.stringify(role)}`);
  const content = message.content;
  if (typeof content === "string") return [{ role, content, type: "message" }];
  if (!Array.isArray(content)) throw new AnthropicError(400, `messages.${index}.content: expected a string or a list of content blocks`);
  const items: JsonObject[] = [];
  let parts: JsonObject[] = [];
  const flush = () => {
    if (!parts.length) return;
    const only = parts.length === 1 && parts[0]!.type === "input_text";
    items.push({ role, content: only ? parts[0]!.text : parts, type: "message" });
    parts = [];
  };
  (content as JsonObject[]).forEach((block, blockIndex) => {
    const where = `messages.${index}.content.${blockIndex}`;
    switch (block?.type) {
      case "text":
        parts.push({ type: "input_text", text: String(block.text ?? "") });
        break;
      case "image":
        parts.push(imagePart(block, where));
        break;
      case "tool_use":
        flush();
        // The arguments text as NeMo Gym writes it (Python's json.dumps: `{"city": "Paris"}`), so the model sees the same prompt.
        items.push({ arguments: stringifyPython(block.input ?? {}, { spaced: true, ensureAscii: true }), call_id: block.id, name: block.name, status: "completed", type: "function_call" });
        break;
      case "tool_result":
        flush();
        items.push({ call_id: block.tool_use_id, output: toolResultText(block.content, where), type: "function_call_output" });
        break;
      case "thinking": {
        flush();
        const text = String(block.thinking ?? "");
        const item: JsonObject = { id: `rs_${createHash("sha256").update(text).digest("hex").slice(0, 32)}`, summary: [{ text, type: "summary_text" }], type: "reasoning" };
        if (block.signature) item.encrypted_content = block.signature;
        items.push(item);
        break;
      }
      case "redacted_thinking":
        break;
      default:
        throw new AnthropicError(400, `${where}.type: content blocks of type ${JSON.stringify(block?.type)} are not supported by gym's Messages conversion`);
    }
  });
  flush();
  return items;
}

function imagePart(block: JsonObject, where: string): JsonObject {
  const source = (block.source ?? {}) as JsonObject;
  if (source.type !== "base64") throw new AnthropicError(400, `${where}.source: only base64 image sources are supported`);
  const mediaType = String(source.media_type ?? "");
  if (!IMAGE_TYPES.has(mediaType)) throw new AnthropicError(400, `${where}.source.media_type: expected one of ${[...IMAGE_TYPES].join(", ")}`);
  return { type: "input_image", image_url: `data:${mediaType};base64,${source.data}`, detail: "auto" };
}

function toolResultText(content: unknown, where: string): string {
  if (content == null) return "";
  if (typeof content === "string") return content;
  return (content as JsonObject[])
    .map((block, i) => {
      if (block?.type !== "text") throw new AnthropicError(400, `${where}.content.${i}: tool_result blocks of type ${JSON.stringify(block?.type)} are not supported (text only)`);
      return String(block.text ?? "");
    })
    .join("\n");
}

function functionTool(tool: JsonObject): JsonObject {
  return {
    type: "function",
    name: tool.name,
    description: tool.description ?? null,
    parameters: tool.input_schema ?? { type: "object", properties: {} },
    strict: false,
  };
}

function toolChoice(choice: JsonObject): unknown {
  switch (choice.type) {
    case "auto":
      return "auto";
    case "none":
      return "none";
    case "any":
      return "required";
    case "tool":
      return { type: "function", name: choice.name };
    default:
      throw new AnthropicError(400, `tool_choice.type: expected auto, any, tool or none, got ${JSON.stringify(choice.type)}`);
  }
}
