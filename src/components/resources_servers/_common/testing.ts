/** Test helpers for the built-in verifiers: load fixtures, complete reduced Responses objects, call an app's routes. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Hono } from "hono";

type Row = Record<string, unknown>;

/** Reads a JSON file relative to a test's folder. */
export function readJsonFile<T = Row>(dir: string, path: string): T {
  return JSON.parse(readFileSync(join(dir, path), "utf8")) as T;
}

/** Reads a JSONL file relative to a test's folder (blank lines skipped). */
export function readJsonlFile<T = Row>(dir: string, path: string): T[] {
  return readFileSync(join(dir, path), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);
}

let counter = 0;

/** Fills in what a Python agent would demand of an output item (ids, annotations, statuses). */
function completeItem(item: Row): Row {
  const out: Row = { ...item };
  if (out.type === "message") {
    out.id ??= `msg_${++counter}`;
    out.role ??= "assistant";
    out.status ??= "completed";
    if (Array.isArray(out.content)) out.content = (out.content as Row[]).map((p) => (p.type === "output_text" ? { annotations: [], ...p } : p));
  } else if (out.type === "reasoning") {
    out.id ??= `rs_${++counter}`;
    out.summary ??= [];
  } else if (out.type === "function_call") {
    out.call_id ??= `call_${++counter}`;
    out.id ??= `fc_${counter}`;
  }
  return out;
}

/** A reduced Responses object from a test vector (`{output, …}`), completed to one a Python server accepts. */
export function fullResponse(reduced: Row): Row {
  return {
    id: "resp_test",
    created_at: 1700000000,
    model: "test-model",
    object: "response",
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
    ...reduced,
    output: ((reduced.output as Row[]) ?? []).map(completeItem),
  };
}

/** A test vector's verify request: its fields, params and completed response. */
export function vectorRequest(vector: Row): Row {
  const request = vector.request as Row;
  return {
    responses_create_params: request.responses_create_params,
    ...(request.fields as Row),
    response: fullResponse(request.response as Row),
  };
}

export interface Reply {
  status: number;
  body: any;
  /** The `name=value` part of the Set-Cookie header, to send back as a Cookie header. */
  cookie: string | undefined;
}

/** POSTs JSON (or nothing, when body is undefined) to an app route. */
export async function post(app: Hono<any>, path: string, body?: unknown, cookie?: string): Promise<Reply> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (cookie) headers.cookie = cookie;
  const res = await app.request(`http://localhost${path}`, {
    method: "POST",
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, cookie: res.headers.get("set-cookie")?.split(";")[0] };
}

/** Input messages compared by role and content only (rollouts re-serialise them with `type` and nulls). */
export function promptKey(params: Row): string {
  const input = params.input;
  if (typeof input === "string") return JSON.stringify(input);
  return JSON.stringify((input as Row[]).map((m) => [m.role ?? null, m.content ?? null]));
}
