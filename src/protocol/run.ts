/** Bodies of an agent's `/run` and a resources server's `/verify` (protocol.md §2.3–2.4, §4): checks and key order. */
import * as v from "valibot";
import { fastApiIssues, type FastApiErrorBody } from "./fastapi-errors.ts";
import { checkResponseCreateParams, ResponseSchema, type JsonObject, type ResponseCreateParams } from "./responses.ts";
import { dumpResponse, dumpResponseCreateParams } from "./responses-dump.ts";
import { quickCreateParams, quickResponse } from "./responses-quick.ts";

/** A `/run` request: a dataset row with `responses_create_params` plus any extra keys (kept in order). */
export interface RunRequest extends JsonObject {
  responses_create_params: ResponseCreateParams;
}

/** A `/verify` response: at least the echoed params, the response and a numeric reward. */
export interface VerifyResponse extends JsonObject {
  responses_create_params: JsonObject;
  response: JsonObject;
  reward: number;
}

/** Checks a `/run` body: an object whose `responses_create_params` is strictly valid (422 body otherwise). */
export function checkRunRequest(body: unknown): { ok: true; value: RunRequest } | { ok: false; error: FastApiErrorBody } {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return { ok: false, error: { detail: [{ type: "model_attributes_type", loc: ["body"], msg: "Input should be a valid dictionary or object to extract fields from", input: body }] } };
  }
  const row = body as JsonObject;
  if (!("responses_create_params" in row)) {
    return { ok: false, error: { detail: [{ type: "missing", loc: ["body", "responses_create_params"], msg: "Field required", input: body }] } };
  }
  const checked = checkResponseCreateParams(row.responses_create_params, ["body", "responses_create_params"]);
  if (!checked.ok) return checked;
  return { ok: true, value: row as RunRequest };
}

const VerifyResponseSchema = v.looseObject({
  responses_create_params: v.looseObject({}),
  response: ResponseSchema,
  reward: v.number(),
});

/** Why a verify response would be rejected by a Python agent (empty when it is acceptable). */
export function verifyResponseProblems(value: unknown): string[] {
  if (quickVerifyResponse(value)) return [];
  const result = v.safeParse(VerifyResponseSchema, value);
  const problems = result.success ? [] : fastApiIssues(result.issues, value, []).map((e) => `${e.loc.join(".")}: ${e.msg}`);
  if (result.success) {
    const params = checkResponseCreateParams((value as JsonObject).responses_create_params, ["responses_create_params"]);
    if (!params.ok) problems.push(...params.error.detail.map((e) => `${e.loc.join(".")}: ${e.msg}`));
  }
  return problems;
}

/** True only when `verifyResponseProblems` finds nothing (see responses-quick.ts). */
function quickVerifyResponse(value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const row = value as JsonObject;
  const params = row.responses_create_params;
  return typeof row.reward === "number" && !Number.isNaN(row.reward) && quickResponse(row.response) && quickCreateParams(params);
}

/**
 * The verify request a simple_agent sends: `responses_create_params` (full dump), `response` (full dump),
 * then every other key of the run row in its order (§4 step 4).
 */
export function buildVerifyRequest(row: JsonObject, response: JsonObject): JsonObject {
  const out: JsonObject = {
    responses_create_params: dumpResponseCreateParams(row.responses_create_params as JsonObject),
    response: dumpResponse(response),
  };
  for (const key in row) if (!(key in out)) out[key] = row[key];
  return out;
}

/** The run row as `model_dump()` writes it: `responses_create_params` fully dumped, other keys unchanged. */
export function dumpRunRow(row: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const key in row) {
    const value = row[key];
    out[key] = key === "responses_create_params" ? dumpResponseCreateParams(value as JsonObject) : value;
  }
  return out;
}

/**
 * `/run`'s answer, re-validated and re-serialised as the Python agent does (§2.4): `responses_create_params`,
 * `response` and `reward` (as a float) first, then every other key of the verify response in its order.
 */
export function orderRunResult(verify: JsonObject): JsonObject {
  const out: JsonObject = {
    responses_create_params: dumpResponseCreateParams(verify.responses_create_params as JsonObject),
    response: dumpResponse(verify.response as JsonObject),
    reward: Number(verify.reward),
  };
  for (const key in verify) if (!(key in out)) out[key] = verify[key];
  return out;
}

/** The rollout id a Python agent puts in `/ng-rollout/<id>/…` paths (§2.1). */
export function rolloutIdOf(row: JsonObject): string | undefined {
  const attempt = typeof row._ng_attempt_index === "number" && row._ng_attempt_index > 0 ? `-a${row._ng_attempt_index}` : "";
  if (typeof row._ng_rollout_id === "string" && row._ng_rollout_id) return `${row._ng_rollout_id}${attempt}`;
  if (row._ng_task_index === undefined || row._ng_rollout_index === undefined) return undefined;
  return `${row._ng_task_index}-${row._ng_rollout_index}${attempt}`;
}
