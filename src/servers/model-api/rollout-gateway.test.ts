/** The rollout gateway: only a live per-rollout token gets through; calls reach the model server under the rollout's prefix and are captured with usage. */
import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import mockModel from "../../components/responses_api_models/mock_model/index.ts";
import { serve, type ServedApp } from "../../runtime/serve.ts";
import { HttpServerClient } from "../http.ts";
import { InProcessServerClient } from "../in-process.ts";
import { captureRecord, rolloutGateway, RolloutTokens, type RolloutModelCall } from "./index.ts";

const context = { name: "policy_model", serverType: "responses_api_models", implementation: "mock_model", servers: { get: () => { throw new Error("no peers"); } }, globalConfig: {} } as never;
const TOOL = { type: "function" as const, name: "get_weather", description: "Weather in a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] }, strict: true };

describe("rollout gateway", () => {
  const tokens = new RolloutTokens();
  const paths: string[] = [];
  const heard: RolloutModelCall[] = [];
  let served: ServedApp;

  beforeAll(async () => {
    const app = await mockModel({ name: "policy_model", model: "mock-policy" }, context);
    // The model server as the gateway reaches it, noting each path it is asked for.
    // A prompt saying FAIL is answered as a failing upstream would make the model server answer.
    const fetchApp = async (request: Request) => {
      paths.push(new URL(request.url).pathname);
      if ((await request.clone().text()).includes("FAIL")) return Response.json({ detail: "upstream down" }, { status: 500 });
      return app.fetch(request);
    };
    const model = new InProcessServerClient("policy_model", { fetch: fetchApp }, { direct: false });
    served = await serve(rolloutGateway({ model, tokens, onCall: (call) => heard.push(call) }).fetch);
  });
  afterAll(() => served.stop());

  test("a streaming Responses call with the rollout's token is served, sent under /ng-rollout/<id>, and captured with usage", async () => {
    const token = tokens.mint("3-1");
    const client = new OpenAI({ apiKey: token, baseURL: `${served.url}/v1`, maxRetries: 0 });
    const final = await client.responses.stream({ model: "x", input: "what's the weather in sf?", tools: [TOOL], prompt_cache_key: "codex-session" } as never).finalResponse();
    expect(final.output.find((item) => item.type === "function_call")).toMatchObject({ name: "get_weather" });
    expect(paths.at(-1)).toBe("/ng-rollout/3-1/v1/responses");
    const calls = tokens.calls(token);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ rolloutId: "3-1", callIndex: 0, dialect: "responses", stream: true, status: 200, innerPath: "/v1/responses" });
    // What the model server got: no stream flag, no bookkeeping fields.
    expect(calls[0]!.innerRequest.stream).toBeUndefined();
    expect(calls[0]!.innerRequest.prompt_cache_key).toBeUndefined();
    expect(calls[0]!.usage!.output_tokens).toBeGreaterThan(0);
    expect(heard.at(-1)).toBe(calls[0]!);
    expect(tokens.revoke(token)).toHaveLength(1);
  });

  test("Anthropic Messages and chat completions are captured in order under one token", async () => {
    const token = tokens.mint("4-0");
    const anthropic = new Anthropic({ apiKey: token, baseURL: served.url, maxRetries: 0 });
    const message = await anthropic.messages.stream({ model: "claude-x", max_tokens: 64, messages: [{ role: "user", content: "hello" }] }).finalMessage();
    expect(message.usage.output_tokens).toBeGreaterThan(0);
    const openai = new OpenAI({ apiKey: token, baseURL: `${served.url}/v1`, maxRetries: 0 });
    await openai.chat.completions.create({ model: "x", messages: [{ role: "user", content: "hello" }] });
    const calls = tokens.revoke(token);
    expect(calls.map((c) => [c.dialect, c.stream, c.callIndex])).toEqual([
      ["messages", true, 0],
      ["chat", false, 1],
    ]);
    expect(calls.every((c) => c.usage && c.usage.input_tokens > 0)).toBe(true);
    expect(paths.slice(-2)).toEqual(["/ng-rollout/4-0/v1/responses", "/ng-rollout/4-0/v1/chat/completions"]);
  });

  test("a captured call is NeMo Gym's capture record: the client's dialect and answer, status, error category", async () => {
    const token = tokens.mint("6-0");
    const anthropic = new Anthropic({ apiKey: token, baseURL: served.url, maxRetries: 0 });
    await anthropic.messages.stream({ model: "claude-x", max_tokens: 64, messages: [{ role: "user", content: "hello" }] }).finalMessage();
    const failed = await anthropic.messages.create({ model: "claude-x", max_tokens: 64, messages: [{ role: "user", content: "FAIL" }] }).catch((e: unknown) => e);
    expect((failed as InstanceType<typeof Anthropic.APIError>).status).toBe(500);
    const [ok, bad] = tokens.revoke(token).map((call) => captureRecord(call, "policy_model"));
    expect(Object.keys(ok!)).toEqual(["model_call_id", "dialect", "model_ref", "started_at", "completed_at", "latency_ms", "latency_ttft_ms", "status_code", "error_category", "request", "response"]);
    expect(ok).toMatchObject({ dialect: "messages", model_ref: { type: "responses_api_models", name: "policy_model" }, status_code: 200, error_category: null, request: { model: "claude-x", stream: true }, response: { type: "message", role: "assistant", model: "claude-x" } });
    expect(String(ok!.model_call_id)).toMatch(/^[0-9a-f]{32}$/);
    expect(bad).toMatchObject({ status_code: 500, error_category: "upstream_error", response: { type: "error", error: { type: "api_error" } } });
  });

  test("a model server that cannot be reached is a 502 in the API's shape", async () => {
    const dead = await serve(() => new Response("x"));
    await dead.stop();
    const gateway = rolloutGateway({ model: new HttpServerClient("policy_model", dead.url, { connectRetries: 0 }), tokens });
    const token = tokens.mint("9-0");
    const reply = await gateway.fetch(new Request("http://gateway/v1/responses", { method: "POST", headers: { authorization: `Bearer ${token}` }, body: JSON.stringify({ input: "hi", stream: true }) }));
    expect(reply.status).toBe(502);
    expect(((await reply.json()) as { error: { type: string } }).error.type).toBe("server_error");
    tokens.revoke(token);
  });

  test("no token, another key, or a revoked token is 401 in each API's error shape, and nothing reaches the model", async () => {
    const revoked = tokens.mint("5-0");
    tokens.revoke(revoked);
    const before = paths.length;
    for (const apiKey of ["sk-real-looking-key", revoked]) {
      const openai = new OpenAI({ apiKey, baseURL: `${served.url}/v1`, maxRetries: 0 });
      const error = await openai.responses.create({ model: "x", input: "hi" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
      expect((error as InstanceType<typeof OpenAI.AuthenticationError>).code).toBe("invalid_api_key");
      expect(JSON.stringify((error as InstanceType<typeof OpenAI.AuthenticationError>).error)).not.toContain(apiKey);
      const anthropic = new Anthropic({ apiKey, baseURL: served.url, maxRetries: 0 });
      const refused = await anthropic.messages.create({ model: "x", max_tokens: 8, messages: [{ role: "user", content: "hi" }] }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(Anthropic.AuthenticationError);
      expect((refused as InstanceType<typeof Anthropic.AuthenticationError>).error).toMatchObject({ type: "error", error: { type: "authentication_error" } });
    }
    const bare = await fetch(`${served.url}/v1/chat/completions`, { method: "POST", body: "{}" });
    expect(bare.status).toBe(401);
    expect(paths.length).toBe(before);
  });

  test("a token is bound to one rollout id, and ids that cannot go into a URL path are refused", () => {
    const a = tokens.mint("7-2");
    const b = tokens.mint("7-2");
    expect(a).not.toBe(b);
    expect(tokens.rolloutOf(a)).toBe("7-2");
    expect(() => tokens.mint("../x")).toThrow(/rollout id/);
    tokens.revoke(a);
    tokens.revoke(b);
  });

  test("GET /v1/models is forwarded; an unknown route is 404; HEAD / answers without a token", async () => {
    expect((await fetch(served.url, { method: "HEAD" })).status).toBe(200);
    const token = tokens.mint("8-0");
    const models = await fetch(`${served.url}/v1/models`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await models.json()) as { data: { id: string }[] }).data[0]!.id).toBe("mock-policy");
    const other = await fetch(`${served.url}/v1/embeddings`, { method: "POST", headers: { "x-api-key": token }, body: "{}" });
    expect(other.status).toBe(404);
    tokens.revoke(token);
  });
});
