/** vllm_model: serves Responses by converting to Chat Completions for vLLM and back (§3.5–3.8), sticky per session across replicas. */
import { createHash } from "node:crypto";
import type { Context, Hono } from "hono";
import { checkResponseCreateParams, type JsonObject } from "../../../protocol/responses.ts";
import { dumpResponse } from "../../../protocol/responses-dump.ts";
import { isServerCallError } from "../../../servers/client.ts";
import { createGymApp, readJson, validationFailure, type GymEnv } from "../../../servers/gym-app.ts";
import type { ServerFactory } from "../../../servers/registry.ts";
import { sessionCookieName } from "../../../servers/session.ts";
import { modelCallSettings } from "../../../servers/calls/settings.ts";
import { postUpstream, type UpstreamOptions } from "../../../servers/upstream.ts";
import { chatCompletionToResponse, wrapThinking } from "./from-chat.ts";
import { preprocessChatBody, type VllmModelConfig } from "./preprocess.ts";
import { responsesToChatParams, pyError } from "./to-chat.ts";
import { attachTokenInformation } from "./tokens.ts";

/** The replica a session sticks to: first 8 bytes (big-endian) of sha256(session_id) mod the number of replicas. */
export function replicaIndex(sessionId: string, replicas: number): number {
  const digest = createHash("sha256").update(sessionId, "utf8").digest();
  return Number(digest.readBigUInt64BE(0) % BigInt(replicas));
}

/** What a server built on vllm_model changes: its class name (in the session cookie) and an extra step on each chat body. */
export interface VllmModelVariant {
  /** NeMo Gym's server class, named in the session cookie (default `VLLMModel`). */
  className?: string;
  /** Runs on the chat body after vllm_model's own preprocessing, before it goes upstream. */
  preprocessChat?: (body: JsonObject) => JsonObject;
}

/** The vllm_model app for a config block (local_vllm_model and genrm_model build on it once their vLLM is up). */
/** `globalConfig`: the run config, for the model-call settings (retries; adaptive concurrency only with +adaptive_concurrency=true). */
export function buildVllmModel(block: Record<string, unknown>, variant: VllmModelVariant = {}, globalConfig: Record<string, unknown> = {}): Hono<GymEnv> {
  const config = block as unknown as VllmModelConfig & { upstream?: UpstreamOptions };
  const baseUrls = (Array.isArray(config.base_url) ? config.base_url : [config.base_url]).map((u) => String(u).replace(/\/+$/, ""));
  const usesReasoningParser = config.uses_reasoning_parser ?? true;
  // A self-hosted vLLM sends no 429s: adaptive concurrency only when asked for (+adaptive_concurrency=true).
  const upstream: UpstreamOptions = { ...modelCallSettings(globalConfig, undefined, false), ...config.upstream, apiKey: config.api_key, headers: { ...(config.default_headers ?? {}) } };
  const app = createGymApp({ cookieName: sessionCookieName(variant.className ?? "VLLMModel", String(config.name ?? "vllm_model")), rolloutPrefix: "model", modelApi: true });

  const baseFor = (c: Context<GymEnv>) => baseUrls[baseUrls.length === 1 ? 0 : replicaIndex(c.get("session").session_id, baseUrls.length)]!;

  const emptyCompletion = (finishReason: string): JsonObject => ({
    id: "chtcmpl-123",
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: config.model,
    choices: [{ index: 0, finish_reason: finishReason, message: { role: "assistant", content: null, tool_calls: null } }],
  });

  /** The chat completions logic shared by both endpoints. */
  const chatCompletions = async (c: Context<GymEnv>, request: JsonObject): Promise<JsonObject> => {
    const preprocessed = preprocessChatBody(request, config);
    const body = variant.preprocessChat ? variant.preprocessChat(preprocessed) : preprocessed;
    const messages = body.messages as JsonObject[];
    const last = messages.at(-1);
    if (config.sequential_reasoning_allowed === false && last?.role === "assistant" && !(last.content || (last.tool_calls as unknown[] | undefined)?.length)) {
      // The previous turn was reasoning only: stop the agent's loop instead of asking vLLM again.
      return emptyCompletion("content_filter");
    }
    const base = baseFor(c);
    let completion: JsonObject;
    try {
      completion = await postUpstream<JsonObject>(`${base}/chat/completions`, body, upstream);
    } catch (error) {
      if (isServerCallError(error) && error.status === 400 && /context length|max_tokens/.test(error.body)) return emptyCompletion("length");
      throw error;
    }
    const message = ((completion.choices as JsonObject[])[0]!.message ?? {}) as JsonObject;
    const reasoning = message.reasoning_content || message.reasoning;
    if (usesReasoningParser) {
      if (reasoning) {
        delete message.reasoning_content;
        delete message.reasoning;
        message.content = wrapThinking([String(reasoning)]) + ((message.content as string | null) ?? "");
      }
    } else if (reasoning) {
      throw pyError("AssertionError", `NeMo Gym server \`${config.name}\` config has explicitly been set to not use a reasoning parser i.e. \`uses_reasoning_parser: false\`.`);
    }
    if (config.return_token_id_information) await attachTokenInformation(completion, body, base, upstream);
    return completion;
  };

  app.post("/v1/chat/completions", async (c) => c.json(await chatCompletions(c, await readJson<JsonObject>(c))));

  app.post("/v1/responses", async (c) => {
    const request = await readJson<JsonObject>(c);
    const checked = checkResponseCreateParams(request);
    if (!checked.ok) throw validationFailure(checked.error);
    if (config.is_responses_native) {
      let body: JsonObject = { ...request, model: config.model };
      if (config.chat_template_kwargs) body.chat_template_kwargs = structuredClone(config.chat_template_kwargs);
      if (config.extra_body) body = { ...config.extra_body, ...body };
      if (config.sampling_overrides) Object.assign(body, config.sampling_overrides);
      return c.json(dumpResponse(await postUpstream<JsonObject>(`${baseFor(c)}/responses`, body, upstream)));
    }
    const chat = responsesToChatParams(request, { returnTokenIdInformation: config.return_token_id_information });
    const completion = await chatCompletions(c, chat);
    const params = { ...request, model: config.model };
    return c.json(chatCompletionToResponse(params, completion, { usesReasoningParser, returnTokenIdInformation: config.return_token_id_information }));
  });

  return app;
}

const factory: ServerFactory = (block, context) => buildVllmModel(block, {}, context?.globalConfig ?? {});

export default factory;
