/**
 * Golden conversions Messages ⇄ Responses. The vectors are those of NeMo Gym's own converter tests
 * (tests/unit_tests/test_anthropic_converter.py, NVIDIA-NeMo/Gym 07d6b0d), written out as whole objects; where
 * gym differs on purpose (request.ts, response.ts and stream.ts list each difference) the test says so.
 */
import { describe, expect, test } from "bun:test";
import { parseSse } from "../streaming/sse.ts";
import { anthropicErrorBody, AnthropicError } from "./errors.ts";
import { messagesToResponsesParams } from "./request.ts";
import { responseToMessage } from "./response.ts";
import { messageStreamEvents, messageStreamFrames } from "./stream.ts";

const refused = (body: Record<string, unknown>) => {
  try {
    messagesToResponsesParams(body);
  } catch (error) {
    expect(error).toBeInstanceOf(AnthropicError);
    return { status: (error as AnthropicError).status, message: (error as Error).message };
  }
  throw new Error("expected a refusal");
};

describe("Messages request → Responses create params", () => {
  test("system string, sampling fields, a user text", () => {
    expect(messagesToResponsesParams({ model: "m", system: "Be concise.", max_tokens: 256, temperature: 0.5, top_p: 0.9, messages: [{ role: "user", content: "Hello" }] })).toEqual({
      input: [{ role: "user", content: "Hello", type: "message" }],
      instructions: "Be concise.",
      model: "m",
      max_output_tokens: 256,
      temperature: 0.5,
      top_p: 0.9,
    });
  });

  test("system blocks are joined by newlines; blocks without text give no instructions", () => {
    expect(messagesToResponsesParams({ system: [{ type: "text", text: "Answer concisely." }, { type: "text", text: "Use JSON.", cache_control: { type: "ephemeral" } }], max_tokens: 10, messages: [] }).instructions).toBe("Answer concisely.\nUse JSON.");
    expect("instructions" in messagesToResponsesParams({ system: [{ type: "text", text: "" }], max_tokens: 10, messages: [] })).toBe(false);
    expect("instructions" in messagesToResponsesParams({ max_tokens: 10, messages: [] })).toBe(false);
  });

  test("a system message inside messages passes through as a system item", () => {
    expect(messagesToResponsesParams({ max_tokens: 10, messages: [{ role: "system", content: "stay terse" }, { role: "user", content: "hi" }] }).input).toEqual([
      { role: "system", content: "stay terse", type: "message" },
      { role: "user", content: "hi", type: "message" },
    ]);
  });

  test("text and base64 image blocks make one message with input parts", () => {
    const params = messagesToResponsesParams({ max_tokens: 10, messages: [{ role: "user", content: [{ type: "text", text: "What is this?" }, { type: "image", source: { type: "base64", media_type: "image/png", data: "aGVsbG8=" } }] }] });
    expect(params.input).toEqual([{ role: "user", content: [{ type: "input_text", text: "What is this?" }, { type: "input_image", image_url: "data:image/png;base64,aGVsbG8=", detail: "auto" }], type: "message" }]);
  });

  test("tool_use → function_call (the tool_use id is the call_id), tool_result → function_call_output", () => {
    const params = messagesToResponsesParams({
      max_tokens: 10,
      messages: [
        { role: "assistant", content: [{ type: "text", text: "calling" }, { type: "tool_use", id: "toolu_1", name: "lookup", input: { city: "Paris" } }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "Sunny" }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_2", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] }] },
      ],
    });
    expect(params.input).toEqual([
      { role: "assistant", content: "calling", type: "message" },
      { arguments: '{"city": "Paris"}', call_id: "toolu_1", name: "lookup", status: "completed", type: "function_call" },
      { call_id: "toolu_1", output: "Sunny", type: "function_call_output" },
      { call_id: "toolu_2", output: "a\nb", type: "function_call_output" },
    ]);
  });

  test("tool_use input is written as Python's json.dumps writes it (spaced separators, ASCII escapes)", () => {
    const params = messagesToResponsesParams({ messages: [{ role: "assistant", content: [{ type: "tool_use", id: "t", name: "f", input: { q: "café", n: [1, 2.5], o: {} } }] }] });
    expect((params.input as { arguments: string }[])[0]!.arguments).toBe('{"q": "caf\\u00e9", "n": [1, 2.5], "o": {}}');
  });

  test("thinking → reasoning with the signature as encrypted_content, its id derived from the text (stable for the cache)", () => {
    const once = messagesToResponsesParams({ max_tokens: 10, messages: [{ role: "assistant", content: [{ type: "thinking", thinking: "hmm", signature: "sig-1" }, { type: "redacted_thinking", data: "x" }] }] });
    const item = (once.input as Record<string, unknown>[])[0]!;
    expect(item).toMatchObject({ type: "reasoning", summary: [{ text: "hmm", type: "summary_text" }], encrypted_content: "sig-1" });
    expect(String(item.id)).toMatch(/^rs_[0-9a-f]{32}$/);
    expect(once).toEqual(messagesToResponsesParams({ max_tokens: 10, messages: [{ role: "assistant", content: [{ type: "thinking", thinking: "hmm", signature: "sig-1" }] }] }));
  });

  test("tools become non-strict function tools; tool_choice auto/none/any/tool; disable_parallel_tool_use", () => {
    const tools = [{ name: "f", description: "d", input_schema: { type: "object", properties: {} } }, { name: "g" }];
    const params = messagesToResponsesParams({ max_tokens: 10, messages: [], tools, tool_choice: { type: "any", disable_parallel_tool_use: true } });
    expect(params.tools).toEqual([
      { type: "function", name: "f", description: "d", parameters: { type: "object", properties: {} }, strict: false },
      { type: "function", name: "g", description: null, parameters: { type: "object", properties: {} }, strict: false },
    ]);
    expect(params.tool_choice).toBe("required");
    expect(params.parallel_tool_calls).toBe(false);
    const choice = (tool_choice: unknown) => messagesToResponsesParams({ messages: [], tool_choice }).tool_choice;
    expect([choice({ type: "auto" }), choice({ type: "none" }), choice({ type: "tool", name: "f" })]).toEqual(["auto", "none", { type: "function", name: "f" }]);
  });

  test("what has no Responses form is a 400 naming the field", () => {
    expect(refused({ messages: [{ role: "user", content: [{ type: "video", data: "x" }] }] })).toEqual({ status: 400, message: expect.stringContaining("messages.0.content.0.type") });
    expect(refused({ messages: [], tool_choice: { type: "weird" } }).message).toContain("tool_choice.type");
    expect(refused({ messages: [{ role: "user", content: [{ type: "image", source: { type: "url", url: "http://x" } }] }] }).message).toContain("base64");
    expect(refused({ messages: [{ role: "user", content: [{ type: "image", source: { type: "base64", media_type: "image/tiff", data: "x" } }] }] }).message).toContain("media_type");
    expect(refused({ messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: [{ type: "image", source: {} }] }] }] }).message).toContain("text only");
    expect(refused({ max_tokens: 1 }).message).toContain("messages");
  });
});

