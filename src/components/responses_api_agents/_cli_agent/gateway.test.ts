// The CLI's gateway over its Unix socket: only the rollout's token gets through (and never reaches the model
// server), calls past max_turns are refused before they reach it, and each call — JSON or streamed, in all three
// APIs — is captured with its text, tool calls, the tool results sent back and usage.
import { afterAll, describe, expect, test } from "bun:test";
import { HttpServerClient } from "../../../servers/http.ts";
import { cliModel } from "../../../testing/cli-model.ts";
import { openGateway } from "./gateway.ts";

const m = cliModel({ commands: ["echo one"], final: "all done" });
afterAll(() => m.stop());
const model = new HttpServerClient("policy_model", m.url.replace(/\/v1$/, ""));
let rollouts = 0;
const open = (maxTurns: number | null) => openGateway({ model, rolloutId: `${++rollouts}-0`, maxTurns });
const post = (socket: string, path: string, body: unknown, headers: Record<string, string>) =>
  fetch(`http://gateway${path}`, { method: "POST", unix: socket, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) } as RequestInit);

describe("the model gateway", () => {
  test("refuses a missing or wrong token without calling the model server; the right one is forwarded without it", async () => {
    const gw = await open(null);
    try {
      const before = m.seen.length;
      expect((await post(gw.socket, "/v1/responses", { input: "hi" }, {})).status).toBe(401);
      expect((await post(gw.socket, "/v1/responses", { input: "hi" }, { authorization: "Bearer gym-rollout-nope" })).status).toBe(401);
      expect(m.seen.length).toBe(before);
      const ok = await post(gw.socket, "/v1/responses", { input: "hi" }, { authorization: `Bearer ${gw.token}` });
      expect(ok.status).toBe(200);
      expect(m.seen.at(-1)).toMatchObject({ path: `/ng-rollout/${rollouts}-0/v1/responses`, credential: null });
      expect(gw.calls()).toHaveLength(1);
      expect(gw.calls()[0]).toMatchObject({ api: "responses", text: "scripted title", error: null });
    } finally {
      await gw.stop();
    }
  });

  test("refuses the call past max_turns with a 429", async () => {
    const gw = await open(1);
    try {
      const auth = { "x-api-key": gw.token };
      expect((await post(gw.socket, "/v1/messages", { messages: [] }, auth)).status).toBe(200);
      const refused = await post(gw.socket, "/v1/messages", { messages: [] }, auth);
      expect(refused.status).toBe(429);
      expect(await refused.text()).toContain("max_turns (1)");
      expect(gw.refusedTurns).toBe(1);
      expect(gw.calls()).toHaveLength(1);
    } finally {
      await gw.stop();
    }
  });

  const tools = {
    responses: { tools: [{ type: "function", name: "exec_command", parameters: { type: "object", properties: {} }, strict: false }] },
    chat: { tools: [{ type: "function", function: { name: "bash" } }] },
    messages: { tools: [{ name: "Bash" }] },
  };
  const requests = [
    ["/v1/responses", (stream: boolean) => [{ ...tools.responses, stream, input: [] }, { ...tools.responses, stream, input: [{ type: "function_call_output", call_id: "call_x", output: "one\n" }] }]],
    ["/v1/chat/completions", (stream: boolean) => [{ ...tools.chat, stream, messages: [] }, { ...tools.chat, stream, messages: [{ role: "tool", tool_call_id: "call_x", content: "one\n" }] }]],
    ["/v1/messages", (stream: boolean) => [{ ...tools.messages, stream, messages: [] }, { ...tools.messages, stream, messages: [{ role: "user", content: [{ type: "tool_result", tool_use_id: "call_x", content: "one\n" }] }] }]],
  ] as const;
  for (const [path, bodies] of requests) {
    for (const stream of [false, true]) {
      test(`captures ${path} ${stream ? "streamed" : "as JSON"}: the tool call, the result sent back, the final text and usage`, async () => {
        const gw = await open(null);
        try {
          const [first, second] = bodies(stream);
          const a = await post(gw.socket, path, first, { authorization: `Bearer ${gw.token}` });
          expect(a.headers.get("content-type")).toContain(stream ? "text/event-stream" : "application/json");
          await a.text();
          await (await post(gw.socket, path, second, { authorization: `Bearer ${gw.token}` })).text();
          const [call1, call2] = gw.calls();
          expect(call1!.toolCalls).toHaveLength(1);
          expect(JSON.parse(call1!.toolCalls[0]!.arguments)).toMatchObject(path === "/v1/responses" ? { cmd: "echo one" } : { command: "echo one" });
          expect(call1!.usage).toMatchObject({ input_tokens: expect.any(Number), output_tokens: 20 });
          expect(call2!.toolResults.get("call_x")).toBe("one\n");
          expect(call2!.text).toBe("all done");
          expect(call2!.toolCalls).toEqual([]);
        } finally {
          await gw.stop();
        }
      });
    }
  }
});
