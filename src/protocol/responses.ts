/** The Responses API subset NeMo Gym speaks (protocol.md §3): valibot schemas, TS types and the strict request check. */
import * as v from "valibot";
import { fastApiIssues, type FastApiErrorBody } from "./fastapi-errors.ts";

/** A JSON object as it travels on the wire: unknown keys kept, in order. */
export type JsonObject = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Types (hand-written: the wire objects are open records, these name what Gym reads)
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Schemas
// ---------------------------------------------------------------------------------------------

const nullableString = v.nullish(v.string());
const nullableInt = v.nullish(v.pipe(v.number(), v.integer()));
const nullableNumber = v.nullish(v.number());

const OutputTextSchema = v.looseObject({
  type: v.literal("output_text"),
  text: v.string(),
  annotations: v.array(v.unknown()),
});
const RefusalSchema = v.looseObject({ type: v.literal("refusal"), refusal: v.string() });

const OutputMessageSchema = v.looseObject({
  id: v.string(),
  type: v.literal("message"),
  role: v.optional(v.literal("assistant")),
  content: v.array(v.variant("type", [OutputTextSchema, RefusalSchema])),
});
const FunctionCallSchema = v.looseObject({
  type: v.literal("function_call"),
  call_id: v.string(),
  name: v.string(),
  arguments: v.string(),
});
const FunctionCallOutputSchema = v.looseObject({
  type: v.literal("function_call_output"),
  call_id: v.string(),
  output: v.union([v.string(), v.array(v.looseObject({ type: v.string() }))]),
});
const ReasoningSchema = v.looseObject({
  id: v.string(),
  type: v.literal("reasoning"),
  summary: v.array(v.looseObject({ text: v.string() })),
});

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
const PassThroughSchema = v.looseObject({ type: v.picklist(PASS_THROUGH_ITEM_TYPES) });

/** An output item: every one carries `type` (§3.3). */
export const OutputItemSchema = v.variant("type", [
  OutputMessageSchema,
  FunctionCallSchema,
  FunctionCallOutputSchema,
  ReasoningSchema,
  PassThroughSchema,
]);

const InputMessageSchema = v.looseObject({
  type: v.optional(v.literal("message")),
  role: v.picklist(["user", "assistant", "system", "developer"]),
  content: v.union([v.string(), v.array(v.looseObject({ type: v.string() })), v.null()]),
});

/** An input item: a role-bearing message may omit `type`; everything else is tagged (§3.2). */
export const InputItemSchema = v.pipe(
  v.looseObject({ type: v.optional(v.string()) }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const item = dataset.value as JsonObject;
    const isMessage = item.type === undefined || (item.type === "message" && !("id" in item && item.role === "assistant"));
    const schema = isMessage ? InputMessageSchema : OutputItemSchema;
    const result = v.safeParse(schema, item);
    if (!result.success) {
      // Forward the inner issues with their paths and expectations so the 422 names the exact field.
      for (const issue of result.issues) {
        addIssue({ message: issue.message, input: issue.input, expected: issue.expected ?? undefined, received: issue.received, path: issue.path });
      }
    }
  }),
);

const FunctionToolSchema = v.looseObject({
  type: v.literal("function"),
  name: v.string(),
  parameters: v.nullable(v.record(v.string(), v.unknown())),
  strict: v.nullable(v.boolean()),
  description: nullableString,
});
const OtherToolSchema = v.looseObject({
  type: v.picklist([
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
  ]),
});

/** Strict `responses_create_params` (unknown keys forbidden, metadata values strings; §3.1). */
export const ResponseCreateParamsSchema = v.strictObject({
  background: v.nullish(v.boolean()),
  include: v.nullish(v.array(v.string())),
  input: v.union([v.string(), v.array(InputItemSchema)]),
  instructions: nullableString,
  max_output_tokens: nullableInt,
  max_tool_calls: nullableInt,
  metadata: v.nullish(v.record(v.string(), v.string())),
  model: nullableString,
  parallel_tool_calls: v.optional(v.boolean()),
  previous_response_id: nullableString,
  prompt: v.nullish(v.looseObject({ id: v.string() })),
  reasoning: v.nullish(
    v.looseObject({
      effort: v.nullish(v.picklist(["minimal", "low", "medium", "high", "none", "xhigh"])),
      summary: v.nullish(v.picklist(["auto", "concise", "detailed"])),
      generate_summary: v.nullish(v.picklist(["auto", "concise", "detailed"])),
    }),
  ),
  service_tier: v.nullish(v.picklist(["auto", "default", "flex", "scale", "priority"])),
  store: v.nullish(v.boolean()),
  temperature: nullableNumber,
  text: v.nullish(v.looseObject({})),
  tool_choice: v.optional(v.union([v.picklist(["none", "auto", "required"]), v.looseObject({ type: v.string() })])),
  tools: v.optional(v.array(v.variant("type", [FunctionToolSchema, OtherToolSchema]))),
  top_logprobs: nullableInt,
  top_p: nullableNumber,
  truncation: v.nullish(v.picklist(["auto", "disabled"])),
  user: nullableString,
  stream: v.nullish(v.literal(false)),
});

const UsageSchema = v.looseObject({
  input_tokens: v.pipe(v.number(), v.integer()),
  input_tokens_details: v.looseObject({ cached_tokens: v.nullable(v.pipe(v.number(), v.integer())) }),
  output_tokens: v.pipe(v.number(), v.integer()),
  output_tokens_details: v.looseObject({ reasoning_tokens: v.nullable(v.pipe(v.number(), v.integer())) }),
  total_tokens: v.pipe(v.number(), v.integer()),
});

/** A Responses object as a Python agent validates it (§3.4): required keys, typed items, full usage. */
export const ResponseSchema = v.looseObject({
  id: v.string(),
  created_at: v.number(),
  model: v.string(),
  object: v.literal("response"),
  output: v.array(OutputItemSchema),
  parallel_tool_calls: v.boolean(),
  tool_choice: v.union([v.string(), v.looseObject({})]),
  tools: v.array(v.unknown()),
  usage: v.nullish(UsageSchema),
  incomplete_details: v.nullish(v.looseObject({ reason: v.nullish(v.string()) })),
});

/** Checks a `responses_create_params` body; returns FastAPI's 422 body when it is invalid. */
export function checkResponseCreateParams(
  body: unknown,
  loc: (string | number)[] = ["body"],
): { ok: true; value: ResponseCreateParams } | { ok: false; error: FastApiErrorBody } {
  const result = v.safeParse(ResponseCreateParamsSchema, body);
  if (result.success) return { ok: true, value: body as ResponseCreateParams };
  return { ok: false, error: { detail: fastApiIssues(result.issues, body, loc) } };
}

/** Whether a value is a valid Responses object (what an agent demands of a model's answer). */
export function isValidResponse(value: unknown): value is Response {
  return v.safeParse(ResponseSchema, value).success;
}

/** Why a value is not a valid Responses object, as readable lines (empty when it is valid). */
export function responseProblems(value: unknown): string[] {
  const result = v.safeParse(ResponseSchema, value);
  if (result.success) return [];
  return result.issues.map((issue) => `${(issue.path ?? []).map((p) => p.key).join(".") || "(root)"}: ${issue.message}`);
}
