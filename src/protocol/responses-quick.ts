/**
 * Quick acceptance checks for the schemas in responses.ts: `true` only for values the valibot schema accepts
 * too, written as plain loops (several times faster). `false` means "not sure": callers then run valibot,
 * which decides and words the issues. So a quick check may refuse more than the schema, never less.
 */

type Obj = Record<string, unknown>;

const isObj = (x: unknown): x is Obj => typeof x === "object" && x !== null && !Array.isArray(x);
const isInt = (x: unknown): boolean => typeof x === "number" && Number.isInteger(x);
const isNum = (x: unknown): boolean => typeof x === "number" && Number.isFinite(x);
const isStrOrNil = (x: unknown): boolean => x == null || typeof x === "string";
const isIntOrNil = (x: unknown): boolean => x == null || isInt(x);
const isNumOrNil = (x: unknown): boolean => x == null || isNum(x);
const isBoolOrNil = (x: unknown): boolean => x == null || typeof x === "boolean";
const oneOf = (x: unknown, values: Set<string>): boolean => typeof x === "string" && values.has(x);
const oneOfOrNil = (x: unknown, values: Set<string>): boolean => x == null || oneOf(x, values);

const ROLES = new Set(["user", "assistant", "system", "developer"]);
const EFFORTS = new Set(["minimal", "low", "medium", "high", "none", "xhigh"]);
const SUMMARIES = new Set(["auto", "concise", "detailed"]);
const TIERS = new Set(["auto", "default", "flex", "scale", "priority"]);
const TRUNCATIONS = new Set(["auto", "disabled"]);
const TOOL_CHOICES = new Set(["none", "auto", "required"]);
/** Built-in (non-function) tool types Gym accepts and passes through (the schema in responses.ts uses this list). */
export const OTHER_TOOL_TYPES = [
  "file_search",
  "web_search",
  "web_search_preview",
  "web_search_preview_2025_03_11",
  "web_search_2025_08_26",
  "computer_use_preview",
  "mcp",
  "code_interpreter",
  "image_generation",
  "local_shell",
  "custom",
] as const;
const OTHER_TOOLS = new Set<string>(OTHER_TOOL_TYPES);
/** Item types Gym accepts and passes through without checking their inner shape. */
export const PASS_THROUGH_ITEM_TYPES = [
  "mcp_call",
  "mcp_list_tools",
  "mcp_approval_request",
  "mcp_approval_response",
  "file_search_call",
  "web_search_call",
  "computer_call",
  "computer_call_output",
  "image_generation_call",
  "code_interpreter_call",
  "local_shell_call",
  "local_shell_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
] as const;
const PASS_THROUGH = new Set<string>(PASS_THROUGH_ITEM_TYPES);
// Keys valibot's record() skips without checking them: leave such values to valibot.
const SKIPPED_RECORD_KEYS = new Set(["__proto__", "prototype", "constructor"]);

/** Every element a `{type: string}` object (content parts of input messages, rich tool outputs). */
function typedParts(list: unknown[]): boolean {
  for (let i = 0; i < list.length; i++) {
    const part = list[i];
    if (!isObj(part) || typeof part.type !== "string") return false;
  }
  return true;
}

function outputContent(list: unknown): boolean {
  if (!Array.isArray(list)) return false;
  for (let i = 0; i < list.length; i++) {
    const part = list[i];
    if (!isObj(part)) return false;
    if (part.type === "output_text") {
      if (typeof part.text !== "string" || !Array.isArray(part.annotations)) return false;
    } else if (part.type === "refusal") {
      if (typeof part.refusal !== "string") return false;
    } else return false;
  }
  return true;
}

/** `OutputItemSchema` (a variant on `type`). */
export function quickOutputItem(item: unknown): boolean {
  if (!isObj(item)) return false;
  switch (item.type) {
    case "message":
      return typeof item.id === "string" && (item.role === undefined || item.role === "assistant") && outputContent(item.content);
    case "function_call":
      return typeof item.call_id === "string" && typeof item.name === "string" && typeof item.arguments === "string";
    case "function_call_output":
      return typeof item.call_id === "string" && (typeof item.output === "string" || (Array.isArray(item.output) && typedParts(item.output)));
    case "reasoning": {
      if (typeof item.id !== "string" || !Array.isArray(item.summary)) return false;
      for (const part of item.summary) if (!isObj(part) || typeof part.text !== "string") return false;
      return true;
    }
    default:
      return oneOf(item.type, PASS_THROUGH);
  }
}

/** `InputItemSchema`: an easy or input message, else an output item. */
function quickInputItem(item: unknown): boolean {
  if (!isObj(item)) return false;
  const type = item.type;
  if (type !== undefined && typeof type !== "string") return false;
  const isMessage = type === undefined || (type === "message" && !("id" in item && item.role === "assistant"));
  if (!isMessage) return quickOutputItem(item);
  const content = item.content;
  return oneOf(item.role, ROLES) && (typeof content === "string" || content === null || (Array.isArray(content) && typedParts(content)));
}