const response = (output: unknown[], extra: Record<string, unknown> = {}) => ({ id: "resp_abc", object: "response", model: "upstream-model", output, usage: { input_tokens: 5, output_tokens: 7, total_tokens: 12 }, incomplete_details: null, ...extra });
const text = (t: string) => ({ id: "msg_1", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: t, annotations: [] }] });

describe("Responses object → Messages response", () => {
  test("text and a function call: tool_use with parsed input, stop_reason tool_use, usage", () => {
    expect(responseToMessage(response([text("Hello"), { type: "function_call", call_id: "toolu_1", name: "f", arguments: '{"a": 1}', id: "fc_1" }]), "m")).toEqual({
      id: "msg_abc",
      type: "message",
      role: "assistant",
      model: "m",
      content: [
        { type: "text", text: "Hello" },
        { type: "tool_use", id: "toolu_1", name: "f", input: { a: 1 } },
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: { input_tokens: 5, output_tokens: 7 },
    });
  });

  test("reasoning → thinking (signature from encrypted_content, else empty); reasoning_text content when no summary", () => {
    const message = responseToMessage(response([{ id: "rs_1", type: "reasoning", summary: [{ type: "summary_text", text: "step" }], encrypted_content: "sig" }, { id: "rs_2", type: "reasoning", summary: [], content: [{ type: "reasoning_text", text: "raw" }] }, text("ok")]));
    expect(message.content).toEqual([
      { type: "thinking", thinking: "step", signature: "sig" },
      { type: "thinking", thinking: "raw", signature: "" },
      { type: "text", text: "ok" },
    ]);
    expect(message.stop_reason).toBe("end_turn");
    expect(message.model).toBe("upstream-model");
  });

  test("stop reasons from incomplete_details; missing usage is zeros; refusal parts are text; an empty message is one empty text block", () => {
    expect(responseToMessage(response([text("x")], { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } })).stop_reason).toBe("max_tokens");
    expect(responseToMessage(response([text("x")], { incomplete_details: { reason: "content_filter" } })).stop_reason).toBe("refusal");
    expect(responseToMessage(response([], { usage: null })).usage).toEqual({ input_tokens: 0, output_tokens: 0 });
    expect(responseToMessage(response([{ id: "m", type: "message", content: [{ type: "refusal", refusal: "no" }] }])).content).toEqual([{ type: "text", text: "no" }]);
    expect(responseToMessage(response([text("")])).content).toEqual([{ type: "text", text: "" }]);
    expect(responseToMessage(response([])).content).toEqual([]);
  });

  test("arguments that are not a JSON object, and items with no Messages form, are refused (500)", () => {
    expect(() => responseToMessage(response([{ type: "function_call", call_id: "c", name: "f", arguments: "[1, 2]" }]))).toThrow(/not a JSON object/);
    expect(() => responseToMessage(response([{ type: "function_call", call_id: "c", name: "f", arguments: "{oops" }]))).toThrow(/not JSON/);
    expect(() => responseToMessage(response([{ type: "web_search_call", id: "w" }]))).toThrow(AnthropicError);
    expect(() => responseToMessage(response([{ id: "m", type: "message", content: [{ type: "weird" }] }]))).toThrow(/weird/);
  });
});

