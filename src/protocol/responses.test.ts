import { describe, expect, test } from "bun:test";
import { checkResponseCreateParams, isValidResponse, responseProblems } from "./responses.ts";
import { accumulateUsage, dumpResponse, dumpResponseCreateParams } from "./responses-dump.ts";
import { buildVerifyRequest, checkRunRequest, orderRunResult, rolloutIdOf } from "./run.ts";

const weatherTool = {
  type: "function",
  name: "get_weather",
  parameters: { type: "object", properties: { city: { type: "string" } } },
  strict: true,
};

describe("responses_create_params (strict)", () => {
  test("accepts a string input and a dataset row's params", () => {
    expect(checkResponseCreateParams({ input: "hi" }).ok).toBe(true);
    const row = {
      input: [
        { content: "You are helpful.", role: "developer" },
        { content: "what's it like in sf?", role: "user" },
      ],
      tools: [{ ...weatherTool, description: "" }],
    };
    expect(checkResponseCreateParams(row).ok).toBe(true);
  });

  test("accepts replayed output items and tool outputs", () => {
    const input = [
      { role: "user", content: "q" },
      { id: "rs_1", type: "reasoning", summary: [{ type: "summary_text", text: "t" }] },
      { type: "function_call", call_id: "c1", name: "get_weather", arguments: '{"city":"SF"}' },
      { type: "function_call_output", call_id: "c1", output: "cold" },
      { id: "msg_1", type: "message", role: "assistant", content: [{ type: "output_text", text: "ok", annotations: [] }] },
    ];
    expect(checkResponseCreateParams({ input }).ok).toBe(true);
  });

  test("unknown key → 422 extra_forbidden in FastAPI's shape", () => {
    const result = checkResponseCreateParams({ input: "hi", foo: 1 });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.detail).toEqual([
        { type: "extra_forbidden", loc: ["body", "foo"], msg: "Extra inputs are not permitted", input: 1 },
      ]);
    }
  });

  test("missing input, non-string metadata, null parallel_tool_calls, tool without strict", () => {
    const missing = checkResponseCreateParams({});
    expect(!missing.ok && missing.error.detail[0]).toMatchObject({ type: "missing", loc: ["body", "input"], msg: "Field required" });
    const metadata = checkResponseCreateParams({ input: "x", metadata: { extra_body: { seed: 1 } } });
    expect(!metadata.ok && metadata.error.detail[0]).toMatchObject({ type: "string_type", loc: ["body", "metadata", "extra_body"] });
    const ptc = checkResponseCreateParams({ input: "x", parallel_tool_calls: null });
    expect(!ptc.ok && ptc.error.detail[0]).toMatchObject({ type: "bool_type", loc: ["body", "parallel_tool_calls"] });
    const { strict: _, ...noStrict } = weatherTool;
    const tool = checkResponseCreateParams({ input: "x", tools: [noStrict] });
    expect(!tool.ok && tool.error.detail[0]).toMatchObject({ type: "missing", loc: ["body", "tools", 0, "strict"] });
  });

  test("enumerations and an untyped item without role", () => {
    const tier = checkResponseCreateParams({ input: "x", service_tier: "fast" });
    expect(!tier.ok && tier.error.detail[0]).toMatchObject({ type: "literal_error", loc: ["body", "service_tier"] });
    const item = checkResponseCreateParams({ input: [{ content: "no role" }] });
    expect(item.ok).toBe(false);
    const badCall = checkResponseCreateParams({ input: [{ type: "function_call", call_id: "c", name: "f", arguments: { a: 1 } }] });
    expect(!badCall.ok && badCall.error.detail[0]).toMatchObject({ type: "string_type", loc: ["body", "input", 0, "arguments"] });
  });

  test("/run needs responses_create_params and checks it strictly under its own loc", () => {
    expect(checkRunRequest({ x: 1 }).ok).toBe(false);
    const bad = checkRunRequest({ responses_create_params: { input: "x", bogus: true }, extra: 1 });
    expect(!bad.ok && bad.error.detail[0]!.loc).toEqual(["body", "responses_create_params", "bogus"]);
    expect(checkRunRequest({ responses_create_params: { input: "x" }, anything: { goes: 1 } }).ok).toBe(true);
  });
});

