import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Hono } from "hono";
import OpenAI from "openai";
import { serve, type ServedApp } from "../../../runtime/serve.ts";
import mockModel from "../mock_model/index.ts";
import vllmModel, { replicaIndex } from "./index.ts";

const context = { name: "policy_model", serverType: "responses_api_models", implementation: "vllm_model", servers: { get: () => { throw new Error("no peers"); } }, globalConfig: {} } as const;

/** A chat-completions upstream: mock_model (with reasoning) behind a recorder that can also answer scripted bodies. */
async function chatUpstream(label: string, seen: { label: string; body: any }[], script?: (body: any) => Response | undefined) {
  const mock = await mockModel({ name: label, model: "served-model", reasoning: true }, context);
  const proxy = new Hono().post("*", async (c) => {
    const body = await c.req.json();
    seen.push({ label, body });
    return script?.(body) ?? mock.fetch(new Request(c.req.url, { method: "POST", body: JSON.stringify(body) }));
  });
  return serve(proxy.fetch);
}

describe("vllm_model in front of a chat-completions mock, called with the official openai client", () => {
  const seen: { label: string; body: any }[] = [];
  let script: ((body: any) => Response | undefined) | undefined;
  const servers: ServedApp[] = [];
  let client: OpenAI;
  let url: string;

  beforeAll(async () => {
    const a = await chatUpstream("a", seen, (b) => script?.(b));
    const b = await chatUpstream("b", seen, (b) => script?.(b));
    servers.push(a, b);
    const app = await vllmModel(
      { name: "policy_model", base_url: [`${a.url}/v1`, `${b.url}/v1`], api_key: "k", model: "served-model", return_token_id_information: false, uses_reasoning_parser: true, upstream: { baseDelayMs: 1 } },
      context,
    );
    const served = await serve(app.fetch);
    servers.push(served);
    url = served.url;
    client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "x", maxRetries: 0 });
  });
  afterAll(async () => void (await Promise.all(servers.map((s) => s.stop()))));

  test("responses.create with a tool: reasoning item + function_call; upstream got a chat body", async () => {
    seen.length = 0;
    const response = await client.responses.create({
      model: "anything",
      input: [{ role: "user", content: "what's the weather in nyc?" }],
      tools: [{ type: "function", name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } }, strict: true }],
      max_output_tokens: 64,
    });
    expect(response.model).toBe("served-model");
    expect(response.output.map((i) => i.type)).toEqual(["reasoning", "function_call"]);
    const call = response.output[1] as any;
    expect(call).toMatchObject({ name: "get_weather", arguments: '{"city":"New York"}', status: "completed" });
    expect(call.id).toBe(call.call_id);
    expect(response.usage?.total_tokens).toBeGreaterThan(0);
    const upstream = seen[0]!.body;
    expect(upstream).toMatchObject({ model: "served-model", max_tokens: 64, tools: [{ type: "function", function: { name: "get_weather" } }] });
    expect(upstream.messages).toEqual([{ content: "what's the weather in nyc?", role: "user" }]);
  });

  test("second turn: replayed reasoning goes back as reasoning_content, the tool output as a tool message", async () => {
    seen.length = 0;
    const first = await client.responses.create({ model: "m", input: "weather in sf?", tools: [{ type: "function", name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } }, strict: true }] });
    const call = first.output.find((i) => i.type === "function_call") as any;
    const second = await client.responses.create({
      model: "m",
      input: [{ role: "user", content: "weather in sf?" }, ...(first.output as any[]), { type: "function_call_output", call_id: call.call_id, output: "cold" }],
      tools: [{ type: "function", name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } }, strict: true }],
    });
    expect(second.output_text).toContain("Here is what I found: cold");
    const messages = seen[1]!.body.messages;
    expect(messages[1]).toMatchObject({ role: "assistant", content: "", reasoning_content: expect.any(String), tool_calls: [{ id: call.call_id }] });
    expect(messages[2]).toEqual({ content: "cold", role: "tool", tool_call_id: call.call_id });
  });

  test("chat.completions.create: reasoning comes back inline as <think> in content", async () => {
    const completion = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hello there" }] });
    expect(completion.choices[0]!.message.content).toMatch(/^<think>The user asked: hello there<\/think>This is a mock answer/);
    expect((completion.choices[0]!.message as any).reasoning_content).toBeUndefined();
  });

  test("a session sticks to one replica: sha256(session_id)[:8] mod replicas", async () => {
    expect([replicaIndex("abc", 2), replicaIndex("abc", 3), replicaIndex("abc", 5)]).toEqual([0, 0, 4]);
    expect(replicaIndex("2b7e1516-28ae-4d2a-a6ab-f7158809cf4f", 5)).toBe(1);
    seen.length = 0;
    let cookie = "";
    for (let turn = 0; turn < 4; turn++) {
      const reply = await fetch(`${url}/v1/responses`, { method: "POST", body: JSON.stringify({ input: `turn ${turn}` }), headers: cookie ? { cookie } : {} });
      cookie = reply.headers.getSetCookie()[0]!.split(";")[0]!;
      expect(cookie.startsWith("VLLMModel___policy_model=")).toBe(true);
    }
    expect(new Set(seen.slice(1).map((s) => s.label)).size).toBe(1);
  });

  test("an upstream 400 about context length becomes an incomplete response; other 400s are 500s", async () => {
    script = () => new Response('{"object":"error","message":"This model\'s maximum context length is 32768 tokens."}', { status: 400 });
    const response = await client.responses.create({ model: "m", input: "long" });
    expect(response.status).toBe("incomplete");
    expect(response.incomplete_details).toEqual({ reason: "max_output_tokens" });
    expect(response.usage).toBeNull();
    script = () => new Response('{"message":"bad"}', { status: 400 });
    const failed = await fetch(`${url}/v1/responses`, { method: "POST", body: JSON.stringify({ input: "x" }) });
    expect([failed.status, await failed.json()]).toEqual([500, `Hit an exception in VLLMModel___policy_model calling an inner server: b'{"message":"bad"}'`]);
    script = undefined;
  });
});

