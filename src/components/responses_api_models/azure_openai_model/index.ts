/** azure_openai_model: Azure OpenAI deployments (chat completions, converted to Responses as vllm_model does; or Azure's v1 Responses route). */
import { Semaphore } from "../../../jsonl/concurrency.ts";
import { checkResponseCreateParams, responseProblems, type JsonObject } from "../../../protocol/responses.ts";
import { isServerCallError } from "../../../servers/client.ts";
import { createGymApp, readJson, validationFailure } from "../../../servers/gym-app.ts";
import type { ServerFactory } from "../../../servers/registry.ts";
import { sessionCookieName } from "../../../servers/session.ts";
import { isRemoteEndpoint, modelCallSettings } from "../../../servers/calls/settings.ts";
import { postUpstream, type UpstreamOptions } from "../../../servers/upstream.ts";
import { chatCompletionToResponse } from "../vllm_model/from-chat.ts";
import { responsesToChatParams } from "../vllm_model/to-chat.ts";
import { azureRoutes, contentFilterRefusal, refusedCompletion } from "./routes.ts";

export interface AzureOpenAIModelConfig {
  name?: string;
  /** The Azure endpoint (`https://<resource>.openai.azure.com`), or `…/openai/v1` for Azure's v1 API. */
  openai_base_url: string;
  openai_api_key?: string;
  /** The deployment name (also the model named in answers). */
  openai_model: string;
  /** Query parameters of every deployment call; `api-version` is required there. */
  default_query?: JsonObject | null;
  num_concurrent_requests?: number;
  upstream?: UpstreamOptions;
}

const factory: ServerFactory = (block, context) => {
  const config = block as unknown as AzureOpenAIModelConfig;
  const routes = azureRoutes(String(config.openai_base_url ?? ""), String(config.openai_model), config.default_query, config.openai_api_key, process.env);
  const limit = new Semaphore(config.num_concurrent_requests ?? 8);
  const upstream: UpstreamOptions = { ...modelCallSettings(context?.globalConfig ?? {}, config.num_concurrent_requests ?? 8, isRemoteEndpoint(String(config.openai_base_url ?? ""))), ...config.upstream, headers: routes.headers };
  const app = createGymApp({ cookieName: sessionCookieName("AzureOpenAIModelServer", String(config.name ?? "azure_openai_model")), rolloutPrefix: "model", modelApi: true });

  const post = async (url: string, body: JsonObject): Promise<JsonObject> => {
    await limit.acquire();
    try {
      return await postUpstream<JsonObject>(url, body, upstream);
    } finally {
      limit.release();
    }
  };

  /** A chat completion; Azure's content filter refusing the prompt is an answer with `finish_reason: "content_filter"`, not an error. */
  const chatCompletions = async (request: JsonObject): Promise<JsonObject> => {
    try {
      const completion = await post(routes.chatUrl, { ...request, model: config.openai_model });
      if (!Array.isArray(completion.choices) || !completion.choices.length) throw new Error("Azure answered a chat completion without choices");
      return completion;
    } catch (error) {
      const refusal = isServerCallError(error) ? contentFilterRefusal(error.status, error.body) : undefined;
      if (refusal) return refusedCompletion(config.openai_model, refusal);
      throw error;
    }
  };

  app.post("/v1/chat/completions", async (c) => c.json(await chatCompletions(await readJson<JsonObject>(c))));

  app.post("/v1/responses", async (c) => {
    const request = await readJson<JsonObject>(c);
    const checked = checkResponseCreateParams(request);
    if (!checked.ok) throw validationFailure(checked.error);
    if (routes.responsesUrl) {
      let response: JsonObject;
      try {
        response = await post(routes.responsesUrl, { ...request, model: config.openai_model });
      } catch (error) {
        const refusal = isServerCallError(error) ? contentFilterRefusal(error.status, error.body) : undefined;
        if (!refusal) throw error;
        return c.json(chatCompletionToResponse({ ...request, model: config.openai_model }, refusedCompletion(config.openai_model, refusal), { usesReasoningParser: true }));
      }
      const problems = responseProblems(response);
      if (problems.length) throw new Error(`Azure answered an invalid Responses object: ${problems.slice(0, 3).join("; ")}`);
      return c.json(response);
    }
    const completion = await chatCompletions(responsesToChatParams(request));
    const response = chatCompletionToResponse({ ...request, model: config.openai_model }, completion, { usesReasoningParser: true });
    response.created_at = Math.floor(Date.now() / 1000);
    return c.json(response);
  });

  return app;
};

export default factory;
