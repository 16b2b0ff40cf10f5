/** The model server conformance suite: the same Responses and Chat Completions calls, run against every model server type, in-process and over HTTP. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Hono } from "hono";
import { serve, type ServedApp } from "../../runtime/serve.ts";
import type { ServerClient } from "../../servers/client.ts";
import { HttpServerClient } from "../../servers/http.ts";
import { InProcessServerClient } from "../../servers/in-process.ts";
import type { SeenCall } from "../../testing/model-stand-in.ts";
import { streamingTests, type SdkTarget } from "./streaming.case.ts";

/** A model server built against a stand-in upstream that refuses any route, query or header but the provider's own. */
export interface ModelSubject {
  app: Hono<any>;
  /** The model the server is configured with (named in every answer). */
  model: string;
  /** Every call the stand-in received so far. */
  seen(): Promise<SeenCall[]>;
  /** The stand-in's next accepted call answers `status` with `body`. */
  failNext(status: number, body: unknown): Promise<void>;
  close(): Promise<void>;
}

const MCQA = "Answer with the letter inside \\boxed{}. Which is a prime number?\nA: 4\nB: 7\nC: 8\nD: 9";
const WEATHER_TOOL = { type: "function", name: "get_weather", description: "Weather in a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] }, strict: true };

const outputText = (response: any) =>
  (response.output as any[]).filter((i) => i.type === "message").flatMap((i) => i.content).filter((p: any) => p.type === "output_text").map((p: any) => p.text).join("");

/** Runs the suite for one model server type, once in-process (app.fetch) and once over loopback HTTP. */
export function modelConformanceSuite(label: string, build: () => Promise<ModelSubject>): void {
  for (const transport of ["in-process", "HTTP over loopback"] as const) {
    describe(`model conformance: ${label} (${transport})`, () => {
      let subject: ModelSubject;
      let client: ServerClient;
      let served: ServedApp | undefined;
      beforeAll(async () => {
        subject = await build();
        if (transport === "in-process") client = new InProcessServerClient("policy_model", subject.app);
        else {
          served = await serve(subject.app.fetch);
          client = new HttpServerClient("policy_model", served.url);
        }
      }, 60_000);
      const target = (): SdkTarget =>
        served ? { baseUrl: served.url, fetch: (input, init) => fetch(input, init) } : { baseUrl: "http://in-process", fetch: async (input, init) => subject.app.fetch(new Request(input, init)) };
      streamingTests(() => subject, target);
      afterAll(async () => {
        await client?.close();
        await served?.stop();
        await subject?.close();
      });

      test("a multiple-choice prompt is answered as a completed Responses object with usage", async () => {
        const before = (await subject.seen()).length;
        const reply = await client.post("/v1/responses", { input: [{ role: "user", content: MCQA }], temperature: 0.5 });
        expect(reply.status).toBe(200);
        const response = reply.json<any>();
        expect(response).toMatchObject({ object: "response", model: subject.model, status: "completed" });
        expect(outputText(response)).toMatch(/\\boxed\{[ABCD]\}/);
        expect(response.usage.input_tokens).toBeGreaterThan(0);
        expect(response.usage.output_tokens).toBeGreaterThan(0);
        const calls = (await subject.seen()).slice(before);
        expect(calls).toHaveLength(1);
        expect(calls[0]!.refused).toBeUndefined();
        expect(calls[0]!.body!.model).toBe(subject.model);
        expect(calls[0]!.body!.temperature).toBe(0.5);
      });

      test("a tool is called, and its output answered", async () => {
        const first = (await client.post("/v1/responses", { input: "what's the weather in sf?", tools: [WEATHER_TOOL] })).json<any>();
        const call = first.output.find((i: any) => i.type === "function_call");
        expect(call).toMatchObject({ type: "function_call", name: "get_weather" });
        expect(JSON.parse(call.arguments)).toEqual({ city: "San Francisco" });
        const second = await client.post("/v1/responses", {
          input: [
            { role: "user", content: "what's the weather in sf?" },
            { type: "function_call", call_id: call.call_id, name: call.name, arguments: call.arguments },
            { type: "function_call_output", call_id: call.call_id, output: '{"weather": "sunny"}' },
          ],
          tools: [WEATHER_TOOL],
        });
        expect(second.status).toBe(200);
        expect(outputText(second.json<any>()).length).toBeGreaterThan(0);
        expect((await subject.seen()).filter((c) => c.refused)).toEqual([]);
      });

      test("chat completions are answered with choices, for the configured model", async () => {
        const reply = await client.post("/v1/chat/completions", { messages: [{ role: "user", content: MCQA }] });
        expect(reply.status).toBe(200);
        const completion = reply.json<any>();
        expect(completion.model).toBe(subject.model);
        expect(completion.choices[0].message.content).toMatch(/\\boxed\{[ABCD]\}/);
        expect((await subject.seen()).filter((c) => c.refused)).toEqual([]);
      });

      test("a body with a field the Responses API does not have is FastAPI's 422", async () => {
        const reply = await client.post("/v1/responses", { input: "x", nope: 1 });
        expect(reply.status).toBe(422);
        expect(reply.json<any>().detail[0]).toMatchObject({ type: "extra_forbidden", loc: ["body", "nope"] });
      });

      test("a rate limit is retried until the upstream answers", async () => {
        const before = (await subject.seen()).length;
        await subject.failNext(429, { error: { message: "slow down", type: "rate_limit_exceeded" } });
        const reply = await client.post("/v1/responses", { input: "hello" });
        expect(reply.status).toBe(200);
        expect((await subject.seen()).length - before).toBe(2);
      });

      test("a request the upstream refuses is NeMo Gym's inner-server 500, carrying the upstream's body", async () => {
        await subject.failNext(400, { error: { message: "unsupported parameter: foo", type: "invalid_request_error" } });
        const reply = await client.post("/v1/responses", { input: "hello" });
        expect(reply.status).toBe(500);
        expect(reply.json<string>()).toContain("calling an inner server: b'");
        expect(reply.json<string>()).toContain("unsupported parameter: foo");
      });
    });
  }
}
