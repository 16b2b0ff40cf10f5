/**
 * The streaming dialects: the Codex request mapping (vectors of NeMo Gym's tests/unit_tests/
 * test_responses_api_model_streaming.py, 07d6b0d), the Responses event stream and chat chunks as OpenAI sends
 * them (golden sequences), and SSE framing read back.
 */
import { describe, expect, test } from "bun:test";
import { checkResponseCreateParams } from "../responses.ts";
import { chatCompletionChunks, chatCompletionFrames } from "./chat-chunks.ts";
import { failedResponseEvents, responseStreamEvents, responseStreamFrames } from "./responses-events.ts";
import { restoreNamespace, streamingResponsesRequest } from "./responses-request.ts";
import { parseSse, sseFrame } from "./sse.ts";

const NAMESPACE_TOOL = {
  type: "namespace",
  name: "mcp__weather",
  description: "Tools in the mcp__weather namespace.",
  tools: [{ type: "function", name: "get_weather", description: "Get the weather.", strict: false, parameters: { type: "object", properties: { city: { type: "string" } } } }],
};
const FUNCTION_TOOL = { type: "function", name: "exec_command", description: "Run a command.", strict: false, parameters: { type: "object", properties: {} } };
const clean = (body: Record<string, unknown>) => {
  const out = streamingResponsesRequest(body);
  expect(checkResponseCreateParams(out.body).ok).toBe(true);
  return out;
};

describe("a streaming Responses request (Codex) → strict create params", () => {
  test("stream and bookkeeping fields are dropped, known ones kept", () => {
    const { body, dropped } = clean({ input: [], stream: true, client_metadata: { x: 1 }, prompt_cache_key: "abc", store: false });
    expect(body).toEqual({ input: [], store: false });
    expect(dropped).toEqual(["client_metadata", "prompt_cache_key"]);
  });

  test("namespace tools flatten to <namespace>__<name>; function tools stay; unknown tool kinds are dropped", () => {
    const { body, namespaces } = clean({ input: [], stream: true, tools: [FUNCTION_TOOL, NAMESPACE_TOOL, { type: "totally_unknown_tool_kind", config: 1 }] });
    expect(body.tools).toEqual([FUNCTION_TOOL, { ...NAMESPACE_TOOL.tools[0], type: "function", name: "mcp__weather__get_weather" }]);
    expect([...namespaces]).toEqual([["mcp__weather__get_weather", { namespace: "mcp__weather", name: "get_weather" }]]);
  });

  test("replayed namespaced calls are renamed; additional_tools items hoist their function tools", () => {
    const { body } = clean({
      stream: true,
      input: [
        { type: "additional_tools", role: "developer", tools: [{ type: "custom", name: "exec", format: {} }, { ...FUNCTION_TOOL, name: "wait" }, NAMESPACE_TOOL] },
        { type: "function_call", namespace: "mcp__weather", name: "get_weather", arguments: "{}", call_id: "call_1" },
        { type: "function_call_output", call_id: "call_1", output: "sunny" },
      ],
    });
    expect(body.input).toEqual([
      { type: "function_call", name: "mcp__weather__get_weather", arguments: "{}", call_id: "call_1" },
      { type: "function_call_output", call_id: "call_1", output: "sunny" },
    ]);
    expect((body.tools as { name: string }[]).map((t) => t.name)).toEqual(["wait", "mcp__weather__get_weather"]);
  });

  test("input items gym cannot express are dropped one by one", () => {
    const { body, dropped } = clean({ stream: true, input: [{ type: "ghost_item", x: 1 }, { type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] }] });
    expect((body.input as { type: string }[]).map((i) => i.type)).toEqual(["message"]);
    expect(dropped).toEqual(['input item of type "ghost_item"']);
  });

  test("leading developer/system messages become instructions (after any given); later ones stay", () => {
    const dev = (text: unknown) => ({ type: "message", role: "developer", content: text });
    expect(clean({ stream: true, input: [dev([{ type: "input_text", text: "You are Codex." }]), dev([{ type: "input_text", text: "<permissions>" }]), { type: "message", role: "user", content: "hi" }] }).body).toEqual({
      input: [{ type: "message", role: "user", content: "hi" }],
      instructions: "You are Codex.\n\n<permissions>",
    });
    expect(clean({ stream: true, instructions: "base instructions", input: [dev("perms"), { role: "user", content: "hi" }] }).body.instructions).toBe("base instructions\n\nperms");
    const mid = clean({ stream: true, input: [{ role: "user", content: "hi" }, dev("mid-run steer")] }).body;
    expect("instructions" in mid).toBe(false);
    expect(mid.input).toHaveLength(2);
  });

  test("the caller's body is not changed; a call's namespace is restored on the way out", () => {
    const body = { input: [], stream: true, tools: [NAMESPACE_TOOL] };
    const { namespaces } = streamingResponsesRequest(body);
    expect(body).toEqual({ input: [], stream: true, tools: [NAMESPACE_TOOL] });
    expect(restoreNamespace({ type: "function_call", name: "mcp__weather__get_weather", call_id: "c", arguments: "{}" }, namespaces)).toEqual({ type: "function_call", name: "get_weather", namespace: "mcp__weather", call_id: "c", arguments: "{}" });
    expect(restoreNamespace({ type: "function_call", name: "other", call_id: "c", arguments: "{}" }, namespaces).namespace).toBeUndefined();
  });
});

