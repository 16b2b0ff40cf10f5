/**
 * The rollout gateway: the only model endpoint a coding-agent CLI is pointed at. It serves `/v1/responses`,
 * `/v1/chat/completions` and `/v1/messages` (streaming or not; `?beta=true` and other queries ignored) and
 * `GET /v1/models`, accepts a call only with a live per-rollout token (`Authorization: Bearer <token>` or
 * `x-api-key: <token>`; anything else is 401 in the API's own error shape), and sends it to the model server
 * as an ordinary non-streaming call under `/ng-rollout/<rollout id>` (NeMo Gym's correlation prefix). Nothing
 * the CLI sends but the body reaches the model server: its headers and credential stay here. Each completed call
 * is captured into the token's entry (and handed to `onCall`).
 *
 * Serve it on loopback with `serve(gateway.fetch)` (src/runtime/serve.ts); base URLs for the CLIs:
 * OpenAI clients `<url>/v1`, Anthropic clients `<url>`.
 */
import { anthropicErrorBody } from "../../protocol/anthropic/errors.ts";
import type { JsonObject } from "../../protocol/responses-types.ts";
import { tokensOf } from "../../protocol/usage.ts";
import type { ServerClient } from "../client.ts";
import { answerModelApi, MODEL_API_PATHS, type ModelApiPath } from "./answer.ts";
import type { RolloutEntry, RolloutModelCall, RolloutTokens } from "./rollout-tokens.ts";

export interface RolloutGatewayOptions {
  /** The model server the rollouts use (in-process or HTTP). */
  model: ServerClient;
  tokens: RolloutTokens;
  /** Hears every captured call as it completes (for turn limits, progress). */
  onCall?: (call: RolloutModelCall) => void;
}

const PATHS = new Set<string>(MODEL_API_PATHS);

/** A fetch handler for the gateway. */
export function rolloutGateway(options: RolloutGatewayOptions): { fetch(request: Request): Promise<Response> } {
  return {
    async fetch(request: Request): Promise<Response> {
      const path = new URL(request.url).pathname.replace(/\/+$/, "");
      const entry = options.tokens.entry(presentedToken(request));
      if (!entry) return unauthorized(path);
      if (request.method === "GET" && path === "/v1/models") {
        const reply = await options.model.get(`/ng-rollout/${entry.rolloutId}/v1/models`, { cookies: entry.cookies });
        return new Response(reply.text, { status: reply.status, headers: { "content-type": reply.headers.get("content-type") ?? "application/json" } });
      }
      if (request.method !== "POST" || !PATHS.has(path)) return json(404, { error: { message: `gym's model gateway has no ${request.method} ${path}`, type: "invalid_request_error", param: null, code: "unknown_url" } });
      return answerModelApi(path as ModelApiPath, await request.text(), (innerPath, body) => innerCall(options.model, entry, innerPath, body), (exchange) => {
        const call: RolloutModelCall = { ...exchange, rolloutId: entry.rolloutId, callIndex: entry.calls.length, usage: tokensOf((exchange.answer as JsonObject | undefined)?.usage) };
        entry.calls.push(call);
        options.onCall?.(call);
      });
    },
  };
}

async function innerCall(model: ServerClient, entry: RolloutEntry, path: string, body: JsonObject): Promise<{ status: number; text: string }> {
  const reply = await model.post(`/ng-rollout/${entry.rolloutId}${path}`, body, { cookies: entry.cookies });
  entry.cookies = { ...entry.cookies, ...reply.cookies };
  return { status: reply.status, text: reply.text };
}

function presentedToken(request: Request): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  return bearer?.[1] ?? request.headers.get("x-api-key") ?? undefined;
}

function unauthorized(path: string): Response {
  // The presented value is never echoed: it may be a real credential that leaked into the sandbox.
  if (path === "/v1/messages") return json(401, anthropicErrorBody(401, "invalid x-api-key: this endpoint accepts only the per-rollout token gym issued"));
  return json(401, { error: { message: "Incorrect API key provided: this endpoint accepts only the per-rollout token gym issued.", type: "invalid_request_error", param: null, code: "invalid_api_key" } });
}

function json(status: number, value: unknown): Response {
  return new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
}
