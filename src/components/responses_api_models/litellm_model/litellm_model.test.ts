import { describe, expect, test } from "bun:test";
import { mcqaOnBinary } from "../../../testing/mcqa-e2e.ts";
import { readinessRoute, serveStandIn, type StandInRoute } from "../../../testing/model-stand-in.ts";
import { modelConformanceSuite } from "../conformance.case.ts";
import litellmModel from "./index.ts";
import { normalizeLiteLLMResponse } from "./normalize.ts";
import { parseLiteLLMVersion, versionProblem } from "./version.ts";

const context = { name: "policy_model", serverType: "responses_api_models", implementation: "litellm_model", servers: { get: () => { throw new Error("no peers"); } }, globalConfig: {} } as const;

/** A LiteLLM proxy's routes: OpenAI's under /v1 (bearer key), and its version at /health/readiness/details (bearer and x-litellm-key). */
const proxyRoutes = (key: string, version = "1.83.4-stable"): StandInRoute[] => [
  { path: "/v1/responses", headers: { authorization: `Bearer ${key}` }, answer: "/v1/responses" },
  { path: "/v1/chat/completions", headers: { authorization: `Bearer ${key}` }, answer: "/v1/chat/completions" },
  { method: "GET", path: "/health/readiness/details", headers: { authorization: `Bearer ${key}`, "x-litellm-key": key }, answer: { json: { status: "connected", db: "connected", litellm_version: version } } },
];

modelConformanceSuite("litellm_model", async () => {
  const standIn = await serveStandIn(proxyRoutes("sk-proxy"));
  const app = await litellmModel({ name: "policy_model", openai_base_url: `${standIn.url}/v1`, openai_api_key: "sk-proxy", openai_model: "claude-sonnet", upstream: { baseDelayMs: 1, maxDelayMs: 5 } }, context);
  return { app, model: "claude-sonnet", seen: async () => standIn.seen.filter((c) => c.method === "POST"), failNext: async (s, b) => standIn.failNext(s, b), close: () => standIn.stop() };
});

describe("litellm_model: the proxy's version is checked before serving", () => {
  test("versions: safe, compromised, too old, unparseable, missing", () => {
    expect(parseLiteLLMVersion("v1.83.0-stable.patch.2")).toEqual([1, 83, 0]);
    expect(versionProblem("1.83.0")).toBeUndefined();
    expect(versionProblem("1.90.1.post3")).toBeUndefined();
    expect(versionProblem("2.0.0")).toBeUndefined();
    expect(versionProblem("1.82.8")).toContain("compromised version (1.82.8)");
    expect(versionProblem("1.82.6")).toContain("below the minimum safe version 1.83.0");
    expect(versionProblem("1.83.0-rc1")).toContain("unsupported version ('1.83.0-rc1')");
    expect(versionProblem("")).toContain("did not report litellm_version");
  });

  test("an unsafe or unreachable proxy refuses the server with a GymError naming the URL", async () => {
    const old = await serveStandIn(proxyRoutes("k", "1.82.7"));
    const error = await Promise.resolve(litellmModel({ openai_base_url: `${old.url}/v1/`, openai_api_key: "Bearer k", openai_model: "m" }, context)).catch((e) => e);
    expect(error).toMatchObject({ code: "E_SERVER" });
    expect(error.message).toBe(`The LiteLLM proxy at ${old.url}/health/readiness/details is running a compromised version (1.82.7): 1.82.7 and 1.82.8 contain credential-harvesting malware (LiteLLM supply chain incident, March 2026).`);
    await old.stop();
    const gone = await Promise.resolve(litellmModel({ openai_base_url: `${old.url}/v1`, openai_api_key: "k", openai_model: "m" }, context)).catch((e) => e);
    expect(gone.message).toContain(`Could not verify the LiteLLM proxy version at ${old.url}/health/readiness/details`);
  });
});

