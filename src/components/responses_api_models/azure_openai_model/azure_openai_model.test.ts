import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { gym } from "../../../testing/binary.ts";
import { mcqaOnBinary } from "../../../testing/mcqa-e2e.ts";
import { readinessRoute, serveStandIn, type StandIn, type StandInRoute } from "../../../testing/model-stand-in.ts";
import { modelConformanceSuite } from "../conformance.case.ts";
import azureModel from "./index.ts";
import { azureRoutes } from "./routes.ts";

const context = { name: "policy_model", serverType: "responses_api_models", implementation: "azure_openai_model", servers: { get: () => { throw new Error("no peers"); } }, globalConfig: {} } as const;
const API_VERSION = "2024-10-21";

/** Azure's deployment route: the deployment in the path, api-version in the query, the key in `api-key` (never a bearer). */
const deploymentRoute = (prefix: string, deployment: string, key: string): StandInRoute => ({
  path: `${prefix}/openai/deployments/${deployment}/chat/completions`,
  query: { "api-version": API_VERSION },
  headers: { "api-key": key },
  absent: ["authorization"],
  answer: "/v1/chat/completions",
});

modelConformanceSuite("azure_openai_model", async () => {
  const standIn = await serveStandIn([deploymentRoute("", "gpt-4o-dep", "az-key")]);
  const app = await azureModel(
    { name: "policy_model", openai_base_url: standIn.url, openai_api_key: "az-key", openai_model: "gpt-4o-dep", default_query: { "api-version": API_VERSION }, num_concurrent_requests: 8, upstream: { baseDelayMs: 1, maxDelayMs: 5 } },
    context,
  );
  return { app, model: "gpt-4o-dep", seen: async () => standIn.seen, failNext: async (s, b) => standIn.failNext(s, b), close: () => standIn.stop() };
});

