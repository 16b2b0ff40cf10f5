/** Bodies of a resources server's `/seed_session`, `/verify`, `/aggregate_metrics` and `/reverify_mode` (protocol.md §2.3, §5.5). */
import * as v from "valibot";
import { fastApiIssues, type FastApiErrorBody, type FastApiErrorEntry } from "./fastapi-errors.ts";
import { ResponseCreateParamsSchema, ResponseSchema, type JsonObject } from "./responses.ts";
import { quickCreateParams, quickResponse } from "./responses-quick.ts";

export type { FastApiErrorBody, FastApiErrorEntry } from "./fastapi-errors.ts";

/** `/seed_session` request: the full run row; the base server ignores every key (open record). */
export const SeedSessionRequestSchema = v.looseObject({});
export type SeedSessionRequest = JsonObject;

/** `/seed_session` response: `{}` unless a server adds fields. */
export type SeedSessionResponse = JsonObject;

/**
 * `/verify` request: the run row plus `response`. Only `responses_create_params` (strict, §3.1) and `response`
 * (§3.4) are checked here; servers declare their own fields. Unknown keys pass through in order.
 */
export const VerifyRequestSchema = v.looseObject({
  responses_create_params: ResponseCreateParamsSchema,
  response: ResponseSchema,
});
export interface VerifyRequest extends JsonObject {
  responses_create_params: JsonObject;
  response: JsonObject;
}

/** `/verify` response: the echoed request fields, a float `reward`, and the server's extra outputs. */
export const VerifyResponseSchema = v.looseObject({
  responses_create_params: v.looseObject({}),
  response: v.looseObject({}),
  reward: v.number(),
});
export interface VerifyResponse extends JsonObject {
  responses_create_params: JsonObject;
  response: JsonObject;
  reward: number;
  /** Multi-objective servers: every component by name (reward stays the scalar aggregate). */
  reward_components?: Record<string, number>;
  /** Set when a judge call failed: the row is scored 0 and routed to `<stem>_failures.jsonl`. */
  _ng_failure_class?: string;
  _ng_failure_judge_error?: string;
}

/** The failure class a resources server reports when its LLM judge could not be reached. */
export const JUDGE_FAILED = "judge_failed";

/** `/aggregate_metrics` request: stored rollout rows minus `response`/`responses_create_params` (+ usage). */
export const AggregateMetricsRequestSchema = v.looseObject({
  verify_responses: v.array(v.looseObject({})),
});
export interface AggregateMetricsRequest {
  verify_responses: JsonObject[];
}

/** `/aggregate_metrics` response (key order as NeMo Gym writes it). */
export const AggregateMetricsResponseSchema = v.looseObject({
  group_level_metrics: v.array(v.looseObject({})),
  agent_metrics: v.looseObject({}),
  key_metrics: v.looseObject({}),
});
export interface AggregateMetricsResponse {
  group_level_metrics: JsonObject[];
  agent_metrics: JsonObject;
  key_metrics: JsonObject;
}

/** `GET /reverify_mode` answers one of these as a bare JSON string. */
export const ReverifyModeSchema = v.picklist(["stateless", "unsupported", "unknown"]);
export type ReverifyMode = v.InferOutput<typeof ReverifyModeSchema>;

/** FastAPI's 422 body for an invalid request: `{"detail":[{type, loc, msg, input, ctx?}]}`. */
export const FastApiErrorBodySchema = v.object({
  detail: v.array(
    v.looseObject({
      type: v.string(),
      loc: v.array(v.union([v.string(), v.number()])),
      msg: v.string(),
      input: v.unknown(),
      ctx: v.optional(v.record(v.string(), v.unknown())),
    }),
  ),
});

/** Checks the Responses part of a verify (or Gymnasium step) body; FastAPI-shaped entries, empty when valid. */
export function verifyEnvelopeIssues(body: JsonObject, needsResponse = true): FastApiErrorEntry[] {
  const entries: FastApiErrorEntry[] = [];
  const parts: [string, v.GenericSchema, (value: unknown) => boolean][] = [["responses_create_params", ResponseCreateParamsSchema, quickCreateParams]];
  if (needsResponse) parts.push(["response", ResponseSchema, quickResponse]);
  for (const [key, schema, quick] of parts) {
    if (!(key in body)) {
      entries.push({ type: "missing", loc: ["body", key], msg: "Field required", input: body });
      continue;
    }
    const value = body[key];
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      entries.push({
        type: "model_attributes_type",
        loc: ["body", key],
        msg: "Input should be a valid dictionary or object to extract fields from",
        input: value,
      });
      continue;
    }
    if (quick(value)) continue;
    const result = v.safeParse(schema, value);
    if (!result.success) entries.push(...fastApiIssues(result.issues, value, ["body", key]));
  }
  return entries;
}

/** A body that is not a JSON object at all (FastAPI's answer for a model-typed body). */
export function notAnObjectError(body: unknown): FastApiErrorBody {
  return {
    detail: [
      {
        type: "model_attributes_type",
        loc: ["body"],
        msg: "Input should be a valid dictionary or object to extract fields from",
        input: body,
      },
    ],
  };
}
