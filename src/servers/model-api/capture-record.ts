/**
 * A captured rollout call as NeMo Gym's raw model-call capture record (one line of `<rollout_id>.capture.jsonl`,
 * fern/…/model-server/model-call-capture.mdx): model_call_id, dialect, model_ref, started_at, completed_at,
 * latency_ms, latency_ttft_ms, status_code, error_category, request, response. `response` is what the client was
 * answered, as one object (a stream is given as the object it told). `latency_ttft_ms` is null: gym tells a
 * stream only once the whole answer is in.
 */
import type { JsonObject } from "../../protocol/responses-types.ts";
import type { RolloutModelCall } from "./rollout-tokens.ts";

/** NeMo Gym's normalized error category of an HTTP status (null below 400). */
export function errorCategory(status: number): string | null {
  if (status < 400) return null;
  if (status === 408 || status === 504) return "timeout";
  if (status === 429) return "rate_limit";
  if (status === 401 || status === 403) return "auth";
  if (status === 404) return "not_found";
  return status < 500 ? "client_error" : "upstream_error";
}

/** The capture record of one call; `modelServer` names the model server (`model_ref`), when known. */
export function captureRecord(call: RolloutModelCall, modelServer?: string): JsonObject {
  return {
    model_call_id: call.modelCallId,
    dialect: call.dialect,
    model_ref: modelServer ? { type: "responses_api_models", name: modelServer } : null,
    started_at: call.startedAt,
    completed_at: call.startedAt + call.latencyMs / 1000,
    latency_ms: Math.round(call.latencyMs * 100) / 100,
    latency_ttft_ms: null,
    status_code: call.clientStatus,
    error_category: errorCategory(call.clientStatus),
    request: call.request,
    response: call.reply ?? null,
  };
}
