/** TS types of the Responses API subset (hand-written: the wire objects are open records; these name what Gym reads). */

/** A JSON object as it travels on the wire: unknown keys kept, in order. */
export type JsonObject = Record<string, unknown>;

export interface OutputText {
  type: "output_text";
  text: string;
  annotations: unknown[];
  logprobs?: unknown[] | null;
}

export interface OutputMessage {
  id: string;
  type: "message";
  role: "assistant";
  status?: "in_progress" | "completed" | "incomplete";
  content: (OutputText | { type: "refusal"; refusal: string })[];
}

export interface FunctionCall {
  type: "function_call";
  call_id: string;
  name: string;
  /** A JSON-encoded string, never an object. */
  arguments: string;
  id?: string | null;
  status?: "in_progress" | "completed" | "incomplete" | null;
}

export interface FunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  output: string | JsonObject[];
  id?: string | null;
  status?: "in_progress" | "completed" | "incomplete" | null;
}

export interface ReasoningItem {
  id: string;
  type: "reasoning";
  summary: { type: "summary_text"; text: string }[];
  encrypted_content?: string | null;
  content?: unknown[] | null;
}

/** A role-bearing message as a caller writes it; `type` may be absent (§3.2). */
export interface EasyMessage {
  type?: "message";
  role: "user" | "assistant" | "system" | "developer";
  content: string | JsonObject[] | null;
  status?: string;
}

export type OutputItem = OutputMessage | FunctionCall | FunctionCallOutput | ReasoningItem | (JsonObject & { type: string });
export type InputItem = EasyMessage | OutputItem;

export interface FunctionTool {
  type: "function";
  name: string;
  parameters: JsonObject | null;
  strict: boolean | null;
  description?: string | null;
}

export interface ResponseUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number | null };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number | null };
  total_tokens: number;
}

/** `responses_create_params`: the request body of `/v1/responses` (§3.1). */
export interface ResponseCreateParams {
  input: string | InputItem[];
  instructions?: string | null;
  tools?: (FunctionTool | JsonObject)[];
  tool_choice?: string | JsonObject;
  parallel_tool_calls?: boolean;
  temperature?: number | null;
  top_p?: number | null;
  max_output_tokens?: number | null;
  max_tool_calls?: number | null;
  top_logprobs?: number | null;
  reasoning?: { effort?: string | null; summary?: string | null; generate_summary?: string | null } | null;
  metadata?: Record<string, string> | null;
  model?: string | null;
  user?: string | null;
  previous_response_id?: string | null;
  service_tier?: "auto" | "default" | "flex" | "scale" | "priority" | null;
  store?: boolean | null;
  background?: boolean | null;
  include?: string[] | null;
  prompt?: JsonObject | null;
  text?: JsonObject | null;
  truncation?: "auto" | "disabled" | null;
  stream?: false | null;
}

/** A Responses API response object (§3.4); extra top-level keys from upstreams are kept. */
export interface Response extends JsonObject {
  id: string;
  created_at: number;
  model: string;
  object: "response";
  output: OutputItem[];
  parallel_tool_calls: boolean;
  tool_choice: unknown;
  tools: unknown[];
  status?: string | null;
  incomplete_details?: { reason: string } | null;
  usage?: ResponseUsage | null;
}
