/** Azure OpenAI's URL shapes and credentials, as the `openai` client's AzureOpenAI builds them. */
import { GymError } from "../../../errors.ts";
import type { JsonObject } from "../../../protocol/responses.ts";

export interface AzureRoutes {
  /** Where chat completions go: the deployment route with `?api-version=…`, or the v1 route. */
  chatUrl: string;
  /** The v1 Responses route (only for an endpoint that ends in `/openai/v1`). */
  responsesUrl?: string;
  headers: Record<string, string>;
}

/**
 * `openai_base_url` is the Azure endpoint (`https://<resource>.openai.azure.com`, or a gateway path in front of
 * it). Chat completions go to `<endpoint>/openai/deployments/<openai_model>/chat/completions?<default_query>`
 * (no `/deployments/<name>` is added when the endpoint already routes through a `deployments` segment). An
 * endpoint that ends in `/openai/v1` is Azure's v1 API: `/chat/completions` and `/responses` under it, the model
 * in the body and no api-version. The key goes in `api-key`; a token in `AZURE_OPENAI_AD_TOKEN` wins and goes
 * as `Authorization: Bearer …`, as the openai client does.
 */
export function azureRoutes(endpoint: string, deployment: string, defaultQuery: JsonObject | null | undefined, apiKey: string | undefined, env: Record<string, string | undefined>): AzureRoutes {
  const trimmed = endpoint.replace(/\/+$/, "");
  if (!URL.canParse(trimmed)) {
    throw new GymError("E_CONFIG", `azure_openai_model: openai_base_url must be the Azure endpoint URL (https://<resource>.openai.azure.com), got ${JSON.stringify(endpoint)}.`, {
      hint: "Pass --model-url https://<resource>.openai.azure.com (or set policy_base_url in env.yaml).",
    });
  }
  const token = env.AZURE_OPENAI_AD_TOKEN;
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : apiKey ? { "api-key": apiKey } : {};
  if (/\/openai\/v1$/.test(new URL(trimmed).pathname)) {
    return { chatUrl: `${trimmed}/chat/completions`, responsesUrl: `${trimmed}/responses`, headers };
  }
  const base = `${trimmed}/openai`;
  const routed = new URL(base).pathname.split("/").includes("deployments");
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(defaultQuery ?? {})) if (value != null) query.set(key, String(value));
  const search = query.size ? `?${query}` : "";
  return { chatUrl: `${base}${routed ? "" : `/deployments/${encodeURIComponent(deployment)}`}/chat/completions${search}`, headers };
}

/** Azure's content-management refusal (`400 {"error": {"code": "content_filter", …}}`): its filter results, else undefined. */
export function contentFilterRefusal(status: number | undefined, body: string): JsonObject | undefined {
  if (status !== 400 || !body.includes("content_filter")) return undefined;
  try {
    const error = (JSON.parse(body) as { error?: JsonObject }).error;
    const inner = error?.innererror as JsonObject | undefined;
    if (error?.code !== "content_filter" && inner?.code !== "ResponsibleAIPolicyViolation") return undefined;
    return { message: error?.message ?? null, content_filter_result: inner?.content_filter_result ?? null };
  } catch {
    return undefined;
  }
}

/** The chat completion standing for a refused prompt: no content, `finish_reason: "content_filter"` (a Responses object's `incomplete_details.reason`). */
export function refusedCompletion(model: string, refusal: JsonObject): JsonObject {
  return {
    id: "chatcmpl-content-filter",
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, finish_reason: "content_filter", message: { role: "assistant", content: null, tool_calls: null }, content_filter_results: refusal.content_filter_result }],
    prompt_filter_results: [{ prompt_index: 0, content_filter_results: refusal.content_filter_result }],
  };
}
