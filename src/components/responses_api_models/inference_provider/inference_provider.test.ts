import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mcqaOnBinary } from "../../../testing/mcqa-e2e.ts";
import { readinessRoute, serveStandIn, type StandIn } from "../../../testing/model-stand-in.ts";
import { modelConformanceSuite } from "../conformance.case.ts";
import inferenceProvider from "./index.ts";

const context = { name: "policy_model", serverType: "responses_api_models", implementation: "inference_provider", servers: { get: () => { throw new Error("no peers"); } }, globalConfig: {} } as const;
const chatRoute = (key: string) => ({ path: "/v1/chat/completions", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, answer: "/v1/chat/completions" as const });

modelConformanceSuite("inference_provider", async () => {
  const standIn = await serveStandIn([chatRoute("tk-provider")]);
  const app = await inferenceProvider({ name: "policy_model", base_url: `${standIn.url}/v1`, api_key: "tk-provider", model: "meta-llama/Llama-3.1-8B", upstream: { baseDelayMs: 1, maxDelayMs: 5 } }, context);
  return { app, model: "meta-llama/Llama-3.1-8B", seen: async () => standIn.seen, failNext: async (s, b) => standIn.failNext(s, b), close: () => standIn.stop() };
});

describe("inference_provider: extra_body, reasoning parser, concurrency", () => {
  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await serveStandIn([chatRoute("k")], { model: "m" });
  });
  afterAll(() => standIn.stop());

  test("extra_body goes under every chat body; the request wins where both set a key", async () => {
    const app = await inferenceProvider({ base_url: `${standIn.url}/v1/`, api_key: "k", model: "m", extra_body: { top_k: 20, temperature: 0.1, provider: { order: ["x"] } } }, context);
    standIn.seen.length = 0;
    const reply = await app.request("/v1/responses", { method: "POST", body: JSON.stringify({ input: "hi", temperature: 0.7 }) });
    expect(reply.status).toBe(200);
    expect(standIn.seen[0]!.body).toMatchObject({ top_k: 20, temperature: 0.7, provider: { order: ["x"] }, model: "m" });
    await app.request("/v1/chat/completions", { method: "POST", body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }) });
    expect(standIn.seen[1]!.body).toMatchObject({ top_k: 20, temperature: 0.1 });
  });

  test("uses_reasoning_parser: earlier think spans are stripped before sending; reasoning_content becomes a reasoning item", async () => {
    const reasoning = await serveStandIn([{ path: "/v1/chat/completions", answer: { json: { id: "c", object: "chat.completion", created: 1, model: "m", choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "B", reasoning_content: "7 is prime" } }], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } } } }]);
    const app = await inferenceProvider({ base_url: `${reasoning.url}/v1`, api_key: "k", model: "m", uses_reasoning_parser: true }, context);
    const reply = await app.request("/v1/responses", {
      method: "POST",
      body: JSON.stringify({ input: [{ role: "user", content: "q" }, { role: "assistant", content: "<think>old</think>A" }, { role: "user", content: "again" }] }),
    });
    const response = (await reply.json()) as any;
    expect(response.output.map((i: any) => i.type)).toEqual(["reasoning", "message"]);
    expect(response.output[0].summary[0].text).toBe("7 is prime");
    expect(response.usage).toMatchObject({ input_tokens: 3, output_tokens: 2, total_tokens: 5 });
    const sent = reasoning.seen[0]!.body!.messages as any[];
    expect(sent[1]).toMatchObject({ role: "assistant", content: "A" });
    await reasoning.stop();
  });

  test("without the reasoning parser, reasoning_content is left as the provider sent it", async () => {
    const app = await inferenceProvider({ base_url: `${standIn.url}/v1`, api_key: "k", model: "m" }, context);
    const reply = await app.request("/v1/responses", { method: "POST", body: JSON.stringify({ input: [{ role: "assistant", content: "<think>x</think>A" }, { role: "user", content: "q" }] }) });
    expect(reply.status).toBe(200);
    expect((standIn.seen.at(-1)!.body!.messages as any[])[0].content).toBe("<think>x</think>A");
  });
});

test("gym eval run: mcqa end to end on the binary through inference_provider, against a stand-in that checks route and key", async () => {
  const standIn = await serveStandIn([chatRoute("tk-e2e"), readinessRoute()]);
  try {
    const r = await mcqaOnBinary(["--model-type", "inference_provider", "--model", "Qwen/Qwen3-8B", "--model-url", `${standIn.url}/v1`, "--model-api-key", "tk-e2e"]);
    expect(r.stderr).toContain("Coverage: 8 of 8 rollouts scored");
    expect(r.code).toBe(0);
    expect(r.rollouts).toHaveLength(8);
    expect(r.rollouts.every((row: any) => row.response.model === "Qwen/Qwen3-8B" && typeof row.reward === "number")).toBe(true);
    expect(standIn.seen.length).toBeGreaterThanOrEqual(8);
    expect(standIn.seen.filter((c) => c.refused)).toEqual([]);
  } finally {
    await standIn.stop();
  }
}, 120_000);
