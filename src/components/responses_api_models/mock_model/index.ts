/** mock_model: a deterministic, offline, OpenAI-compatible model server with injectable faults (latency, 5xx, 429, hangs, bad bodies). */
import type { Context } from "hono";
import { checkResponseCreateParams, type JsonObject } from "../../../protocol/responses.ts";
import { createGymApp, readJson, validationFailure, type GymEnv } from "../../../servers/gym-app.ts";
import type { ServerFactory } from "../../../servers/registry.ts";
import { sessionCookieName } from "../../../servers/session.ts";
import { decide, digest, tokenCount, type Decision, type ToolSpec, type Turn } from "./policy.ts";

export interface MockModelConfig {
  name?: string;
  model?: string;
  /** Delay before every answer, ms. */
  latency_ms?: number;
  /** Fractions of requests (decided by a hash of seed, body and attempt, so runs repeat exactly). */
  error_rate?: number;
  rate_limit_rate?: number;
  hang_rate?: number;
  malformed_rate?: number;
  retry_after_seconds?: number;
  seed?: number;
  /** Emit reasoning (a reasoning item on /v1/responses, `reasoning_content` on chat completions). */
  reasoning?: boolean;
}

type Fault = "500" | "429" | "hang" | "malformed" | undefined;

const factory: ServerFactory = (block) => {
  const config = block as MockModelConfig;
  const model = String(config.model ?? "mock");
  const attempts = new Map<string, number>();
  const app = createGymApp({ cookieName: sessionCookieName("MockModel", String(config.name ?? "mock_model")), rolloutPrefix: "model", modelApi: true });

  /** Picks this request's fault: forced by the `x-mock-fault` header, else drawn from the configured rates. */
  const faultFor = (c: Context<GymEnv>, body: unknown): Fault => {
    const forced = c.req.header("x-mock-fault");
    if (forced) return forced as Fault;
    const key = digest(body);
    const attempt = attempts.get(key) ?? 0;
    attempts.set(key, attempt + 1);
    let draw = parseInt(digest([config.seed ?? 0, key, attempt]).slice(0, 8), 16) / 0x100000000;
    for (const [rate, fault] of [
      [config.error_rate, "500"],
      [config.rate_limit_rate, "429"],
      [config.hang_rate, "hang"],
      [config.malformed_rate, "malformed"],
    ] as const) {
      if (draw < (rate ?? 0)) return fault;
      draw -= rate ?? 0;
    }
    return undefined;
  };

  const answer = async (c: Context<GymEnv>, body: unknown, build: () => JsonObject) => {
    if (config.latency_ms) await new Promise((resolve) => setTimeout(resolve, config.latency_ms));
    const fault = faultFor(c, body);
    if (fault === "hang") await new Promise(() => {});
    if (fault === "500") return c.json({ error: { message: "mock_model: injected server error", type: "server_error" } }, 500);
    if (fault === "429") {
      c.header("retry-after", String(config.retry_after_seconds ?? 1));
      return c.json({ error: { message: "mock_model: injected rate limit", type: "rate_limit_exceeded" } }, 429);
    }
    if (fault === "malformed") return c.body('{"id": "resp_broken", "output": [', 200, { "content-type": "application/json" });
    return c.json(build());
  };

  app.get("/v1/models", (c) => c.json({ object: "list", data: [{ id: model, object: "model", owned_by: "gym" }] }));

  app.post("/v1/responses", async (c) => {
    const body = await readJson<JsonObject>(c);
    const checked = checkResponseCreateParams(body);
    if (!checked.ok) throw validationFailure(checked.error);
    return answer(c, body, () => {
      const decision = decide(turnsFromResponsesInput(body.input), toolSpecs(body.tools, false), { reasoning: config.reasoning });
      return responseObject(body, decision, typeof body.model === "string" ? body.model : model);
    });
  });

  app.post("/v1/chat/completions", async (c) => {
    const body = await readJson<JsonObject>(c);
    return answer(c, body, () => {
      const decision = decide(turnsFromChat(body.messages), toolSpecs(body.tools, true), { reasoning: config.reasoning });
      return chatCompletion(body, decision, typeof body.model === "string" ? body.model : model);
    });
  });

  return app;
};

export default factory;

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (p as JsonObject)?.text ?? "").join("");
  return "";
}

