/** The model API layer on the model servers tests use (mock_model, replay_model): streaming and Messages reach the same routes, errors keep each API's shape. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import mockModel from "../../components/responses_api_models/mock_model/index.ts";
import replayModel from "../../components/responses_api_models/replay_model/index.ts";
import { parseSse } from "../../protocol/streaming/sse.ts";
import { InProcessServerClient } from "../in-process.ts";

const context = { name: "policy_model", serverType: "responses_api_models", implementation: "mock_model", servers: { get: () => { throw new Error("no peers"); } }, globalConfig: {} } as never;
const events = (text: string) => parseSse(text).map((e) => (e.data === "[DONE]" ? "[DONE]" : JSON.parse(e.data)));

describe("model API on mock_model", async () => {
  const app = await mockModel({ name: "policy_model", model: "mock-policy" }, context);
  const client = new InProcessServerClient("policy_model", app);

  test("an in-process client's streaming call is served by the middleware (not the direct JSON route)", async () => {
    const reply = await client.post("/v1/responses", { input: "hello", stream: true });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toStartWith("text/event-stream");
    const read = events(reply.text);
    expect(read[0].type).toBe("response.created");
    expect(read.at(-1)).toMatchObject({ type: "response.completed", response: { status: "completed", model: "mock-policy" } });
    // A plain call is unchanged: JSON.
    expect((await client.post("/v1/responses", { input: "hello" })).json<{ object: string }>().object).toBe("response");
  });

  test("a streaming chat call without include_usage has no usage chunk; the stream ends with [DONE]", async () => {
    const reply = await client.post("/v1/chat/completions", { messages: [{ role: "user", content: "hello" }], stream: true });
    const read = events(reply.text);
    expect(read.at(-1)).toBe("[DONE]");
    expect(read.slice(0, -1).every((chunk) => chunk.object === "chat.completion.chunk" && !("usage" in chunk))).toBe(true);
  });

  test("an invalid streaming Responses body is FastAPI's 422, before any stream", async () => {
    const reply = await client.post("/v1/responses", { input: "x", stream: true, temperature: "hot" });
    expect(reply.status).toBe(422);
    expect(reply.json<{ detail: { loc: unknown[] }[] }>().detail[0]!.loc).toEqual(["body", "temperature"]);
  });

  test("an upstream failure on a committed Responses stream is a terminal response.failed", async () => {
    const reply = await client.post("/v1/responses", { input: "x", stream: true }, { headers: { "x-mock-fault": "500" } });
    expect(reply.status).toBe(200);
    expect(events(reply.text).map((e) => e.type)).toEqual(["response.created", "response.failed"]);
  });

  test("Messages errors are Anthropic's: bad JSON 400, an unsupported block 400, a model failure with its status", async () => {
    const bad = await client.post("/v1/messages", undefined, { body: "{nope", headers: { "content-type": "application/json" } });
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    const block = await client.post("/v1/messages?beta=true", { max_tokens: 8, messages: [{ role: "user", content: [{ type: "video" }] }] });
    expect(block.status).toBe(400);
    expect(block.json<{ error: { message: string } }>().error.message).toContain("messages.0.content.0.type");
    const limited = await client.post("/v1/messages", { max_tokens: 8, messages: [{ role: "user", content: "hi" }] }, { headers: { "x-mock-fault": "429" } });
    expect(limited.status).toBe(429);
    expect(limited.json()).toMatchObject({ type: "error", error: { type: "rate_limit_error" } });
  });
});

describe("model API on replay_model", () => {
  const dir = mkdtempSync(join(tmpdir(), "gym-model-api-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const call = { type: "function_call", id: "fc_1", call_id: "call_1", name: "get_weather", arguments: '{"city": "Paris"}', status: "completed" };
  const answer = (text: string) => ({ id: "msg_1", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] });
  const row = (rollout: number, text: string) => ({
    _ng_task_index: 0,
    _ng_rollout_index: rollout,
    responses_create_params: { input: [{ role: "user", content: "weather in Paris?" }] },
    response: { id: `resp_${rollout}`, object: "response", created_at: 1, model: "recorded", output: [call, { type: "function_call_output", call_id: "call_1", output: "sunny" }, answer(text)], usage: { input_tokens: 4, output_tokens: 6, total_tokens: 10 }, parallel_tool_calls: true, tool_choice: "auto", tools: [] },
  });
  const file = join(dir, "rollouts.jsonl");
  writeFileSync(file, [row(0, "Sunny (first)"), row(1, "Sunny (second)")].map((r) => JSON.stringify(r)).join("\n") + "\n");

  test("Messages under /ng-rollout/<task>-<rollout> replay that rollout: a tool_use turn, then its final text with the usage", async () => {
    const client = new InProcessServerClient("policy_model", await replayModel({ name: "policy_model", rollouts_jsonl_fpath: file }, context));
    const messages: unknown[] = [{ role: "user", content: "weather in Paris?" }];
    const first = await client.call<any>("/ng-rollout/0-1/v1/messages", { model: "claude-x", max_tokens: 64, messages });
    expect(first.body).toMatchObject({ stop_reason: "tool_use", content: [{ type: "tool_use", id: "call_1", name: "get_weather", input: { city: "Paris" } }] });
    messages.push({ role: "assistant", content: first.body.content }, { role: "user", content: [{ type: "tool_result", tool_use_id: "call_1", content: "sunny" }] });
    const second = await client.post("/ng-rollout/0-1/v1/messages", { model: "claude-x", max_tokens: 64, messages, stream: true }, { cookies: first.cookies });
    const read = events(second.text);
    expect(read.find((e) => e.type === "content_block_delta").delta).toEqual({ type: "text_delta", text: "Sunny (second)" });
    expect(read.find((e) => e.type === "message_delta")).toMatchObject({ delta: { stop_reason: "end_turn" }, usage: { output_tokens: 6 } });
  });
});
