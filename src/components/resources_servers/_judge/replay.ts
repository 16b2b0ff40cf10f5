/** A replaying judge for parity tests: a model server whose answers come from NeMo Gym's stored judge responses, reached like any judge. */
import { Hono } from "hono";
import type { ServerDirectory } from "../../../servers/client.ts";
import { InProcessServerClient } from "../../../servers/in-process.ts";
import type { JsonObject } from "../../../protocol/responses.ts";

/** Answers one judge request body (`/v1/responses` create params or a chat completion body); undefined = not recorded. */
export type JudgeLookup = (path: "/v1/responses" | "/v1/chat/completions", body: JsonObject) => JsonObject | undefined;

/** The model server app: a recorded answer, else 404 naming the unrecorded prompt (the test then fails on a judge error). */
export function replayJudgeApp(lookup: JudgeLookup): Hono {
  const app = new Hono();
  for (const path of ["/v1/responses", "/v1/chat/completions"] as const) {
    app.post(path, async (c) => {
      const body = (await c.req.json()) as JsonObject;
      const answer = lookup(path, body);
      return answer ? c.json(answer) : c.json({ detail: `no recorded judge answer for ${JSON.stringify(body).slice(0, 200)}` }, 404);
    });
  }
  return app;
}

/** A ServerDirectory holding just the judge instance (a resources server's peers in a test). */
export function judgeDirectory(name: string, app: Pick<Hono, "fetch">): ServerDirectory {
  const client = new InProcessServerClient(name, app, { direct: false });
  return {
    get(wanted) {
      if (wanted !== name) throw new Error(`no server '${wanted}' in this test (only '${name}')`);
      return client;
    },
  };
}

/** A minimal Responses object whose one assistant message says `text` (for stored judge texts such as simpleqa's `judge_output`). */
export function textResponse(text: string, id = "resp_judge"): JsonObject {
  return {
    id,
    created_at: 0,
    model: "replayed-judge",
    object: "response",
    output: [{ id: `msg_${id}`, content: [{ annotations: [], text, type: "output_text" }], role: "assistant", status: "completed", type: "message" }],
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
  };
}

/** A minimal chat completion whose first choice says `text`. */
export function textCompletion(text: string): JsonObject {
  return { id: "chatcmpl-judge", object: "chat.completion", created: 0, model: "replayed-judge", choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: text } }] };
}

/** Judges that fail as a call (for the bad-answer tests): a 500, HTML with 200, an empty body, truncated JSON, no choices, a bad key. */
export const BROKEN_JUDGES: { label: string; fetch: () => Promise<Response> }[] = (
  [
    [500, "application/json", '{"detail":"boom"}'],
    [200, "text/html", "<html><body>Bad gateway</body></html>"],
    [200, "application/json", ""],
    [200, "application/json", '{"id":"chatcmpl","choices":[{"message":{"content":"[[A>B]]"'],
    [200, "application/json", '{"id":"no choices"}'],
    [401, "application/json", '{"error":"invalid api key"}'],
  ] as const
).map(([status, type, text]) => ({ label: `${status} ${type} ${text.slice(0, 20)}`, fetch: async () => new Response(text, { status, headers: { "content-type": type } }) }));

/** The prompt text of a judge request: the last message's content (Responses `input` or chat `messages`; list contents' texts joined). */
export function promptOfRequest(body: JsonObject): string {
  const messages = (Array.isArray(body.input) ? body.input : Array.isArray(body.messages) ? body.messages : []) as JsonObject[];
  const content = messages.at(-1)?.content;
  if (typeof content === "string") return content;
  return Array.isArray(content) ? (content as JsonObject[]).map((p) => String(p.text ?? "")).join("\n") : "";
}

/**
 * Replays recorded judge answers by prompt: each request gets the first not-yet-used answer recorded for its
 * exact prompt text (repeats of one task send the same prompt and got their own answers, in order).
 */
export function replayByPrompt(recorded: { prompt: string; answer: JsonObject }[]): JudgeLookup & { unused(): number } {
  const queues = new Map<string, JsonObject[]>();
  for (const { prompt, answer } of recorded) queues.set(prompt, [...(queues.get(prompt) ?? []), answer]);
  const lookup = (_path: string, body: JsonObject) => queues.get(promptOfRequest(body))?.shift();
  return Object.assign(lookup, { unused: () => [...queues.values()].reduce((n, q) => n + q.length, 0) });
}