const RESPONSE = {
  id: "resp_1",
  object: "response",
  created_at: 1,
  model: "m",
  status: "completed",
  output: [
    { id: "rs_1", type: "reasoning", summary: [{ type: "summary_text", text: "think" }] },
    { id: "msg_1", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Hello", annotations: [] }] },
    { id: "fc_1", type: "function_call", call_id: "call_1", name: "f", arguments: '{"a":1}', status: "completed" },
  ],
  usage: { input_tokens: 3, output_tokens: 5, total_tokens: 8 },
  incomplete_details: null,
};

describe("a Responses object → the Responses event stream", () => {
  test("the golden sequence, numbered, with each item's added/delta/done events", () => {
    const events = responseStreamEvents(RESPONSE);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events.map((e) => e.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.done",
      "response.reasoning_summary_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(events[0]!.response).toEqual({ ...RESPONSE, status: "in_progress", output: [], usage: null, incomplete_details: null });
    expect(events[10]).toEqual({ type: "response.output_text.delta", sequence_number: 10, item_id: "msg_1", output_index: 1, content_index: 0, delta: "Hello", logprobs: [] });
    expect(events[14]!.item).toEqual({ ...RESPONSE.output[2], arguments: "", status: "in_progress" });
    expect(events[15]).toMatchObject({ item_id: "fc_1", output_index: 2, delta: '{"a":1}' });
    expect(events[18]!.response).toBe(RESPONSE);
  });

  test("an incomplete answer ends in response.incomplete; frames carry event: names; a failure is terminal response.failed", () => {
    expect(responseStreamEvents({ ...RESPONSE, status: "incomplete" }).at(-1)!.type).toBe("response.incomplete");
    const read = parseSse(responseStreamFrames(RESPONSE).join(""));
    expect(read.map((e) => e.event)).toEqual(responseStreamEvents(RESPONSE).map((e) => e.type as string));
    expect(failedResponseEvents("resp_x", "boom").map((e) => [e.type, (e.response as { status: string }).status])).toEqual([
      ["response.created", "in_progress"],
      ["response.failed", "failed"],
    ]);
  });
});

const COMPLETION = {
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 7,
  model: "m",
  choices: [{ index: 0, finish_reason: "tool_calls", logprobs: null, message: { role: "assistant", content: "Hi", reasoning_content: "hmm", tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: '{"a":1}' } }] } }],
  usage: { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 },
};

describe("a chat completion → chat.completion.chunk events", () => {
  test("role, reasoning, content, the tool call's head then arguments, finish; usage chunk last when asked", () => {
    const chunks = chatCompletionChunks(COMPLETION, true);
    const base = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 7, model: "m" };
    const choice = (delta: unknown, finish: string | null = null) => ({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], usage: null });
    expect(chunks).toEqual([
      choice({ role: "assistant", content: "", refusal: null }),
      choice({ reasoning_content: "hmm" }),
      choice({ content: "Hi" }),
      choice({ tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "f", arguments: "" } }] }),
      choice({ tool_calls: [{ index: 0, function: { arguments: '{"a":1}' } }] }),
      choice({}, "tool_calls"),
      { ...base, choices: [], usage: COMPLETION.usage },
    ]);
    expect(chatCompletionChunks(COMPLETION, false).every((c) => !("usage" in c))).toBe(true);
    expect(chatCompletionFrames(COMPLETION, false).at(-1)).toBe("data: [DONE]\n\n");
  });
});

describe("SSE framing", () => {
  test("frames read back, with CRLF, comments and multi-line data", () => {
    expect(sseFrame({ a: 1 }, "x") + sseFrame("[DONE]")).toBe('event: x\ndata: {"a":1}\n\ndata: [DONE]\n\n');
    expect(parseSse(": comment\r\nevent: a\r\ndata: 1\r\ndata: 2\r\n\r\ndata: [DONE]")).toEqual([{ event: "a", data: "1\n2" }, { data: "[DONE]" }]);
  });
});