describe("Messages response → Anthropic event stream", () => {
  const message = { id: "msg_1", type: "message", role: "assistant", model: "m", content: [{ type: "text", text: "hi" }, { type: "tool_use", id: "toolu_1", name: "f", input: { a: 1 } }], stop_reason: "tool_use", stop_sequence: null, usage: { input_tokens: 3, output_tokens: 4 } };

  test("the event order Anthropic's API sends (NeMo Gym's, plus the ping), framed as event:/data:", () => {
    const events = parseSse(messageStreamFrames(message).join(""));
    expect(events.map((e) => e.event)).toEqual(["message_start", "ping", "content_block_start", "content_block_delta", "content_block_stop", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"]);
    const data = events.map((e) => JSON.parse(e.data));
    expect(data.map((d) => d.type)).toEqual(events.map((e) => e.event));
    expect(data[0].message).toEqual({ ...message, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 0 } });
    expect(data[2]).toEqual({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
    expect(data[3].delta).toEqual({ type: "text_delta", text: "hi" });
    expect(data[5].content_block).toEqual({ type: "tool_use", id: "toolu_1", name: "f", input: {} });
    expect(JSON.parse(data[6].delta.partial_json)).toEqual({ a: 1 });
    expect(data[8]).toEqual({ type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 4 } });
  });

  test("a thinking block sends its text, then its signature", () => {
    const deltas = messageStreamEvents({ ...message, content: [{ type: "thinking", thinking: "ponder", signature: "s" }] }).filter((e) => e.type === "content_block_delta");
    expect(deltas.map((e) => e.delta)).toEqual([
      { type: "thinking_delta", thinking: "ponder" },
      { type: "signature_delta", signature: "s" },
    ]);
  });

  test("errors have Anthropic's shape and type for each status", () => {
    expect(anthropicErrorBody(401, "no")).toEqual({ type: "error", error: { type: "authentication_error", message: "no" } });
    expect([400, 404, 429, 500, 502, 529].map((s) => (anthropicErrorBody(s, "").error as { type: string }).type)).toEqual(["invalid_request_error", "not_found_error", "rate_limit_error", "api_error", "api_error", "overloaded_error"]);
  });
});
