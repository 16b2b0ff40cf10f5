import { describe, expect, test } from "bun:test";
import { chatCompletionToResponse } from "./from-chat.ts";
import { preprocessChatBody } from "./preprocess.ts";
import { responsesToChatParams } from "./to-chat.ts";

const tool = { type: "function", name: "get_weather", parameters: { type: "object" }, strict: true, description: "weather" };

describe("§3.6 Responses → Chat Completions", () => {
  test("string input becomes one user message with a text part", () => {
    expect(responsesToChatParams({ input: "hi" })).toEqual({ messages: [{ content: [{ type: "text", text: "hi" }], role: "user" }] });
  });

  test("reasoning + assistant text + function calls collapse into one assistant message; tool output flushes", () => {
    const chat = responsesToChatParams({
      input: [
        { role: "user", content: "q" },
        { type: "reasoning", id: "rs", summary: [{ type: "summary_text", text: "think A" }, { type: "summary_text", text: "" }] },
        { id: "m", type: "message", role: "assistant", content: [{ type: "output_text", text: "let me check", annotations: [] }] },
        { type: "function_call", call_id: "c1", name: "get_weather", arguments: '{"city":"SF"}' },
        { type: "function_call_output", call_id: "c1", output: "cold" },
        { type: "reasoning", id: "rs2", summary: [] },
      ],
      tools: [tool],
    });
    expect(chat.messages).toEqual([
      { content: "q", role: "user" },
      {
        content: "<think>think A</think>let me check",
        role: "assistant",
        tool_calls: [{ id: "c1", function: { arguments: '{"city":"SF"}', name: "get_weather" }, type: "function" }],
      },
      { content: "cold", role: "tool", tool_call_id: "c1" },
      // A reasoning item with no text still marks the buffer: an empty assistant message is emitted.
      { content: null, role: "assistant" },
    ]);
    expect(chat.tools).toEqual([{ type: "function", function: { name: "get_weather", description: "weather", parameters: { type: "object" } } }]);
  });

  test("instructions fold the leading system/developer messages into one system message", () => {
    const chat = responsesToChatParams({
      instructions: "Be brief.",
      input: [
        { role: "developer", content: "You help." },
        { role: "system", content: [{ type: "input_text", text: "Use tools." }] },
        { role: "user", content: "q" },
      ],
    });
    expect(chat.messages).toEqual([
      { content: "Be brief.\n\nYou help.\n\nUse tools.", role: "system" },
      { content: "q", role: "user" },
    ]);
  });

  test("parameter mapping; Responses-only keys dropped; no tools removes tool_choice and parallel_tool_calls", () => {
    const chat = responsesToChatParams({
      input: "x",
      model: "m",
      max_output_tokens: 100,
      reasoning: { effort: "low", summary: "auto" },
      temperature: 0.5,
      text: { format: { type: "text" } },
      truncation: "auto",
      include: [],
      tool_choice: "auto",
      parallel_tool_calls: false,
      metadata: { a: "b" },
    });
    expect(chat).toEqual({ messages: chat.messages, model: "m", max_tokens: 100, metadata: { a: "b" }, reasoning_effort: "low", temperature: 0.5 });
    expect(Object.keys(chat)).toEqual(["messages", "model", "max_tokens", "metadata", "reasoning_effort", "temperature"]);
    expect(() => responsesToChatParams({ input: "x", tool_choice: "required" })).toThrow("requires at least one tool");
  });

  test("content parts: images (detail kept, object url unwrapped), video, unsupported file → error", () => {
    const chat = responsesToChatParams({
      input: [
        {
          role: "user",
          content: [
            { type: "input_image", image_url: "data:x", detail: "low" },
            { type: "input_image", image_url: { url: "http://i" } },
            { type: "input_video", video_url: { url: "http://v" } },
          ],
        },
      ],
    });
    expect((chat.messages as any)[0].content).toEqual([
      { type: "image_url", image_url: { url: "data:x", detail: "low" } },
      { type: "image_url", image_url: { url: "http://i", detail: "auto" } },
      { type: "video_url", video_url: { url: "http://v" } },
    ]);
    expect(() => responsesToChatParams({ input: [{ role: "user", content: [{ type: "input_file", file_id: "f" }] }] })).toThrow("Unsupported part param type");
    expect(() => responsesToChatParams({ input: [{ role: "user", content: [{ type: "input_image", file_id: "f", detail: "auto" }] }] })).toThrow("non-empty image_url");
  });

  test("errors: untyped item without role, item types with no chat form, non-text tool output parts", () => {
    expect(() => responsesToChatParams({ input: [{ content: "x" }] })).toThrow();
    expect(() => responsesToChatParams({ input: [{ type: "web_search_call", id: "w" }] })).toThrow("no Chat Completions representation");
    expect(() => responsesToChatParams({ input: [{ type: "function_call_output", call_id: "c", output: [{ type: "input_image" }] }] })).toThrow("'input_image'");
    const list = responsesToChatParams({ input: [{ type: "function_call_output", call_id: "c", output: [{ type: "input_text", text: "a" }] }] });
    expect((list.messages as any)[0]).toEqual({ content: [{ type: "text", text: "a" }], role: "tool", tool_call_id: "c" });
  });

  test("tool_choice object form is converted to Chat spelling (deliberate deviation from HEAD's 500, protocol.md §8)", () => {
    const chat = responsesToChatParams({ input: "x", tools: [tool], tool_choice: { type: "function", name: "get_weather" } });
    expect(chat.tool_choice).toEqual({ type: "function", function: { name: "get_weather" } });
  });
});

