/** The Responses API subset NeMo Gym speaks (protocol.md §3): valibot schemas, TS types and the strict request check. */
import * as v from "valibot";
import { fastApiIssues, type FastApiErrorBody } from "./fastapi-errors.ts";
import { OTHER_TOOL_TYPES, PASS_THROUGH_ITEM_TYPES, quickCreateParams, quickResponse } from "./responses-quick.ts";

export { PASS_THROUGH_ITEM_TYPES };

export type * from "./responses-types.ts";
import type { JsonObject, ResponseCreateParams } from "./responses-types.ts";

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
  type: v.picklist(OTHER_TOOL_TYPES),
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
  if (quickCreateParams(body)) return { ok: true, value: body as ResponseCreateParams };
  const result = v.safeParse(ResponseCreateParamsSchema, body);
  if (result.success) return { ok: true, value: body as ResponseCreateParams };
  return { ok: false, error: { detail: fastApiIssues(result.issues, body, loc) } };
}

/** Whether a value is a valid Responses object (what an agent demands of a model's answer). */
export function isValidResponse(value: unknown): value is Response {
  return quickResponse(value) || v.safeParse(ResponseSchema, value).success;
}

/** Why a value is not a valid Responses object, as readable lines (empty when it is valid). */
export function responseProblems(value: unknown): string[] {
  if (quickResponse(value)) return [];
  const result = v.safeParse(ResponseSchema, value);
  if (result.success) return [];
  return result.issues.map((issue) => `${(issue.path ?? []).map((p) => p.key).join(".") || "(root)"}: ${issue.message}`);
}
