import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Hono } from "hono";
import OpenAI from "openai";
import { serve, type ServedApp } from "../../../runtime/serve.ts";
import mockModel from "../mock_model/index.ts";
import openaiModel from "./index.ts";

const context = { name: "policy_model", serverType: "responses_api_models", implementation: "openai_model", servers: { get: () => { throw new Error("no peers"); } }, globalConfig: {} } as const;

interface Seen {
  path: string;
  authorization: string | null;
  custom: string | null;
  body: Record<string, unknown>;
}

describe("openai_model forwarding to mock_model over loopback, called with the official openai client", () => {
  const seen: Seen[] = [];
  let failNext: { status: number; times: number; body?: string } | undefined;
  let upstream: ServedApp;
  let server: ServedApp;
  let client: OpenAI;

  beforeAll(async () => {
    const mock = await mockModel({ name: "upstream", model: "mock" }, { ...context, name: "upstream" });
    // A recording proxy in front of the mock, which can also fail on demand.
    const proxy = new Hono().all("*", async (c) => {
      const text = await c.req.text();
      seen.push({ path: c.req.path, authorization: c.req.header("authorization") ?? null, custom: c.req.header("x-custom") ?? null, body: JSON.parse(text || "{}") });
      if (failNext && failNext.times > 0) {
        failNext.times--;
        return c.body(failNext.body ?? '{"error":"busy"}', failNext.status as 429, { "retry-after": "0", "content-type": "application/json" });
      }
      return mock.fetch(new Request(c.req.url, { method: c.req.method, headers: c.req.raw.headers, body: text || undefined }));
    });
    upstream = await serve(proxy.fetch);
    const app = await openaiModel(
      {
        name: "policy_model",
        openai_base_url: `${upstream.url}/v1`,
        openai_api_key: "sk-test",
        openai_model: "gpt-test",
        openai_default_headers: { "x-custom": "yes" },
        extra_body: { temperature: 0.25, top_p: 0.5 },
        drop_input_reasoning_items: "true",
        upstream: { baseDelayMs: 1, maxDelayMs: 5 },
      },
      context,
    );
    server = await serve(app.fetch);
    client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "ignored-by-gym", maxRetries: 0 });
  });
  afterAll(async () => {
    await server.stop();
    await upstream.stop();
  });

  test("responses.create: forwarded with key, headers, configured model, extra_body under the request", async () => {
    seen.length = 0;
    const response = await client.responses.create({
      model: "caller-model",
      input: [
        { role: "user", content: "What is the capital?\nA: Paris\nB: Rome" },
        { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "old" }] } as any,
      ],
      temperature: 0.9,
    });
    expect(response.object).toBe("response");
    expect(response.model).toBe("gpt-test");
    expect(response.output_text).toMatch(/\\boxed\{[AB]\}/);
    expect(seen).toHaveLength(1);
    const call = seen[0]!;
    expect(call.path).toBe("/v1/responses");
    expect(call.authorization).toBe("Bearer sk-test");
    expect(call.custom).toBe("yes");
    expect(call.body.model).toBe("gpt-test");
    expect(call.body.temperature).toBe(0.9);
    expect(call.body.top_p).toBe(0.5);
    expect((call.body.input as any[]).map((i) => i.type ?? "message")).toEqual(["message"]);
  });

  test("chat.completions.create: forwarded the same way", async () => {
    seen.length = 0;
    const completion = await client.chat.completions.create({
      model: "caller-model",
      messages: [{ role: "user", content: "what's the weather in sf?" }],
      tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } } }],
    });
    expect(completion.model).toBe("gpt-test");
    expect(completion.choices[0]!.message.tool_calls![0]).toMatchObject({ type: "function", function: { name: "get_weather", arguments: '{"city":"San Francisco"}' } });
    expect(seen[0]!.path).toBe("/v1/chat/completions");
    expect(seen[0]!.body.temperature).toBe(0.25);
  });

  test("429 and 503 are retried (Retry-After honoured) until the upstream answers", async () => {
    seen.length = 0;
    failNext = { status: 429, times: 2 };
    const response = await client.responses.create({ model: "m", input: "hello" });
    expect(response.status).toBe("completed");
    expect(seen).toHaveLength(3);
    failNext = { status: 503, times: 1 };
    await client.responses.create({ model: "m", input: "hello again" });
    expect(seen).toHaveLength(5);
  });

  test("a 400 is not retried and surfaces as Gym's inner-server 500", async () => {
    seen.length = 0;
    failNext = { status: 400, times: 1, body: '{"error":"bad request"}' };
    const error = await client.responses.create({ model: "m", input: "x" }).catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error.status).toBe(500);
    expect(seen).toHaveLength(1);
    failNext = { status: 400, times: 1, body: '{"error":"bad request"}' };
    const raw = await fetch(`${server.url}/v1/responses`, { method: "POST", body: JSON.stringify({ input: "x" }) });
    expect(await raw.json()).toBe(`Hit an exception in SimpleModelServer___policy_model calling an inner server: b'{"error":"bad request"}'`);
  });

  test("a strictly invalid body is FastAPI's 422", async () => {
    const raw = await fetch(`${server.url}/v1/responses`, { method: "POST", body: JSON.stringify({ input: "x", nope: 1 }) });
    expect(raw.status).toBe(422);
    expect((await raw.json()).detail[0]).toMatchObject({ type: "extra_forbidden", loc: ["body", "nope"] });
  });
});