/** Responses input items → turns. */
export function turnsFromResponsesInput(input: unknown): Turn[] {
  if (typeof input === "string") return [{ role: "user", text: input }];
  const turns: Turn[] = [];
  for (const item of (input as JsonObject[]) ?? []) {
    if (item.type === "function_call") {
      turns.push({ role: "assistant", text: "", call: { id: String(item.call_id), name: String(item.name), arguments: String(item.arguments) } });
    } else if (item.type === "function_call_output") turns.push({ role: "tool", text: textOf(item.output) });
    else if (item.type === undefined || item.type === "message") turns.push({ role: item.role as Turn["role"], text: textOf(item.content) });
  }
  return turns;
}

/** Chat messages → turns. */
export function turnsFromChat(messages: unknown): Turn[] {
  const turns: Turn[] = [];
  for (const message of (messages as JsonObject[]) ?? []) {
    const calls = (message.tool_calls as JsonObject[] | undefined) ?? [];
    turns.push({ role: message.role as Turn["role"], text: textOf(message.content) });
    for (const call of calls) {
      const fn = call.function as JsonObject;
      turns.push({ role: "assistant", text: "", call: { id: String(call.id), name: String(fn.name), arguments: String(fn.arguments) } });
    }
  }
  return turns;
}

function toolSpecs(tools: unknown, chat: boolean): ToolSpec[] {
  return ((tools as JsonObject[]) ?? [])
    .map((tool) => (chat ? (tool.function as JsonObject) : tool))
    .filter((tool) => tool && typeof tool.name === "string")
    .map((tool) => ({ name: String(tool.name), parameters: tool.parameters as ToolSpec["parameters"] }));
}

function truncate(decision: Decision, maxTokens: unknown): { decision: Decision; truncated: boolean } {
  if (typeof maxTokens !== "number" || !decision.text || tokenCount(decision.text) <= maxTokens) return { decision, truncated: false };
  return { decision: { ...decision, text: decision.text.slice(0, maxTokens * 4) }, truncated: true };
}

function responseObject(body: JsonObject, original: Decision, model: string): JsonObject {
  const { decision, truncated } = truncate(original, body.max_output_tokens);
  const id = digest([body, decision]).slice(0, 32);
  const output: JsonObject[] = [];
  if (decision.reasoning) output.push({ id: `rs_${id}`, type: "reasoning", summary: [{ type: "summary_text", text: decision.reasoning }] });
  if (decision.text !== undefined) {
    output.push({ id: `msg_${id}`, type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: decision.text, annotations: [] }] });
  }
  for (const call of decision.calls) output.push({ type: "function_call", id: call.id, call_id: call.id, name: call.name, arguments: call.arguments, status: "completed" });
  const inputTokens = tokenCount(JSON.stringify(body.input ?? ""));
  const outputTokens = tokenCount((decision.reasoning ?? "") + (decision.text ?? "") + decision.calls.map((c) => c.arguments).join(""));
  return {
    id: `resp_${id}`,
    created_at: 1_700_000_000,
    model,
    object: "response",
    output,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    tool_choice: body.tool_choice ?? "auto",
    tools: body.tools ?? [],
    temperature: body.temperature ?? null,
    top_p: body.top_p ?? null,
    metadata: body.metadata ?? null,
    instructions: body.instructions ?? null,
    status: truncated ? "incomplete" : "completed",
    incomplete_details: truncated ? { reason: "max_output_tokens" } : null,
    usage: {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: decision.reasoning ? tokenCount(decision.reasoning) : 0 },
      total_tokens: inputTokens + outputTokens,
    },
  };
}

function chatCompletion(body: JsonObject, original: Decision, model: string): JsonObject {
  const { decision, truncated } = truncate(original, body.max_tokens ?? body.max_completion_tokens);
  const message: JsonObject = { role: "assistant", content: decision.text ?? null };
  if (decision.calls.length) {
    message.tool_calls = decision.calls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } }));
  }
  if (decision.reasoning) message.reasoning_content = decision.reasoning;
  const promptTokens = tokenCount(JSON.stringify(body.messages ?? ""));
  const completionTokens = tokenCount((decision.reasoning ?? "") + (decision.text ?? "") + decision.calls.map((c) => c.arguments).join(""));
  return {
    id: `chatcmpl-${digest([body, decision]).slice(0, 24)}`,
    object: "chat.completion",
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: truncated ? "length" : decision.calls.length ? "tool_calls" : "stop" }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  };
}
