/**
 * The model API a coding-agent CLI speaks, answered from complete (non-streaming) model calls: streaming
 * Responses (`stream: true`), streaming Chat Completions (`stream: true`, `stream_options.include_usage`) and
 * Anthropic Messages (`/v1/messages`, streaming or not; `/v1/messages/count_tokens`, counted here). Every answer comes from one ordinary
 * `/v1/responses` or `/v1/chat/completions` call (`InnerCall`): inside a model server that call goes through
 * its own route and so the one model-call path (cache → limiter → retries → accounting); the rollout gateway
 * makes it through a ServerClient. Each completed exchange is reported to `observe` with the complete answer.
 */
import { anthropicErrorBody, AnthropicError } from "../../protocol/anthropic/errors.ts";
import { messagesToResponsesParams } from "../../protocol/anthropic/request.ts";
import { responseToMessage } from "../../protocol/anthropic/response.ts";
import { messageStreamFrames } from "../../protocol/anthropic/stream.ts";
import { checkResponseCreateParams, type JsonObject } from "../../protocol/responses.ts";
import { chatCompletionFrames } from "../../protocol/streaming/chat-chunks.ts";
import { failedResponseEvents, responseStreamFrames } from "../../protocol/streaming/responses-events.ts";
import { restoreNamespace, streamingResponsesRequest } from "../../protocol/streaming/responses-request.ts";
import { sseBody, sseFrame, SSE_HEADERS } from "../../protocol/streaming/sse.ts";
import { countMessageTokens } from "./count-tokens.ts";

/** The paths this layer answers (after any rollout prefix). */
export const MODEL_API_PATHS = ["/v1/responses", "/v1/chat/completions", "/v1/messages", "/v1/messages/count_tokens"] as const;
export type ModelApiPath = (typeof MODEL_API_PATHS)[number];

/** Whether `path` is Anthropic's (`/v1/messages`, `/v1/messages/count_tokens`): its errors take Anthropic's shape. */
export const isAnthropicPath = (path: string) => path === "/v1/messages" || path === "/v1/messages/count_tokens";

/** An ordinary, non-streaming call of the model server: its status and body text. */
export type InnerCall = (path: "/v1/responses" | "/v1/chat/completions", body: JsonObject) => Promise<{ status: number; text: string }>;

/** One exchange, as `observe` hears of it once the inner call has answered. */
export interface ModelApiExchange {
  /** `responses`, `chat` or `messages` (NeMo Gym's dialect names): the API the client spoke. */
  dialect: "responses" | "chat" | "messages";
  stream: boolean;
  /** The body as the client sent it. */
  request: JsonObject;
  /** The inner call's path and body (a Messages request becomes a Responses one). */
  innerPath: string;
  innerRequest: JsonObject;
  /** The inner call's status and its answer (a Responses object or chat completion; undefined when not JSON). */
  status: number;
  answer: unknown;
  /**
   * What the client was answered, as one object: the Responses object or chat completion a stream told (the
   * namespaces restored), the Messages response, or the error body; with `clientStatus`, its HTTP status.
   */
  reply: unknown;
  clientStatus: number;
  /** Wall clock: when the inner call started (Unix seconds) and how long it took. */
  startedAt: number;
  latencyMs: number;
}

export type Observe = (exchange: ModelApiExchange) => void;

/** Whether a request on `path` is this layer's to answer (a plain non-streaming Responses/Chat call is not). */
export function isModelApiCall(path: string, body: unknown): boolean {
  if (isAnthropicPath(path)) return true;
  return (path === "/v1/responses" || path === "/v1/chat/completions") && (body as JsonObject | null)?.stream === true;
}

/**
 * Answers one call on `path` with the body text `text`. A non-streaming Responses or Chat call is passed
 * through as it is (and observed): the rollout gateway sends every call here.
 */
export async function answerModelApi(path: ModelApiPath, text: string, inner: InnerCall, observe?: Observe): Promise<Response> {
  let body: JsonObject;
  try {
    body = JSON.parse(text) as JsonObject;
  } catch (error) {
    if (isAnthropicPath(path)) return anthropicError(400, `The request body is not valid JSON: ${(error as Error).message}`).answer;
    return json(422, { detail: [{ type: "json_invalid", loc: ["body", 0], msg: "JSON decode error", input: {}, ctx: { error: (error as Error).message } }] });
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return isAnthropicPath(path) ? anthropicError(400, "The request body must be a JSON object").answer : json(422, { detail: [{ type: "model_attributes_type", loc: ["body"], msg: "Input should be a valid dictionary or object to extract fields from", input: body }] });
  }
  let exchange: ModelApiExchange | undefined;
  const call: Call = async (dialect, innerPath, innerRequest) => {
    const startedAt = Date.now();
    const reply = await inner(innerPath, innerRequest);
    let answer: unknown;
    try {
      answer = JSON.parse(reply.text);
    } catch {
      answer = undefined;
    }
    exchange = { dialect, stream: body.stream === true, request: body, innerPath, innerRequest, status: reply.status, answer, reply: answer, clientStatus: reply.status, startedAt: startedAt / 1000, latencyMs: Date.now() - startedAt };
    return { ...reply, answer, ok: reply.status >= 200 && reply.status < 300 && answer !== null && typeof answer === "object" };
  };
  const response = await answerParsed(path, body, call);
  if (exchange) observe?.({ ...exchange, reply: response.reply === undefined ? exchange.answer : response.reply, clientStatus: response.answer.status });
  return response.answer;
}

