import { describe, expect, test } from "bun:test";
import { InProcessServerClient } from "../../../servers/in-process.ts";
import { postUpstream } from "../../../servers/upstream.ts";
import { serve } from "../../../runtime/serve.ts";
import mockModel from "./index.ts";
import { decide, optionLetters } from "./policy.ts";

const context = {} as never;
const mcq = "Which test detects the mutation?\nA: Karyotyping\nB: PCR\nC: Sequencing\nD: Painting";

describe("mock_model policy", () => {
  test("multiple-choice prompts get one of the listed letters, the same one every time", () => {
    expect(optionLetters(mcq)).toEqual(["A", "B", "C", "D"]);
    const a = decide([{ role: "user", text: mcq }], []);
    expect(a.text).toMatch(/Answer: ([A-D])\n\n\\boxed\{\1\}$/);
    expect(decide([{ role: "user", text: mcq }], []).text).toBe(a.text!);
    expect(optionLetters("no options here\nA: only one")).toEqual([]);
  });

  test("with tools: one call with arguments from the prompt, then a report of the tool result", () => {
    const tools = [{ name: "get_weather", parameters: { properties: { city: { type: "string" } } } }];
    const first = decide([{ role: "user", text: "how's the weather in Paris today?" }], tools);
    expect(first.calls).toEqual([{ id: expect.stringMatching(/^call_/), name: "get_weather", arguments: '{"city":"Paris"}' }]);
    const second = decide([{ role: "user", text: "weather?" }, { role: "assistant", text: "", call: first.calls[0] }, { role: "tool", text: "cold" }], tools);
    expect(second).toEqual({ text: "Here is what I found: cold", calls: [], reasoning: undefined });
  });
});

describe("mock_model faults", () => {
  test("forced faults by header: 500, 429 with Retry-After, malformed body; hang ends at the client's timeout", async () => {
    const client = new InProcessServerClient("mock", await mockModel({ name: "m", retry_after_seconds: 7 }, context));
    const body = { input: "hi" };
    expect((await client.post("/v1/responses", body, { headers: { "x-mock-fault": "500" } })).status).toBe(500);
    const limited = await client.post("/v1/responses", body, { headers: { "x-mock-fault": "429" } });
    expect([limited.status, limited.headers.get("retry-after")]).toEqual([429, "7"]);
    const malformed = await client.post("/v1/responses", body, { headers: { "x-mock-fault": "malformed" } });
    expect(malformed.status).toBe(200);
    expect(() => malformed.json()).toThrow();
    const hung = await client.post("/v1/responses", body, { headers: { "x-mock-fault": "hang" }, timeoutMs: 50 }).catch((e) => e);
    expect(hung).toMatchObject({ code: "E_HTTP", reason: "timeout" });
  });

  test("rates are deterministic per (seed, body, attempt): retries of one body eventually pass", async () => {
    const app = await mockModel({ name: "m", rate_limit_rate: 0.5, retry_after_seconds: 0, seed: 1 }, context);
    const served = await serve(app.fetch);
    const retries: number[] = [];
    const answer = await postUpstream<any>(`${served.url}/v1/chat/completions`, { messages: [{ role: "user", content: "hi" }] }, {
      baseDelayMs: 1,
      maxRetries: 20,
      onRetry: (info) => retries.push(info.status!),
    });
    expect(answer.object).toBe("chat.completion");
    expect(retries.every((s) => s === 429)).toBe(true);
    // The same seed gives the same schedule.
    const again = await mockModel({ name: "m", rate_limit_rate: 0.5, retry_after_seconds: 0, seed: 1 }, context);
    const statuses: number[] = [];
    for (let i = 0; i <= retries.length; i++) {
      statuses.push((await again.request("/v1/chat/completions", { method: "POST", body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }) })).status);
    }
    expect(statuses).toEqual([...retries, 200]);
    await served.stop();
  });

  test("max_output_tokens below the answer length gives an incomplete response", async () => {
    const app = await mockModel({ name: "m" }, context);
    const reply = await app.request("/v1/responses", { method: "POST", body: JSON.stringify({ input: "tell me a long story about nothing", max_output_tokens: 2 }) });
    expect(await reply.json()).toMatchObject({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } });
  });
});
