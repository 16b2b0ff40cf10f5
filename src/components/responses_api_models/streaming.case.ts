/**
 * The model server conformance suite, streaming part: the real `openai` client streaming Responses and Chat
 * Completions, and the real `@anthropic-ai/sdk` client calling Messages (plain and streaming), against a
 * model server, in-process (the client's fetch is `app.fetch`) or over loopback HTTP.
 */
import Anthropic from "@anthropic-ai/sdk";
import { expect, test } from "bun:test";
import OpenAI from "openai";
import { modelCallUsage, usageSince } from "../../servers/calls/accounting.ts";
import type { ModelSubject } from "./conformance.case.ts";

const WEATHER_TOOL = { type: "function" as const, name: "get_weather", description: "Weather in a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] }, strict: true };
const PROMPT = "Answer with the letter inside \\boxed{}. Which is a prime number?\nA: 4\nB: 7\nC: 8\nD: 9";

/** How the SDK clients reach the server: a base URL, and a fetch (app.fetch in-process, the network otherwise). */
export interface SdkTarget {
  baseUrl: string;
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
}

/** The streaming tests, registered inside the caller's describe block. */
export function streamingTests(subject: () => ModelSubject, target: () => SdkTarget): void {
  const openai = () => new OpenAI({ apiKey: "gym-test", baseURL: `${target().baseUrl}/v1`, fetch: target().fetch, maxRetries: 0 });
  const anthropic = () => new Anthropic({ apiKey: "gym-test", baseURL: target().baseUrl, fetch: target().fetch, maxRetries: 0 });

  test("openai streams a Responses tool call event by event, one upstream call, usage counted", async () => {
    const before = modelCallUsage();
    const seenBefore = (await subject().seen()).length;
    const stream = await openai().responses.create({ model: "any", input: "what's the weather in sf?", tools: [WEATHER_TOOL], stream: true });
    const types: string[] = [];
    let args = "";
    let final: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === "response.function_call_arguments.delta") args += event.delta;
      if (event.type === "response.completed") final = event.response;
    }
    expect(types[0]).toBe("response.created");
    expect(types).toContain("response.output_item.added");
    expect(types).toContain("response.output_item.done");
    expect(types.at(-1)).toBe("response.completed");
    expect(JSON.parse(args)).toEqual({ city: "San Francisco" });
    expect(final!.output.find((item) => item.type === "function_call")).toMatchObject({ name: "get_weather", arguments: args });
    expect(final!.usage!.output_tokens).toBeGreaterThan(0);
    const calls = (await subject().seen()).slice(seenBefore);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body!.stream).toBeUndefined();
    expect(usageSince(before).get(subject().model)?.calls).toBe(1);
  });

  test("openai streams Responses text through the SDK's stream helper", async () => {
    const stream = openai().responses.stream({ model: "any", input: [{ role: "user", content: PROMPT }] });
    let text = "";
    stream.on("response.output_text.delta", (event) => (text += event.delta));
    const final = await stream.finalResponse();
    expect(text).toMatch(/\\boxed\{[ABCD]\}/);
    expect(final.output_text).toBe(text);
    expect(final.status).toBe("completed");
  });

  test("openai streams chat completion chunks with a usage chunk, ending in [DONE]", async () => {
    const before = modelCallUsage();
    const stream = await openai().chat.completions.create({ model: "any", messages: [{ role: "user", content: PROMPT }], stream: true, stream_options: { include_usage: true } });
    let text = "";
    let usage: OpenAI.CompletionUsage | null | undefined;
    let finish: string | null = null;
    for await (const chunk of stream) {
      expect(chunk.object).toBe("chat.completion.chunk");
      text += chunk.choices[0]?.delta.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toMatch(/\\boxed\{[ABCD]\}/);
    expect(finish).toBe("stop");
    expect(usage!.completion_tokens).toBeGreaterThan(0);
    expect(usageSince(before).get(subject().model)?.calls).toBe(1);
  });

  test("openai streams chat tool calls the SDK reassembles", async () => {
    const tools = [{ type: "function" as const, function: { name: WEATHER_TOOL.name, description: WEATHER_TOOL.description, parameters: WEATHER_TOOL.parameters } }];
    const stream = openai().chat.completions.stream({ model: "any", messages: [{ role: "user", content: "what's the weather in sf?" }], tools });
    const completion = await stream.finalChatCompletion();
    const call = completion.choices[0]!.message.tool_calls![0]! as { function: { name: string; arguments: string } };
    expect(call.function.name).toBe("get_weather");
    expect(JSON.parse(call.function.arguments)).toEqual({ city: "San Francisco" });
    expect(completion.choices[0]!.finish_reason).toBe("tool_calls");
  });

  test("anthropic Messages: a tool_use, its tool_result answered, usage in Anthropic's fields", async () => {
    const client = anthropic();
    const tools = [{ name: "get_weather", description: "Weather in a city", input_schema: { type: "object" as const, properties: { city: { type: "string" } }, required: ["city"] } }];
    const before = modelCallUsage();
    const first = await client.messages.create({ model: "claude-test", max_tokens: 256, system: "You are terse.", messages: [{ role: "user", content: "what's the weather in sf?" }], tools });
    expect(first).toMatchObject({ type: "message", role: "assistant", model: "claude-test", stop_reason: "tool_use" });
    const use = first.content.find((block) => block.type === "tool_use")!;
    expect(use).toMatchObject({ name: "get_weather", input: { city: "San Francisco" } });
    expect(first.usage.input_tokens).toBeGreaterThan(0);
    expect(first.usage.output_tokens).toBeGreaterThan(0);
    const second = await client.messages.create({
      model: "claude-test",
      max_tokens: 256,
      messages: [
        { role: "user", content: "what's the weather in sf?" },
        { role: "assistant", content: first.content },
        { role: "user", content: [{ type: "tool_result", tool_use_id: (use as { id: string }).id, content: '{"weather": "sunny"}' }] },
      ],
      tools,
    });
    expect(second.stop_reason).toBe("end_turn");
    expect(second.content[0]).toMatchObject({ type: "text" });
    expect(usageSince(before).get(subject().model)?.calls).toBe(2);
  });

  test("anthropic Messages stream: message_start … message_stop, reassembled by the SDK", async () => {
    const stream = anthropic().messages.stream({ model: "claude-test", max_tokens: 256, messages: [{ role: "user", content: PROMPT }] });
    const types: string[] = [];
    stream.on("streamEvent", (event) => types.push(event.type));
    const message = await stream.finalMessage();
    expect(types[0]).toBe("message_start");
    expect(types).toContain("content_block_delta");
    expect(types.slice(-2)).toEqual(["message_delta", "message_stop"]);
    expect(message.stop_reason).toBe("end_turn");
    expect((message.content[0] as { text: string }).text).toMatch(/\\boxed\{[ABCD]\}/);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
  });

  test("anthropic Messages: an upstream failure is an error in Anthropic's shape", async () => {
    await subject().failNext(400, { error: { message: "unsupported parameter: foo", type: "invalid_request_error" } });
    const error = await anthropic()
      .messages.create({ model: "claude-test", max_tokens: 16, messages: [{ role: "user", content: "hello" }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(500);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: "error", error: { type: "api_error" } });
    expect(JSON.stringify((error as InstanceType<typeof Anthropic.APIError>).error)).toContain("unsupported parameter: foo");
  });
}