function quickTool(tool: unknown): boolean {
  if (!isObj(tool)) return false;
  if (tool.type === "function") {
    const parameters = tool.parameters;
    if (parameters !== null) {
      if (!isObj(parameters)) return false;
      for (const key in parameters) if (SKIPPED_RECORD_KEYS.has(key)) return false;
    }
    return typeof tool.name === "string" && (tool.strict === null || typeof tool.strict === "boolean") && isStrOrNil(tool.description);
  }
  return oneOf(tool.type, OTHER_TOOLS);
}

/** True only when `ResponseCreateParamsSchema` (strict) accepts `params`. */
export function quickCreateParams(params: unknown): boolean {
  if (!isObj(params)) return false;
  if (PASSED_PARAMS.has(params)) return true;
  if (!createParamsPass(params)) return false;
  PASSED_PARAMS.add(params);
  return true;
}

/**
 * Objects that passed a quick check. In-process one object is checked on several hops (a row's params by /run
 * and the agent's /v1/responses, a dumped params or response by /verify's envelope and the agent's check of its
 * answer, a model's answer by the model server and the agent); what crosses a direct call is never changed
 * afterwards, so each is walked once.
 */
const PASSED_PARAMS = new WeakSet<object>();
const PASSED_RESPONSES = new WeakSet<object>();

function createParamsPass(params: Record<string, unknown>): boolean {
  let hasInput = false;
  for (const key in params) {
    const x = params[key];
    switch (key) {
      case "input":
        hasInput = true;
        if (typeof x === "string") break;
        if (!Array.isArray(x)) return false;
        for (let i = 0; i < x.length; i++) if (!quickInputItem(x[i])) return false;
        break;
      case "instructions":
      case "model":
      case "previous_response_id":
      case "user":
        if (!isStrOrNil(x)) return false;
        break;
      case "max_output_tokens":
      case "max_tool_calls":
      case "top_logprobs":
        if (!isIntOrNil(x)) return false;
        break;
      case "temperature":
      case "top_p":
        if (!isNumOrNil(x)) return false;
        break;
      case "background":
      case "store":
        if (!isBoolOrNil(x)) return false;
        break;
      case "parallel_tool_calls":
        if (x !== undefined && typeof x !== "boolean") return false;
        break;
      case "stream":
        if (x != null && x !== false) return false;
        break;
      case "include":
        if (x == null) break;
        if (!Array.isArray(x)) return false;
        for (let i = 0; i < x.length; i++) if (typeof x[i] !== "string") return false;
        break;
      case "metadata":
        if (x == null) break;
        if (!isObj(x)) return false;
        for (const k in x) if (SKIPPED_RECORD_KEYS.has(k) || typeof x[k] !== "string") return false;
        break;
      case "prompt":
        if (x != null && !(isObj(x) && typeof x.id === "string")) return false;
        break;
      case "reasoning":
        if (x != null && !(isObj(x) && oneOfOrNil(x.effort, EFFORTS) && oneOfOrNil(x.summary, SUMMARIES) && oneOfOrNil(x.generate_summary, SUMMARIES))) return false;
        break;
      case "service_tier":
        if (!oneOfOrNil(x, TIERS)) return false;
        break;
      case "truncation":
        if (!oneOfOrNil(x, TRUNCATIONS)) return false;
        break;
      case "text":
        if (x != null && !isObj(x)) return false;
        break;
      case "tool_choice":
        if (x !== undefined && !oneOf(x, TOOL_CHOICES) && !(isObj(x) && typeof x.type === "string")) return false;
        break;
      case "tools":
        if (x === undefined) break;
        if (!Array.isArray(x)) return false;
        for (let i = 0; i < x.length; i++) if (!quickTool(x[i])) return false;
        break;
      default:
        return false; // an unknown key: strict, so valibot names it
    }
  }
  return hasInput;
}

function quickUsage(usage: Obj): boolean {
  const inDetails = usage.input_tokens_details;
  const outDetails = usage.output_tokens_details;
  return (
    isInt(usage.input_tokens) &&
    isInt(usage.output_tokens) &&
    isInt(usage.total_tokens) &&
    isObj(inDetails) &&
    (inDetails.cached_tokens === null || isInt(inDetails.cached_tokens)) &&
    isObj(outDetails) &&
    (outDetails.reasoning_tokens === null || isInt(outDetails.reasoning_tokens))
  );
}

/** True only when `ResponseSchema` accepts `response`. */
export function quickResponse(response: unknown): boolean {
  if (!isObj(response)) return false;
  if (PASSED_RESPONSES.has(response)) return true;
  if (!responsePasses(response)) return false;
  PASSED_RESPONSES.add(response);
  return true;
}

function responsePasses(response: Record<string, unknown>): boolean {
  const r = response;
  if (typeof r.id !== "string" || !isNum(r.created_at) || typeof r.model !== "string" || r.object !== "response" || typeof r.parallel_tool_calls !== "boolean") return false;
  if (typeof r.tool_choice !== "string" && !isObj(r.tool_choice)) return false;
  if (!Array.isArray(r.tools) || !Array.isArray(r.output)) return false;
  for (let i = 0; i < r.output.length; i++) if (!quickOutputItem(r.output[i])) return false;
  if (r.usage != null && !(isObj(r.usage) && quickUsage(r.usage))) return false;
  const incomplete = r.incomplete_details;
  return incomplete == null || (isObj(incomplete) && isStrOrNil(incomplete.reason));
}
