/** Which dataset rows collate counts: the `responses_create_params` check NeMo Gym applies before measuring a row. */

/** Keys of NeMo Gym's non-streaming create params; any other key makes the row "offending" (extra=forbid). */
const PARAM_KEYS = new Set([
  "background",
  "include",
  "input",
  "instructions",
  "max_output_tokens",
  "max_tool_calls",
  "metadata",
  "model",
  "parallel_tool_calls",
  "previous_response_id",
  "prompt",
  "reasoning",
  "service_tier",
  "store",
  "temperature",
  "text",
  "tool_choice",
  "tools",
  "top_logprobs",
  "top_p",
  "truncation",
  "user",
  "stream",
]);

const MESSAGE_ROLES = new Set(["user", "assistant", "system", "developer"]);
const STRING_OR_NULL = ["instructions", "previous_response_id", "user", "model"];
const INT_OR_NULL = ["max_output_tokens", "max_tool_calls", "top_logprobs"];
const NUMBER_OR_NULL = ["temperature", "top_p"];
const BOOL_OR_NULL = ["background", "store"];

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const isInt = (v: unknown) => typeof v === "number" && Number.isInteger(v);

/**
 * Returns the create params as NeMo Gym measures them (only keys that were given), or undefined when the
 * row would fail NeMo Gym's validation. Offending rows are skipped by collate without a message: that is
 * NeMo Gym's behaviour, reproduced on purpose.
 */
export function measurableParams(row: Json): Json | undefined {
  const params = row.responses_create_params;
  if (!isObject(params)) return undefined;
  for (const key of Object.keys(params)) if (!PARAM_KEYS.has(key)) return undefined;
  if (!validInput(params.input)) return undefined;
  for (const key of STRING_OR_NULL) if (params[key] != null && typeof params[key] !== "string") return undefined;
  for (const key of INT_OR_NULL) if (params[key] != null && !isInt(params[key])) return undefined;
  for (const key of NUMBER_OR_NULL) if (params[key] != null && typeof params[key] !== "number") return undefined;
  for (const key of BOOL_OR_NULL) if (params[key] != null && typeof params[key] !== "boolean") return undefined;
  if ("parallel_tool_calls" in params && typeof params.parallel_tool_calls !== "boolean") return undefined;
  if (params.stream != null && params.stream !== false) return undefined;
  if (params.metadata != null && !isObject(params.metadata)) return undefined;
  if ("tools" in params && !validTools(params.tools)) return undefined;
  return params;
}

function validInput(input: unknown): boolean {
  if (typeof input === "string") return true;
  if (!Array.isArray(input)) return false;
  return input.every(validInputItem);
}

function validInputItem(item: unknown): boolean {
  if (!isObject(item)) return false;
  const type = item.type;
  // An untagged item always validates upstream: its union includes an MCP list-tools model whose fields
  // are all optional and which allows extra keys, so `{role: "tool", tool_call_id, …}` is accepted as is.
  if (type === undefined) return true;
  if (type === "message") {
    if ("role" in item && "content" in item) {
      if (!MESSAGE_ROLES.has(item.role as string)) return false;
      return typeof item.content === "string" || Array.isArray(item.content);
    }
    // An output message replayed as input carries id + content but its role defaults to assistant.
    return type === "message" && typeof item.id === "string" && Array.isArray(item.content);
  }
  if (type === "function_call") return typeof item.arguments === "string" && typeof item.call_id === "string" && typeof item.name === "string";
  if (type === "function_call_output") return typeof item.call_id === "string" && (typeof item.output === "string" || Array.isArray(item.output));
  if (type === "reasoning") return typeof item.id === "string" && Array.isArray(item.summary);
  // Hosted-tool calls and their outputs: accepted as the SDK defines them, checked only for their tag.
  return typeof type === "string";
}

function validTools(tools: unknown): boolean {
  if (!Array.isArray(tools)) return false;
  for (const tool of tools) {
    if (!isObject(tool) || typeof tool.type !== "string") return false;
    if (tool.type === "function") {
      // OpenAI's FunctionToolParam requires all four keys, even when parameters/strict are null.
      if (typeof tool.name !== "string" || !("parameters" in tool) || !("strict" in tool)) return false;
      if (tool.parameters !== null && !isObject(tool.parameters)) return false;
      if (tool.strict !== null && typeof tool.strict !== "boolean") return false;
    }
  }
  return true;
}
