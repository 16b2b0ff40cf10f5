/**
 * The rollout gateway: the only model endpoint a coding-agent CLI is pointed at. It serves `/v1/responses`,
 * `/v1/chat/completions` and `/v1/messages` (streaming or not; `?beta=true` and other queries ignored), Anthropic's
 * `/v1/messages/count_tokens` (counted by the gateway, no model call, nothing captured) and
 * `GET /v1/models` (`GET`/`HEAD /` answer `{"status": "ok"}` to anyone), accepts a call only with a live
 * per-rollout token (`Authorization: Bearer <token>` or `x-api-key: <token>`; anything else is 401 in the API's
 * own error shape), and sends it to the model server
 * as an ordinary non-streaming call under `/ng-rollout/<rollout id>` (NeMo Gym's correlation prefix). Nothing
 * the CLI sends but the body reaches the model server: its headers and credential stay here. Each completed call
 * is captured into the token's entry (and handed to `onCall`).
 *
 * Serve it on loopback with `serve(gateway.fetch)` (src/runtime/serve.ts). Tried with the real CLIs and mock_model:
 * - Codex 0.171: `codex exec -c model_provider=gym -c 'model_providers.gym={name="gym",base_url="<url>/v1",
 *   env_key="GYM_TOKEN",wire_api="responses"}' -m <model> …` with the token in GYM_TOKEN. It also offers a
 *   `web_search` tool, which vllm_model-style backends refuse (no name): switch it off in Codex's config there.
 * - Claude Code 2.1: `ANTHROPIC_BASE_URL=<url> ANTHROPIC_API_KEY=<token> claude -p --model <model> …` (it calls
 *   `HEAD /`, then `POST /v1/messages?beta=true`; `claude -p` was not seen calling count_tokens).
 * - OpenCode 1.18: a provider `{ "npm": "@ai-sdk/openai-compatible", "options": { "baseURL": "<url>/v1",
 *   "apiKey": "<token>" }, "models": { "<model>": {} } }` (streaming chat completions).
 */
import { anthropicErrorBody } from "../../protocol/anthropic/errors.ts";
import type { JsonObject } from "../../protocol/responses-types.ts";
import { tokensOf } from "../../protocol/usage.ts";
import type { ServerClient } from "../client.ts";
import { answerModelApi, isAnthropicPath, MODEL_API_PATHS, type ModelApiPath } from "./answer.ts";
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
      // Claude Code checks that the base URL answers (`HEAD /`) before its first call: that needs no token.
      if ((request.method === "HEAD" || request.method === "GET") && path === "") return json(200, { status: "ok" });
      const entry = options.tokens.entry(presentedToken(request));
      if (!entry) return unauthorized(path);
      if (request.method === "GET" && path === "/v1/models") {
        const reply = await options.model.get(`/ng-rollout/${entry.rolloutId}/v1/models`, { cookies: entry.cookies });
        return new Response(reply.text, { status: reply.status, headers: { "content-type": reply.headers.get("content-type") ?? "application/json" } });
      }
      if (request.method !== "POST" || !PATHS.has(path)) return json(404, { error: { message: `gym's model gateway has no ${request.method} ${path}`, type: "invalid_request_error", param: null, code: "unknown_url" } });
      const text = await request.text();
      try {
        return await answerModelApi(path as ModelApiPath, text, (innerPath, body) => innerCall(options.model, entry, innerPath, body), (exchange) => {
          const modelCallId = crypto.randomUUID().replaceAll("-", "");
          const call: RolloutModelCall = { ...exchange, rolloutId: entry.rolloutId, modelCallId, callIndex: entry.calls.length, usage: tokensOf((exchange.answer as JsonObject | undefined)?.usage) };
          entry.calls.push(call);
          options.onCall?.(call);
        });
      } catch (error) {
        // The model server could not be reached (or timed out): a 502 the CLI reports, in its API's shape.
        const message = `gym's model gateway could not reach the model server: ${(error as Error).message}`;
        return isAnthropicPath(path) ? json(502, anthropicErrorBody(502, message)) : json(502, { error: { message, type: "server_error", param: null, code: null } });
      }
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
  if (isAnthropicPath(path)) return json(401, anthropicErrorBody(401, "invalid x-api-key: this endpoint accepts only the per-rollout token gym issued"));
  return json(401, { error: { message: "Incorrect API key provided: this endpoint accepts only the per-rollout token gym issued.", type: "invalid_request_error", param: null, code: "invalid_api_key" } });
}

function json(status: number, value: unknown): Response {
  return new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
}