describe("§3.7 upstream preprocessing", () => {
  const config = { name: "policy_model", base_url: "http://x/v1", model: "served", uses_reasoning_parser: true } as const;

  test("think spans stripped from assistant history; the first becomes reasoning_content and reasoning", () => {
    const body = preprocessChatBody({ messages: [{ role: "assistant", content: "<think>one</think>A<think>two</think>B" }], top_logprobs: null }, config);
    expect(body.messages).toEqual([{ role: "assistant", content: "AB", reasoning_content: "one", reasoning: "one" }]);
    expect(body.model).toBe("served");
    expect("top_logprobs" in body).toBe(false);
    const off = preprocessChatBody({ messages: [{ role: "assistant", content: "<think>one</think>A" }] }, { ...config, uses_interleaved_reasoning: false });
    expect(off.messages).toEqual([{ role: "assistant", content: "A" }]);
  });

  test("extra_body and chat_template_kwargs: config overlaid by metadata strings, merged under the body; overrides win last", () => {
    const body = preprocessChatBody(
      { messages: [{ role: "developer", content: "d" }], temperature: 0.7, metadata: { extra_body: '{"seed": 4, "temperature": 0.1}', chat_template_kwargs: '{"thinking": false}' } },
      { ...config, extra_body: { top_k: 20, seed: 1 }, chat_template_kwargs: { thinking: true, x: 1 }, sampling_overrides: { top_p: 0.95 }, replace_developer_role_with_system: true },
    );
    expect(body).toMatchObject({ top_k: 20, seed: 4, temperature: 0.7, chat_template_kwargs: { thinking: false, x: 1 }, top_p: 0.95 });
    expect((body.messages as any)[0].role).toBe("system");
    expect(Object.keys(body).slice(0, 2)).toEqual(["top_k", "seed"]);
  });

  test("audio_data is prepended to the last user message and removed from metadata", () => {
    const body = preprocessChatBody({ messages: [{ role: "user", content: "transcribe" }], metadata: { audio_data: "data:audio/wav;base64,AA==" } }, config);
    expect((body.messages as any)[0].content).toEqual([
      { type: "audio_url", audio_url: { url: "data:audio/wav;base64,AA==" } },
      { type: "text", text: "transcribe" },
    ]);
    expect("metadata" in body).toBe(false);
    expect(() => preprocessChatBody({ messages: [], metadata: { audio_paths: "[\"a.wav\"]" } }, config)).toThrow("must be a list");
  });

  test("token-id capture forces logprobs settings and rejects n > 1", () => {
    const body = preprocessChatBody({ messages: [] }, { ...config, return_token_id_information: true });
    expect(body).toMatchObject({ logprobs: true, top_logprobs: 0, return_tokens_as_token_ids: true });
    expect(() => preprocessChatBody({ messages: [], n: 2 }, { ...config, return_token_id_information: true })).toThrow("n=1");
  });
});

