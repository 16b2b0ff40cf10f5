/** answerModelApi against a scripted inner call: namespaces restored on the way out, the exchange observed once with what the client was told. */
import { describe, expect, test } from "bun:test";
import { parseSse } from "../../protocol/streaming/sse.ts";
import { answerModelApi, type ModelApiExchange } from "./answer.ts";

const NAMESPACE_TOOL = { type: "namespace", name: "mcp__weather", tools: [{ type: "function", name: "get_weather", strict: false, parameters: { type: "object", properties: {} } }] };
const RESPONSE = {
  id: "resp_1",
  object: "response",
  created_at: 1,
  model: "m",
  status: "completed",
  output: [{ id: "fc_1", type: "function_call", call_id: "call_1", name: "mcp__weather__get_weather", arguments: "{}", status: "completed" }],
  parallel_tool_calls: true,
  tool_choice: "auto",
  tools: [],
  usage: { input_tokens: 1, input_tokens_details: { cached_tokens: 0 }, output_tokens: 1, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 2 },
};

describe("answerModelApi", () => {
  test("a Codex namespace tool reaches the model flattened and comes back under its namespace", async () => {
    const sent: unknown[] = [];
    const heard: ModelApiExchange[] = [];
    const answer = await answerModelApi(
      "/v1/responses",
      JSON.stringify({ model: "x", input: "weather?", tools: [NAMESPACE_TOOL], stream: true, prompt_cache_key: "k" }),
      async (path, body) => (sent.push([path, body]), { status: 200, text: JSON.stringify(RESPONSE) }),
      (exchange) => heard.push(exchange),
    );
    expect(sent).toEqual([["/v1/responses", { model: "x", input: "weather?", tools: [{ ...NAMESPACE_TOOL.tools[0], type: "function", name: "mcp__weather__get_weather" }] }]]);
    const done = parseSse(await answer.text()).map((e) => JSON.parse(e.data)).find((e) => e.type === "response.output_item.done");
    expect(done.item).toMatchObject({ name: "get_weather", namespace: "mcp__weather" });
    expect(heard).toHaveLength(1);
    expect(heard[0]!.answer).toEqual(RESPONSE);
    expect((heard[0]!.reply as typeof RESPONSE).output[0]).toMatchObject({ name: "get_weather", namespace: "mcp__weather" });
    expect(heard[0]!).toMatchObject({ dialect: "responses", stream: true, status: 200, clientStatus: 200 });
  });

  test("an inner answer that is not JSON is passed through on a plain call, and is a Messages api_error", async () => {
    const inner = async () => ({ status: 200, text: "<html>" });
    const plain = await answerModelApi("/v1/chat/completions", JSON.stringify({ messages: [] }), inner);
    expect([plain.status, await plain.text()]).toEqual([200, "<html>"]);
    const messages = await answerModelApi("/v1/messages", JSON.stringify({ max_tokens: 1, messages: [] }), inner);
    expect(messages.status).toBe(500);
    expect(await messages.json()).toMatchObject({ type: "error", error: { type: "api_error" } });
  });
});
