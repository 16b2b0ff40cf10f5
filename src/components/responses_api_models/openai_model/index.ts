/** openai_model: forwards /v1/responses and /v1/chat/completions to any OpenAI-compatible endpoint (key, headers, extra_body). */
import { Semaphore } from "../../../jsonl/concurrency.ts";
import { checkResponseCreateParams, responseProblems, type JsonObject } from "../../../protocol/responses.ts";
import { createGymApp, readJson, validationFailure } from "../../../servers/gym-app.ts";
import type { ServerFactory } from "../../../servers/registry.ts";
import { jsonRoute, routeJson } from "../../../servers/routes.ts";
import { sessionCookieName } from "../../../servers/session.ts";
import { isRemoteEndpoint, modelCallSettings } from "../../../servers/calls/settings.ts";
import { postUpstream, type UpstreamOptions } from "../../../servers/upstream.ts";

export interface OpenAIModelConfig {
  name?: string;
  openai_base_url: string;
  openai_api_key?: string;
  openai_model: string;
  /** Merged under every request body (the request wins). */
  extra_body?: JsonObject | null;
  openai_default_headers?: Record<string, string> | null;
  /** Cap on in-flight upstream requests (null = unlimited). */
  max_concurrent_requests?: number | null;
  /** Strip `reasoning` items from the input (for endpoints that reject their own replayed reasoning). */
  drop_input_reasoning_items?: boolean | string;
  /** Upstream retry/timeout settings (gym extension). */
  upstream?: UpstreamOptions;
}

const factory: ServerFactory = (block, context) => {
  const config = block as unknown as OpenAIModelConfig;
  const base = String(config.openai_base_url ?? "").replace(/\/+$/, "");
  const limit = config.max_concurrent_requests ? new Semaphore(config.max_concurrent_requests) : undefined;
  const upstream: UpstreamOptions = {
    // A remote provider's limits are learnt (adaptive concurrency on by default, off for loopback); the block's own settings win.
    ...modelCallSettings(context?.globalConfig ?? {}, config.max_concurrent_requests, isRemoteEndpoint(base)),
    ...config.upstream,
    apiKey: config.openai_api_key,
    headers: { ...(config.openai_default_headers ?? {}) },
  };
  const dropReasoning = config.drop_input_reasoning_items === true || config.drop_input_reasoning_items === "true";
  const app = createGymApp({ cookieName: sessionCookieName("SimpleModelServer", String(config.name ?? "openai_model")), rolloutPrefix: "model", modelApi: true });

  const forward = async (path: string, body: JsonObject): Promise<JsonObject> => {
    await limit?.acquire();
    try {
      return await postUpstream<JsonObject>(`${base}${path}`, body, upstream);
    } finally {
      limit?.release();
    }
  };

  // Reads what it is handed and sends a new object upstream.
  jsonRoute(app, "/v1/responses", async (call) => {
    const request = await routeJson<JsonObject>(call);
    const checked = checkResponseCreateParams(request);
    if (!checked.ok) throw validationFailure(checked.error);
    const body: JsonObject = { ...(config.extra_body ?? {}), ...request, model: config.openai_model };
    if (dropReasoning && Array.isArray(body.input)) body.input = body.input.filter((item) => (item as JsonObject)?.type !== "reasoning");
    const response = await forward("/responses", body);
    const problems = responseProblems(response);
    if (problems.length) throw new Error(`Upstream answered an invalid Responses object: ${problems.slice(0, 3).join("; ")}`);
    return { json: response };
  });

  app.post("/v1/chat/completions", async (c) => {
    const request = await readJson<JsonObject>(c);
    const body: JsonObject = { ...(config.extra_body ?? {}), ...request, model: config.openai_model };
    const completion = await forward("/chat/completions", body);
    if (!Array.isArray(completion.choices)) throw new Error("Upstream answered a chat completion without choices");
    return c.json(completion);
  });

  return app;
};

export default factory;
