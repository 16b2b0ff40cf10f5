/**
 * What the CLIs' model API costs: N sequential calls from the real SDK clients, on loopback, to the same mock model
 * (a tool call answered). The peer is what a client would otherwise do — call the model server directly, plain JSON
 * — beside the streaming Responses, streaming chat and streaming Messages answers synthesized by the model server
 * itself, and the same through the rollout gateway (token check, rollout prefix, capture). Printed as ms per call
 * and as a ratio to the peer. Knob: GYM_BENCH_CALLS (500).
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import mockModel from "../../src/components/responses_api_models/mock_model/index.ts";
import { serve } from "../../src/runtime/serve.ts";
import { HttpServerClient } from "../../src/servers/http.ts";
import { rolloutGateway, RolloutTokens } from "../../src/servers/model-api/index.ts";

const calls = Number(process.env.GYM_BENCH_CALLS ?? 500);
const context = { name: "policy_model", servers: { get: () => { throw new Error("no peers"); } }, globalConfig: {} } as never;
const model = await serve((await mockModel({ name: "policy_model", model: "mock" }, context)).fetch);
const tokens = new RolloutTokens();
const token = tokens.mint("0-0");
const gateway = await serve(rolloutGateway({ model: new HttpServerClient("policy_model", model.url), tokens }).fetch);
const TOOL = { type: "function" as const, name: "get_weather", description: "Weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] }, strict: true };
const CHAT_TOOL = { type: "function" as const, function: { name: TOOL.name, description: TOOL.description, parameters: TOOL.parameters } };
const ANTHROPIC_TOOL = { name: TOOL.name, description: TOOL.description, input_schema: { type: "object" as const, properties: { city: { type: "string" } } } };
const prompt = "what's the weather in sf?";

const openai = (url: string) => new OpenAI({ apiKey: token, baseURL: `${url}/v1`, maxRetries: 0 });
const anthropic = (url: string) => new Anthropic({ apiKey: token, baseURL: url, maxRetries: 0 });
const scenarios: [string, (url: string) => Promise<unknown>][] = [
  ["peer: Responses, plain JSON, direct", (url) => openai(url).responses.create({ model: "m", input: prompt, tools: [TOOL] })],
  ["Responses stream", (url) => openai(url).responses.stream({ model: "m", input: prompt, tools: [TOOL] }).finalResponse()],
  ["chat stream + usage", (url) => openai(url).chat.completions.stream({ model: "m", messages: [{ role: "user", content: prompt }], tools: [CHAT_TOOL], stream_options: { include_usage: true } }).finalChatCompletion()],
  ["Messages stream", (url) => anthropic(url).messages.stream({ model: "m", max_tokens: 64, messages: [{ role: "user", content: prompt }], tools: [ANTHROPIC_TOOL] }).finalMessage()],
];

async function timed(run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 20; i++) await run(); // warm-up
  const start = performance.now();
  for (let i = 0; i < calls; i++) await run();
  return (performance.now() - start) / calls;
}

const peer = await timed(() => scenarios[0]![1](model.url));
console.log(`${calls} sequential calls each, ms per call (ratio to the peer)`);
console.log(`${scenarios[0]![0].padEnd(40)} ${peer.toFixed(2)} (1.00)`);
for (const [name, run] of scenarios.slice(1)) {
  for (const [where, url] of [["model server", model.url], ["gateway", gateway.url]] as const) {
    const ms = await timed(() => run(url));
    console.log(`${`${name}, ${where}`.padEnd(40)} ${ms.toFixed(2)} (${(ms / peer).toFixed(2)})`);
  }
}
tokens.revoke(token);
await gateway.stop();
await model.stop();