describe("litellm_model: the proxy's quirks are normalized", () => {
  test("reasoning.effort 'none' becomes null; a Responses answer is otherwise untouched", () => {
    const response = { id: "r", object: "response", output: [], reasoning: { effort: "none", summary: null } };
    expect(normalizeLiteLLMResponse(structuredClone(response))).toEqual({ ...response, reasoning: { effort: null, summary: null } });
  });

  test("a chat.completion answer (the proxy downgraded the call) is rebuilt as a Responses object", () => {
    const normalized = normalizeLiteLLMResponse({
      id: "chatcmpl-1", object: "chat.completion", created: 1700000000, model: "claude",
      choices: [{ index: 0, finish_reason: "tool_calls", message: { role: "assistant", content: "Let me check.", tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }] } }],
      usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18, prompt_tokens_details: { cached_tokens: 4 }, reasoning_output_tokens: 2 },
    });
    expect(normalized).toMatchObject({
      id: "chatcmpl-1", created_at: 1700000000, model: "claude", object: "response", parallel_tool_calls: false, tool_choice: "auto", tools: [],
      usage: { input_tokens: 11, output_tokens: 7, total_tokens: 18, input_tokens_details: { cached_tokens: 4 }, output_tokens_details: { reasoning_tokens: 2 } },
    });
    const output = normalized.output as any[];
    expect(output.map((i) => i.type)).toEqual(["message", "function_call"]);
    expect(output[0].content[0]).toEqual({ annotations: [], text: "Let me check.", type: "output_text" });
    expect(output[1]).toEqual({ arguments: '{"city":"Paris"}', call_id: "call_1", name: "get_weather", type: "function_call", id: "call_1", status: "completed" });
  });

  test("a chat.completion without a usable message gets one empty output message and zero usage", () => {
    const normalized = normalizeLiteLLMResponse({ object: "chat.completion", choices: [{ message: null }] }) as any;
    expect(normalized.output).toHaveLength(1);
    expect(normalized.output[0]).toMatchObject({ type: "message", role: "assistant", content: [{ text: "", type: "output_text" }] });
    expect(normalized.usage).toMatchObject({ input_tokens: 0, output_tokens: 0, total_tokens: 0, input_tokens_details: { cached_tokens: null } });
  });
});

describe("gym eval run on the binary through litellm_model", () => {
  test("mcqa end to end against a stand-in proxy that checks routes and both key headers", async () => {
    const standIn = await serveStandIn([...proxyRoutes("sk-e2e"), readinessRoute()]);
    try {
      const r = await mcqaOnBinary(["--model-type", "litellm_model", "--model", "anthropic/claude", "--model-url", `${standIn.url}/v1`, "--model-api-key", "sk-e2e"]);
      expect(r.stderr).toContain("Coverage: 8 of 8 rollouts scored");
      expect(r.code).toBe(0);
      expect(r.rollouts.every((row: any) => row.response.model === "anthropic/claude" && typeof row.reward === "number")).toBe(true);
      expect(standIn.seen.filter((c) => c.path === "/v1/responses")).toHaveLength(8);
      expect(standIn.seen.filter((c) => c.path === "/health/readiness/details").length).toBeGreaterThanOrEqual(1);
      expect(standIn.seen.filter((c) => c.refused)).toEqual([]);
    } finally {
      await standIn.stop();
    }
  }, 120_000);

  test("a compromised proxy refuses the run before any rollout is dispatched", async () => {
    const standIn = await serveStandIn([...proxyRoutes("sk-e2e", "1.82.8"), readinessRoute()]);
    try {
      const r = await mcqaOnBinary(["--model-type", "litellm_model", "--model", "m", "--model-url", `${standIn.url}/v1`, "--model-api-key", "sk-e2e"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("is running a compromised version (1.82.8)");
      expect(r.stderr).toContain("Upgrade the proxy to LiteLLM >= 1.83.0");
      expect(standIn.seen.filter((c) => c.path === "/v1/responses")).toEqual([]);
    } finally {
      await standIn.stop();
    }
  }, 120_000);
});