describe("vllm_model options", () => {
  test("sequential_reasoning_allowed: false stops after a reasoning-only turn without calling vLLM", async () => {
    const seen: { label: string; body: any }[] = [];
    const upstream = await chatUpstream("u", seen);
    const app = await vllmModel({ name: "p", base_url: `${upstream.url}/v1`, model: "m", uses_reasoning_parser: true, sequential_reasoning_allowed: false }, context);
    const reply = await app.request("/v1/responses", {
      method: "POST",
      body: JSON.stringify({ input: [{ role: "user", content: "q" }, { type: "reasoning", id: "rs", summary: [{ type: "summary_text", text: "hmm" }] }] }),
    });
    const body = await reply.json();
    expect(body).toMatchObject({ status: "incomplete", incomplete_details: { reason: "content_filter" }, usage: null });
    expect(seen).toHaveLength(0);
    await upstream.stop();
  });

  test("token ids: inline vLLM ids + choice logprobs land on the last output item", async () => {
    const seen: { label: string; body: any }[] = [];
    const upstream = await chatUpstream("u", seen, () =>
      Response.json({
        id: "c",
        object: "chat.completion",
        created: 1,
        model: "m",
        prompt_token_ids: [1, 2, 3],
        choices: [{ index: 0, finish_reason: "stop", token_ids: [7, 8], logprobs: { content: [{ token: "token_id:7", logprob: -0.5 }, { token: "token_id:8", logprob: -0.25 }] }, message: { role: "assistant", content: "hi" } }],
        usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
      }),
    );
    const app = await vllmModel({ name: "p", base_url: `${upstream.url}/v1`, model: "m", uses_reasoning_parser: true, return_token_id_information: true }, context);
    const body = await (await app.request("/v1/responses", { method: "POST", body: JSON.stringify({ input: "q" }) })).json();
    expect(body.output.at(-1)).toMatchObject({ type: "message", prompt_token_ids: [1, 2, 3], generation_token_ids: [7, 8], generation_log_probs: [-0.5, -0.25] });
    expect(seen[0]!.body).toMatchObject({ logprobs: true, top_logprobs: 0, return_tokens_as_token_ids: true });
    await upstream.stop();
  });
});
