/** inference_provider: any hosted OpenAI-compatible `/chat/completions` (Together, Fireworks, OpenRouter, NVIDIA's API …); Responses are converted to chat and back. */
import { Semaphore } from "../../../jsonl/concurrency.ts";
import { checkResponseCreateParams, type JsonObject } from "../../../protocol/responses.ts";
import { createGymApp, readJson, validationFailure } from "../../../servers/gym-app.ts";
import type { ServerFactory } from "../../../servers/registry.ts";
import { sessionCookieName } from "../../../servers/session.ts";
import { isRemoteEndpoint, modelCallSettings } from "../../../servers/calls/settings.ts";
import { postUpstream, type UpstreamOptions } from "../../../servers/upstream.ts";
import { chatCompletionToResponse, extractThinking, wrapThinking } from "../vllm_model/from-chat.ts";
import { responsesToChatParams } from "../vllm_model/to-chat.ts";

export interface InferenceProviderConfig {
  name?: string;
  base_url: string;
  api_key: string;
  model: string;
  /** Parse `<think>` tags and `reasoning_content`/`reasoning` fields (default false). */
  uses_reasoning_parser?: boolean;
  /** Cap on in-flight provider requests (default 1000). */
  num_concurrent_requests?: number;
  /** Merged under every chat body (the request wins). */
  extra_body?: JsonObject | null;
  /** Upstream retry/timeout settings (gym extension). */
  upstream?: UpstreamOptions;
}

const factory: ServerFactory = (block, context) => {
  const config = block as unknown as InferenceProviderConfig;
  const base = String(config.base_url ?? "").replace(/\/+$/, "");
  const usesReasoningParser = config.uses_reasoning_parser === true;
  const limit = new Semaphore(config.num_concurrent_requests ?? 1000);
  const upstream: UpstreamOptions = { ...modelCallSettings(context?.globalConfig ?? {}, config.num_concurrent_requests ?? 1000, isRemoteEndpoint(base)), ...config.upstream, apiKey: config.api_key };
  const app = createGymApp({ cookieName: sessionCookieName("InferenceProvider", String(config.name ?? "inference_provider")), rolloutPrefix: "model", modelApi: true });

  const chatCompletions = async (request: JsonObject): Promise<JsonObject> => {
    let body: JsonObject = { ...request, model: config.model };
    if (config.extra_body && Object.keys(config.extra_body).length) body = { ...config.extra_body, ...body };
    if (usesReasoningParser) {
      // Earlier turns' think spans are the provider's own output: it is not shown them again.
      for (const message of (body.messages as JsonObject[] | undefined) ?? []) {
        if (message.role === "assistant" && typeof message.content === "string") message.content = extractThinking(message.content).rest;
      }
    }
    await limit.acquire();
    let completion: JsonObject;
    try {
      completion = await postUpstream<JsonObject>(`${base}/chat/completions`, body, upstream);
    } finally {
      limit.release();
    }
    if (!Array.isArray(completion.choices) || !completion.choices.length) throw new Error("The provider answered a chat completion without choices");
    if (usesReasoningParser) {
      const message = ((completion.choices as JsonObject[])[0]!.message ?? {}) as JsonObject;
      const reasoning = message.reasoning_content || message.reasoning;
      if (reasoning) {
        delete message.reasoning_content;
        delete message.reasoning;
        message.content = wrapThinking([String(reasoning)]) + ((message.content as string | null) ?? "");
      }
    }
    return completion;
  };

  app.post("/v1/chat/completions", async (c) => c.json(await chatCompletions(structuredClone(await readJson<JsonObject>(c)))));

  app.post("/v1/responses", async (c) => {
    const request = await readJson<JsonObject>(c);
    const checked = checkResponseCreateParams(request);
    if (!checked.ok) throw validationFailure(checked.error);
    const completion = await chatCompletions(responsesToChatParams(request));
    const response = chatCompletionToResponse({ ...request, model: config.model }, completion, { usesReasoningParser });
    // NeMo Gym stamps the time of the answer, not the provider's `created`.
    response.created_at = Math.floor(Date.now() / 1000);
    return c.json(response);
  });

  return app;
};

export default factory;