/** The client's answer, and the object it tells when that is not the inner answer itself. */
interface Answered {
  answer: Response;
  reply?: unknown;
}

async function answerParsed(path: ModelApiPath, body: JsonObject, call: Call): Promise<Answered> {
  if (path === "/v1/messages/count_tokens") return answerCountTokens(body);
  if (path === "/v1/messages") return answerMessages(body, call);
  if (body.stream !== true) {
    const reply = await call(path === "/v1/responses" ? "responses" : "chat", path, body);
    return { answer: new Response(reply.text, { status: reply.status, headers: { "content-type": "application/json" } }) };
  }
  if (path === "/v1/chat/completions") {
    const { stream: _stream, stream_options: options, ...rest } = body;
    const reply = await call("chat", path, rest);
    if (!reply.ok) return { answer: new Response(reply.text, { status: reply.status, headers: { "content-type": "application/json" } }) };
    const includeUsage = (options as JsonObject | null | undefined)?.include_usage === true;
    return { answer: sse(chatCompletionFrames(reply.answer as JsonObject, includeUsage)) };
  }
  const { body: cleaned, namespaces } = streamingResponsesRequest(body);
  const checked = checkResponseCreateParams(cleaned);
  if (!checked.ok) return { answer: json(422, checked.error) };
  const reply = await call("responses", path, cleaned);
  if (reply.ok) {
    const response = reply.answer as JsonObject;
    const told = { ...response, output: ((response.output as JsonObject[]) ?? []).map((item) => restoreNamespace(item, namespaces)) };
    return { answer: sse(responseStreamFrames(told)), reply: told };
  }
  if (reply.status < 500) return { answer: new Response(reply.text, { status: reply.status, headers: { "content-type": "application/json" } }) };
  // A backend failure on a stream Codex has asked for is a terminal response.failed, as NeMo Gym sends it.
  const failed = failedResponseEvents(`resp_failed_${Date.now().toString(16)}`, `The model server answered ${reply.status}: ${reply.text.slice(0, 500)}`);
  return { answer: sse(failed.map((event) => sseFrame(event, String(event.type)))), reply: failed.at(-1)!.response };
}

type Call = (dialect: ModelApiExchange["dialect"], path: "/v1/responses" | "/v1/chat/completions", body: JsonObject) => Promise<{ status: number; text: string; answer: unknown; ok: boolean }>;

async function answerMessages(body: JsonObject, call: Call): Promise<Answered> {
  try {
    const params = messagesToResponsesParams(body);
    const checked = checkResponseCreateParams(params);
    if (!checked.ok) return anthropicError(400, fastApiMessage(checked.error.detail));
    const reply = await call("messages", "/v1/responses", params);
    if (!reply.ok) return anthropicError(reply.status >= 400 ? reply.status : 500, `The model server answered ${reply.status}: ${innerMessage(reply.text)}`);
    const message = responseToMessage(reply.answer as JsonObject, body.model);
    return { answer: body.stream === true ? sse(messageStreamFrames(message)) : json(200, message), reply: message };
  } catch (error) {
    if (error instanceof AnthropicError) return anthropicError(error.status, error.message);
    throw error;
  }
}

/** count_tokens makes no model call (nothing is observed): the prompt is counted here (count-tokens.ts). */
async function answerCountTokens(body: JsonObject): Promise<Answered> {
  try {
    return { answer: json(200, await countMessageTokens(body)) };
  } catch (error) {
    if (error instanceof AnthropicError) return anthropicError(error.status, error.message);
    throw error;
  }
}

function fastApiMessage(detail: unknown): string {
  if (!Array.isArray(detail)) return String(detail);
  return detail.map((issue) => `${((issue as JsonObject).loc as unknown[] | undefined)?.join(".") ?? ""}: ${(issue as JsonObject).msg}`).join("; ");
}

function innerMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as JsonObject;
    if (parsed && typeof parsed === "object" && "detail" in parsed) return fastApiMessage(parsed.detail);
  } catch {
    // not JSON: the text itself
  }
  return text.slice(0, 500);
}

function json(status: number, value: unknown): Response {
  return new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
}

function anthropicError(status: number, message: string): Answered {
  const reply = anthropicErrorBody(status, message);
  return { answer: json(status, reply), reply };
}

function sse(frames: string[]): Response {
  return new Response(sseBody(frames), { status: 200, headers: SSE_HEADERS });
}
