/** litellm_model: a LiteLLM proxy over HTTP (OpenAI-compatible): its version checked first, its /v1/responses answers normalized. */
import { Semaphore } from "../../../jsonl/concurrency.ts";
import { checkResponseCreateParams, responseProblems, type JsonObject } from "../../../protocol/responses.ts";
import { createGymApp, readJson, validationFailure } from "../../../servers/gym-app.ts";
import type { ServerFactory } from "../../../servers/registry.ts";
import { sessionCookieName } from "../../../servers/session.ts";
import { isRemoteEndpoint, modelCallSettings } from "../../../servers/calls/settings.ts";
import { postUpstream, type UpstreamOptions } from "../../../servers/upstream.ts";
import { normalizeLiteLLMResponse } from "./normalize.ts";
import { checkLiteLLMProxy } from "./version.ts";

export interface LiteLLMModelConfig {
  name?: string;
  /** The proxy's OpenAI-compatible base URL (`http://proxy:4000/v1`). */
  openai_base_url: string;
  openai_api_key: string;
  openai_model: string;
  extra_body?: JsonObject | null;
  openai_default_headers?: Record<string, string> | null;
  max_concurrent_requests?: number | null;
  upstream?: UpstreamOptions;
}

const factory: ServerFactory = async (block, context) => {
  const config = block as unknown as LiteLLMModelConfig;
  const base = String(config.openai_base_url ?? "").replace(/\/+$/, "");
  // NeMo Gym checks at startup: an unsafe or unreachable proxy refuses the run before anything is dispatched.
  await checkLiteLLMProxy(base, String(config.openai_api_key ?? ""));
  const limit = config.max_concurrent_requests ? new Semaphore(config.max_concurrent_requests) : undefined;
  const upstream: UpstreamOptions = { ...modelCallSettings(context?.globalConfig ?? {}, config.max_concurrent_requests, isRemoteEndpoint(base)), ...config.upstream, apiKey: config.openai_api_key, headers: { ...(config.openai_default_headers ?? {}) } };
  const app = createGymApp({ cookieName: sessionCookieName("LiteLLMModelServer", String(config.name ?? "litellm_model")), rolloutPrefix: "model", modelApi: true });

  const forward = async (path: string, request: JsonObject): Promise<JsonObject> => {
    const body: JsonObject = { ...(config.extra_body ?? {}), ...request, model: config.openai_model };
    await limit?.acquire();
    try {
      return await postUpstream<JsonObject>(`${base}${path}`, body, upstream);
    } finally {
      limit?.release();
    }
  };

  app.post("/v1/responses", async (c) => {
    const request = await readJson<JsonObject>(c);
    const checked = checkResponseCreateParams(request);
    if (!checked.ok) throw validationFailure(checked.error);
    const response = normalizeLiteLLMResponse(await forward("/responses", request));
    const problems = responseProblems(response);
    if (problems.length) throw new Error(`The LiteLLM proxy answered an invalid Responses object: ${problems.slice(0, 3).join("; ")}`);
    return c.json(response);
  });

  app.post("/v1/chat/completions", async (c) => {
    const completion = await forward("/chat/completions", await readJson<JsonObject>(c));
    if (!Array.isArray(completion.choices)) throw new Error("The LiteLLM proxy answered a chat completion without choices");
    return c.json(completion);
  });

  return app;
};

export default factory;