describe("azure_openai_model: routes, credentials, content filter", () => {
  test("URL shapes: resource endpoint, a gateway path in front of it, an endpoint already routed to a deployment, the v1 API", () => {
    const q = { "api-version": API_VERSION };
    expect(azureRoutes("https://r.openai.azure.com/", "gpt 4o", q, "k", {}).chatUrl).toBe(`https://r.openai.azure.com/openai/deployments/gpt%204o/chat/completions?api-version=${API_VERSION}`);
    expect(azureRoutes("https://gw.example.com/v1/azure", "d", q, "k", {}).chatUrl).toBe(`https://gw.example.com/v1/azure/openai/deployments/d/chat/completions?api-version=${API_VERSION}`);
    expect(azureRoutes("https://gw.example.com/deployments/d", "d", q, "k", {}).chatUrl).toBe(`https://gw.example.com/deployments/d/openai/chat/completions?api-version=${API_VERSION}`);
    const v1 = azureRoutes("https://r.openai.azure.com/openai/v1/", "d", q, "k", {});
    expect(v1).toEqual({ chatUrl: "https://r.openai.azure.com/openai/v1/chat/completions", responsesUrl: "https://r.openai.azure.com/openai/v1/responses", headers: { "api-key": "k" } });
  });

  test("an endpoint that is not a URL is a config error naming the key and the fix", () => {
    expect(() => azureRoutes("my-resource", "d", {}, "k", {})).toThrow('azure_openai_model: openai_base_url must be the Azure endpoint URL (https://<resource>.openai.azure.com), got "my-resource".');
  });

  test("a token in AZURE_OPENAI_AD_TOKEN goes as a bearer, instead of the key", () => {
    expect(azureRoutes("https://r.openai.azure.com", "d", {}, "k", { AZURE_OPENAI_AD_TOKEN: "eyJ0" }).headers).toEqual({ authorization: "Bearer eyJ0" });
  });

  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await serveStandIn([
      deploymentRoute("/gw", "dep", "k"),
      { path: "/gw/openai/deployments/dep/chat/completions", query: { "api-version": API_VERSION }, headers: { authorization: "Bearer ad-token" }, absent: ["api-key"], answer: "/v1/chat/completions" },
      { path: "/openai/v1/responses", headers: { "api-key": "k" }, absent: ["authorization"], answer: "/v1/responses" },
    ]);
  });
  afterAll(() => standIn.stop());

  const post = (app: { request: (p: string, i: RequestInit) => Response | Promise<Response> }, body: unknown) => Promise.resolve(app.request("/v1/responses", { method: "POST", body: JSON.stringify(body) })).then(async (r) => [r.status, await r.json()] as [number, any]);

  test("the bearer route is taken when the token is set, end to end", async () => {
    process.env.AZURE_OPENAI_AD_TOKEN = "ad-token";
    try {
      const app = await azureModel({ openai_base_url: `${standIn.url}/gw`, openai_api_key: "k", openai_model: "dep", default_query: { "api-version": API_VERSION } }, context);
      const [status] = await post(app, { input: "hi" });
      expect(status).toBe(200);
      expect(standIn.seen.at(-1)!.headers.authorization).toBe("Bearer ad-token");
    } finally {
      delete process.env.AZURE_OPENAI_AD_TOKEN;
    }
  });

  test("an endpoint ending in /openai/v1 uses Azure's v1 Responses route natively, with no api-version", async () => {
    const app = await azureModel({ openai_base_url: `${standIn.url}/openai/v1`, openai_api_key: "k", openai_model: "gpt-5-mini", default_query: { "api-version": API_VERSION } }, context);
    const [status, response] = await post(app, { input: [{ role: "user", content: "Which is prime?\nA: 4\nB: 7" }] });
    expect(status).toBe(200);
    expect(response).toMatchObject({ object: "response", model: "gpt-5-mini" });
    expect(standIn.seen.at(-1)).toMatchObject({ path: "/openai/v1/responses", query: {} });
    expect(standIn.seen.at(-1)!.refused).toBeUndefined();
  });

  test("Azure's content filter refusing the prompt is an incomplete response (reason content_filter), not a crash", async () => {
    const app = await azureModel({ openai_base_url: `${standIn.url}/gw`, openai_api_key: "k", openai_model: "dep", default_query: { "api-version": API_VERSION } }, context);
    const refusal = {
      error: {
        message: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.",
        type: null, param: "prompt", code: "content_filter", status: 400,
        innererror: { code: "ResponsibleAIPolicyViolation", content_filter_result: { hate: { filtered: true, severity: "high" }, violence: { filtered: false, severity: "safe" } } },
      },
    };
    standIn.failNext(400, refusal);
    const [status, response] = await post(app, { input: "something filtered" });
    expect(status).toBe(200);
    expect(response).toMatchObject({ object: "response", model: "dep", status: "incomplete", incomplete_details: { reason: "content_filter" } });
    standIn.failNext(400, refusal);
    const chat = await app.request("/v1/chat/completions", { method: "POST", body: JSON.stringify({ messages: [{ role: "user", content: "x" }] }) });
    const completion = (await chat.json()) as any;
    expect(completion.choices[0]).toMatchObject({ finish_reason: "content_filter", content_filter_results: { hate: { filtered: true, severity: "high" } } });
  });

  test("another 400 stays an error (the inner-server 500)", async () => {
    const app = await azureModel({ openai_base_url: `${standIn.url}/gw`, openai_api_key: "k", openai_model: "dep", default_query: { "api-version": API_VERSION } }, context);
    standIn.failNext(400, { error: { code: "OperationNotSupported", message: "The chatCompletion operation does not work with the specified model" } });
    const [status, body] = await post(app, { input: "x" });
    expect(status).toBe(500);
    expect(body).toContain("OperationNotSupported");
  });
});

describe("gym eval run on the binary through azure_openai_model", () => {
  test("mcqa end to end against a stand-in that checks the deployment route, api-version and api-key", async () => {
    const standIn = await serveStandIn([deploymentRoute("", "gpt-4o-mini", "az-e2e"), readinessRoute("/")]);
    try {
      const r = await mcqaOnBinary([
        "--model-type", "azure_openai_model", "--model", "gpt-4o-mini", "--model-url", standIn.url, "--model-api-key", "az-e2e",
        `+policy_model.responses_api_models.azure_openai_model.default_query.api-version=${API_VERSION}`,
      ]);
      expect(r.stderr).toContain("Coverage: 8 of 8 rollouts scored");
      expect(r.code).toBe(0);
      expect(r.rollouts.every((row: any) => row.response.model === "gpt-4o-mini" && typeof row.reward === "number")).toBe(true);
      expect(standIn.seen.filter((c) => c.method === "POST")).toHaveLength(8);
      expect(standIn.seen.filter((c) => c.refused)).toEqual([]);
    } finally {
      await standIn.stop();
    }
  }, 120_000);

  test("without an api-version the run is refused before dispatch, naming the key", async () => {
    const r = await gym(["eval", "run", "--resources-server", "mcqa", "--model-type", "azure_openai_model", "--model", "d", "--model-url", "http://127.0.0.1:9/", "--model-api-key", "k", "--input", "x.jsonl", "-o", "/tmp/never.jsonl"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("api-version");
  }, 60_000);
});