describe("§3.8 Chat Completion → Response", () => {
  const completion = (message: object, finish = "stop", usage: object | null = { prompt_tokens: 5, completion_tokens: 3, total_tokens: 9 }) => ({
    id: "c",
    object: "chat.completion",
    created: 1234,
    model: "upstream-name",
    choices: [{ index: 0, finish_reason: finish, message }],
    ...(usage ? { usage } : {}),
  });
  const params = { input: "x", model: "served", temperature: 0.3 };

  test("reasoning item, message, function calls in order; usage mapped (total copied, not recomputed)", () => {
    const response = chatCompletionToResponse(
      params,
      completion({ role: "assistant", content: "<think>a</think>\n\nanswer<think>b</think>", tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: "{}" } }] }),
      { usesReasoningParser: true },
    );
    const output = response.output as any[];
    expect(output.map((i) => i.type)).toEqual(["reasoning", "message", "function_call"]);
    expect(output[0].summary).toEqual([{ text: "a", type: "summary_text" }, { text: "b", type: "summary_text" }]);
    expect(output[0].id).toMatch(/^rs_[0-9a-f]{32}$/);
    expect(output[1].content[0]).toEqual({ annotations: [], text: "\n\nanswer", type: "output_text", logprobs: null });
    expect(output[2]).toEqual({ arguments: "{}", call_id: "call_1", name: "f", type: "function_call", id: "call_1", status: "completed" });
    expect(response).toMatchObject({ model: "served", created_at: 1234, status: "completed", incomplete_details: null, temperature: 0.3, tool_choice: "auto", parallel_tool_calls: true, tools: [] });
    expect(response.usage).toEqual({ input_tokens: 5, input_tokens_details: { cached_tokens: null }, output_tokens: 3, output_tokens_details: { reasoning_tokens: null }, total_tokens: 9 });
    expect(Object.keys(response)[0]).toBe("id");
  });

  test("an empty completion still yields one empty message; length and content_filter are incomplete", () => {
    const length = chatCompletionToResponse(params, completion({ role: "assistant", content: null }, "length", null), { usesReasoningParser: true });
    expect((length.output as any[]).map((i) => i.type)).toEqual(["message"]);
    expect(length).toMatchObject({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, usage: null });
    const filtered = chatCompletionToResponse(params, completion({ role: "assistant", content: "" }, "content_filter"), { usesReasoningParser: true });
    expect(filtered.incomplete_details).toEqual({ reason: "content_filter" });
  });

  test("unclosed <think> stays as text; with the parser off think tags are plain text", () => {
    const open = chatCompletionToResponse(params, completion({ role: "assistant", content: "<think>never closed" }), { usesReasoningParser: true });
    expect((open.output as any[])[0].content[0].text).toBe("<think>never closed");
    const off = chatCompletionToResponse(params, completion({ role: "assistant", content: "<think>a</think>b" }), { usesReasoningParser: false });
    expect((off.output as any[]).map((i) => i.type)).toEqual(["message"]);
  });

  test("cached and reasoning token details from nested fields or provider aliases", () => {
    const usage = { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8, cache_read_input_tokens: 2, completion_tokens_details: { reasoning_tokens: 1 } };
    const response = chatCompletionToResponse(params, completion({ role: "assistant", content: "x" }, "stop", usage), { usesReasoningParser: true });
    expect(response.usage).toMatchObject({ input_tokens_details: { cached_tokens: 2 }, output_tokens_details: { reasoning_tokens: 1 } });
  });
});
