/** `POST /v1/messages/count_tokens` through the real Anthropic SDK: on the rollout gateway and on a model server itself. */
import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import cl100k from "js-tiktoken/ranks/cl100k_base";
import mockModel from "../../components/responses_api_models/mock_model/index.ts";
import { serve, type ServedApp } from "../../runtime/serve.ts";
import { InProcessServerClient } from "../in-process.ts";
import { knownEncoding } from "./count-tokens.ts";
import { rolloutGateway, RolloutTokens } from "./index.ts";

const context = { name: "policy_model", serverType: "responses_api_models", implementation: "mock_model", servers: { get: () => { throw new Error("no peers"); } }, globalConfig: {} } as never;
const WEATHER = { name: "get_weather", description: "Weather in a city", input_schema: { type: "object" as const, properties: { city: { type: "string" } }, required: ["city"] } };
// The request: system, a user turn, a tool call and its result, and one tool.
const REQUEST = {
  system: "You are terse.",
  messages: [
    { role: "user" as const, content: "What's the weather in Paris?" },
    { role: "assistant" as const, content: [{ type: "tool_use" as const, id: "toolu_1", name: "get_weather", input: { city: "Paris" } }] },
    { role: "user" as const, content: [{ type: "tool_result" as const, tool_use_id: "toolu_1", content: "18°C, light rain" }] },
  ],
  tools: [WEATHER],
};
// What the model is sent, text by text, counted by js-tiktoken's own encoder (not gym's merge).
const TEXTS = ["You are terse.", "What's the weather in Paris?", "get_weather", '{"city": "Paris"}', "18°C, light rain", JSON.stringify({ name: WEATHER.name, description: WEATHER.description, input_schema: WEATHER.input_schema })];
const byJsTiktoken = (ranks: typeof o200k) => {
  const encoder = new Tiktoken(ranks);
  return TEXTS.reduce((n, text) => n + encoder.encode(text, [], []).length, 0);
};

describe("count_tokens", () => {
  const tokens = new RolloutTokens();
  const paths: string[] = [];
  let gateway: ServedApp;
  let modelServer: ServedApp;

  beforeAll(async () => {
    const app = await mockModel({ name: "policy_model", model: "mock-policy" }, context);
    const model = new InProcessServerClient("policy_model", { fetch: (request: Request) => (paths.push(new URL(request.url).pathname), app.fetch(request)) }, { direct: false });
    gateway = await serve(rolloutGateway({ model, tokens }).fetch);
    modelServer = await serve(app.fetch);
  });
  afterAll(async () => {
    await gateway.stop();
    await modelServer.stop();
  });

  test("the gateway counts the prompt with the model's tiktoken encoding; no model call, nothing captured", async () => {
    const token = tokens.mint("7-0");
    const client = new Anthropic({ apiKey: token, baseURL: gateway.url, maxRetries: 0 });
    expect(await client.messages.countTokens({ model: "gpt-4o-2024-08-06", ...REQUEST })).toEqual({ input_tokens: byJsTiktoken(o200k) });
    expect(await client.messages.countTokens({ model: "gpt-4-turbo", ...REQUEST })).toEqual({ input_tokens: byJsTiktoken(cl100k) });
    // Claude's tokenizer is not public: the estimate is the o200k_base count of the same text.
    expect(await client.beta.messages.countTokens({ model: "claude-sonnet-4-5", ...REQUEST }) as unknown).toEqual({ input_tokens: byJsTiktoken(o200k) });
    expect(byJsTiktoken(o200k)).not.toBe(byJsTiktoken(cl100k));
    expect(paths).toEqual([]);
    expect(tokens.revoke(token)).toEqual([]);
  });

  test("a model server answers it too; a malformed body is Anthropic's 400, an unknown token its 401", async () => {
    const client = new Anthropic({ apiKey: "unused", baseURL: modelServer.url, maxRetries: 0 });
    expect(await client.messages.countTokens({ model: "claude-x", messages: [{ role: "user", content: "hello" }] })).toEqual({ input_tokens: new Tiktoken(o200k).encode("hello").length });
    const noModel = await client.messages.countTokens({ messages: [{ role: "user", content: "hi" }] } as never).catch((e) => e);
    expect(noModel).toBeInstanceOf(Anthropic.BadRequestError);
    expect(noModel.error).toEqual({ type: "error", error: { type: "invalid_request_error", message: "model: Field required (a model name)" } });
    const badRole = await client.messages.countTokens({ model: "claude-x", messages: [{ role: "tool", content: "hi" }] } as never).catch((e) => e);
    expect(badRole).toBeInstanceOf(Anthropic.BadRequestError);
    const stranger = new Anthropic({ apiKey: "sk-ant-not-ours", baseURL: gateway.url, maxRetries: 0 });
    expect(await stranger.messages.countTokens({ model: "claude-x", messages: [{ role: "user", content: "hi" }] }).catch((e) => e)).toBeInstanceOf(Anthropic.AuthenticationError);
  });

  test("known encodings: OpenAI's model names, a provider prefix ignored; others none", () => {
    expect(["gpt-4o", "openai/gpt-4.1-mini", "o3-mini", "gpt-5", "o1"].map(knownEncoding)).toEqual(Array(5).fill("o200k_base"));
    expect(["gpt-4", "gpt-4-0613", "gpt-3.5-turbo"].map(knownEncoding)).toEqual(Array(3).fill("cl100k_base"));
    expect(["claude-sonnet-4-5", "Qwen/Qwen3-8B", "o100", "gpt-40"].map(knownEncoding)).toEqual([undefined, undefined, undefined, undefined]);
  });
});