const response = {
  id: "resp_1",
  created_at: 1,
  model: "m",
  object: "response",
  output: [{ id: "msg_1", type: "message", role: "assistant", content: [{ type: "output_text", text: "hi", annotations: [] }], extra: 1 }],
  parallel_tool_calls: true,
  tool_choice: "auto",
  tools: [],
  usage: { input_tokens: 1, input_tokens_details: { cached_tokens: 0 }, output_tokens: 2, output_tokens_details: { reasoning_tokens: null }, total_tokens: 3 },
  content_filters: [],
};

describe("Response validation and dumps", () => {
  test("valid response; missing annotations or usage details make it invalid", () => {
    expect(isValidResponse(response)).toBe(true);
    const noAnnotations = structuredClone(response) as any;
    delete noAnnotations.output[0].content[0].annotations;
    expect(isValidResponse(noAnnotations)).toBe(false);
    const badUsage = structuredClone(response) as any;
    badUsage.usage.input_tokens_details = {};
    expect(responseProblems(badUsage).join()).toContain("usage.input_tokens_details.cached_tokens");
  });

  test("full dump: declared keys in SDK order, Gym item keys only, extras kept at the end", () => {
    const dumped = dumpResponse(response);
    const keys = Object.keys(dumped);
    expect(keys.slice(0, 9)).toEqual(["id", "created_at", "error", "incomplete_details", "instructions", "metadata", "model", "object", "output"]);
    expect(keys.at(-1)).toBe("content_filters");
    expect((dumped.output as any[])[0]).toEqual({
      id: "msg_1",
      content: [{ annotations: [], text: "hi", type: "output_text", logprobs: null }],
      role: "assistant",
      status: "completed",
      type: "message",
    });
  });

  test("create params dump has 23 keys with HEAD defaults; easy messages get type", () => {
    const dumped = dumpResponseCreateParams({ input: [{ role: "user", content: "q" }] });
    expect(Object.keys(dumped)).toHaveLength(23);
    expect(dumped.parallel_tool_calls).toBe(true);
    expect(dumped.tool_choice).toBe("auto");
    expect(dumped.tools).toEqual([]);
    expect(dumped.input).toEqual([{ content: "q", role: "user", type: "message" }]);
  });

  test("usage sums propagate unknown detail counts as null", () => {
    const a = response.usage;
    const b = { ...a, input_tokens_details: { cached_tokens: 5 }, output_tokens_details: { reasoning_tokens: 1 } };
    const sum = accumulateUsage(accumulateUsage(null, b), a)!;
    expect(sum.total_tokens).toBe(6);
    expect(sum.input_tokens_details.cached_tokens).toBe(5);
    expect(sum.output_tokens_details.reasoning_tokens).toBeNull();
    expect(accumulateUsage(a, null)).toBe(a);
  });

  test("verify request and run result key order", () => {
    const row = { uuid: "u", responses_create_params: { input: "q" }, expected_answer: "B", _ng_task_index: 3, _ng_rollout_index: 1 };
    const verifyRequest = buildVerifyRequest(row, response);
    expect(Object.keys(verifyRequest)).toEqual(["responses_create_params", "response", "uuid", "expected_answer", "_ng_task_index", "_ng_rollout_index"]);
    const result = orderRunResult({ extracted_answer: "B", reward: 1, response, responses_create_params: { input: "q" } });
    expect(Object.keys(result)).toEqual(["responses_create_params", "response", "reward", "extracted_answer"]);
    expect(rolloutIdOf(row)).toBe("3-1");
    expect(rolloutIdOf({ ...row, _ng_attempt_index: 2 })).toBe("3-1-a2");
    expect(rolloutIdOf({ _ng_rollout_id: "x" })).toBe("x");
  });
});
