/**
 * For coding-agent CLI tests: a scripted model on 127.0.0.1 that drives a real CLI through a fixed sequence of
 * shell commands, then a final message. It answers OpenAI Responses, Chat Completions and Anthropic Messages,
 * JSON or streamed (SSE) when the request asks. Step N is chosen by how many tool results the request carries;
 * the shell tool is whichever the CLI offered (codex exec_command/shell/shell_command, opencode bash, Claude Bash),
 * with the arguments that tool takes. A request that offers no tools (a title or summary call) gets plain text.
 */

export interface CliScript {
  /** Shell commands, one per turn. */
  commands: string[];
  /** The final message once every command's result has come back. */
  final: string;
}

export interface CliModel {
  url: string;
  /** Each request: path, body, and the credential it carried (Authorization or x-api-key). */
  seen: { path: string; body: Record<string, any>; credential: string | null }[];
  stop(): void;
}

type Json = Record<string, any>;
const SHELL_TOOLS = ["exec_command", "shell_command", "shell", "bash", "Bash", "local_shell"];

function toolNames(api: string, body: Json): string[] {
  const tools: Json[] = body.tools ?? [];
  return tools.map((t) => (api === "chat" ? t.function?.name : t.name ?? t.type)).filter(Boolean);
}

function resultsSent(api: string, body: Json): number {
  if (api === "responses") return (body.input ?? []).filter?.((i: Json) => i.type === "function_call_output" || i.type === "custom_tool_call_output").length ?? 0;
  if (api === "chat") return (body.messages ?? []).filter((m: Json) => m.role === "tool").length;
  return (body.messages ?? []).flatMap((m: Json) => (Array.isArray(m.content) ? m.content : [])).filter((b: Json) => b.type === "tool_result").length;
}

function argumentsFor(tool: string, command: string): Json {
  if (tool === "exec_command") return { cmd: command };
  if (tool === "shell") return { command: ["bash", "-lc", command] };
  if (tool === "shell_command") return { command };
  return { command, description: "run a shell command" };
}

const sse = (events: [string | null, unknown][]) =>
  new Response(events.map(([event, data]) => `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`).join("") + "", { headers: { "content-type": "text/event-stream" } });
const json = (value: unknown) => new Response(JSON.stringify(value), { headers: { "content-type": "application/json" } });

export function cliModel(script: CliScript): CliModel {
  const seen: CliModel["seen"] = [];
  let calls = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      if (request.method !== "POST") return json({ object: "list", data: [{ id: "scripted", object: "model", created: 0, owned_by: "gym" }] });
      const body = (await request.json()) as Json;
      seen.push({ path, body, credential: request.headers.get("authorization") ?? request.headers.get("x-api-key") });
      const api = path.endsWith("/chat/completions") ? "chat" : path.endsWith("/messages") ? "messages" : "responses";
      const n = ++calls;
      const tool = toolNames(api, body).find((name) => SHELL_TOOLS.includes(name));
      const step = resultsSent(api, body);
      const command = tool ? script.commands[step] : undefined;
      const text = tool ? (command === undefined ? script.final : "") : "scripted title";
      const call = command !== undefined ? { id: `call_${n}`, name: tool!, args: JSON.stringify(argumentsFor(tool!, command)) } : null;
      const usage = { input: 100 + 10 * n, output: 20 };
      const model = String(body.model ?? "scripted");
      if (api === "responses") return responsesAnswer(n, model, text, call, usage, body.stream === true);
      if (api === "chat") return chatAnswer(n, model, text, call, usage, body.stream === true);
      return messagesAnswer(n, model, text, call, usage, body.stream === true);
    },
  });
  return { url: `http://127.0.0.1:${server.port}/v1`, seen, stop: () => server.stop(true) };
}

type Call = { id: string; name: string; args: string } | null;
type Usage = { input: number; output: number };

function responsesAnswer(n: number, model: string, text: string, call: Call, usage: Usage, stream: boolean): Response {
  const output: Json[] = call
    ? [{ type: "function_call", id: `fc_${n}`, call_id: call.id, name: call.name, arguments: call.args, status: "completed" }]
    : [{ type: "message", id: `msg_${n}`, role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }];
  const response = {
    id: `resp_${n}`, object: "response", created_at: 1700000000, model, status: "completed", output, parallel_tool_calls: true, tool_choice: "auto", tools: [],
    usage: { input_tokens: usage.input, input_tokens_details: { cached_tokens: 0 }, output_tokens: usage.output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: usage.input + usage.output },
  };
  if (!stream) return json(response);
  const events: [string, unknown][] = [["response.created", { type: "response.created", sequence_number: 0, response: { ...response, status: "in_progress", output: [] } }]];
  output.forEach((item, i) => {
    events.push(["response.output_item.added", { type: "response.output_item.added", output_index: i, item: { ...item, status: "in_progress" } }]);
    if (item.type === "message") events.push(["response.output_text.delta", { type: "response.output_text.delta", item_id: item.id, output_index: i, content_index: 0, delta: text }]);
    events.push(["response.output_item.done", { type: "response.output_item.done", output_index: i, item }]);
  });
  events.push(["response.completed", { type: "response.completed", response }]);
  return sse(events);
}

function chatAnswer(n: number, model: string, text: string, call: Call, usage: Usage, stream: boolean): Response {
  const toolCalls = call ? [{ id: call.id, type: "function", function: { name: call.name, arguments: call.args } }] : undefined;
  const finish = call ? "tool_calls" : "stop";
  const u = { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output };
  if (!stream) return json({ id: `chat_${n}`, object: "chat.completion", created: 1700000000, model, choices: [{ index: 0, finish_reason: finish, message: { role: "assistant", content: call ? null : text, ...(toolCalls ? { tool_calls: toolCalls } : {}) } }], usage: u });
  const chunk = (delta: Json, finish_reason: string | null, extra: Json = {}) => [null, { id: `chat_${n}`, object: "chat.completion.chunk", created: 1700000000, model, choices: [{ index: 0, delta, finish_reason }], ...extra }] as [null, unknown];
  const delta = call ? { role: "assistant", tool_calls: [{ index: 0, ...toolCalls![0] }] } : { role: "assistant", content: text };
  return new Response([chunk(delta, null), chunk({}, finish), [null, { id: `chat_${n}`, object: "chat.completion.chunk", created: 1700000000, model, choices: [], usage: u }]].map(([, d]) => `data: ${JSON.stringify(d)}\n\n`).join("") + "data: [DONE]\n\n", { headers: { "content-type": "text/event-stream" } });
}

function messagesAnswer(n: number, model: string, text: string, call: Call, usage: Usage, stream: boolean): Response {
  const content = call ? [{ type: "tool_use", id: call.id, name: call.name, input: JSON.parse(call.args) }] : [{ type: "text", text }];
  const message = { id: `msg_${n}`, type: "message", role: "assistant", model, content, stop_reason: call ? "tool_use" : "end_turn", stop_sequence: null, usage: { input_tokens: usage.input, output_tokens: usage.output } };
  if (!stream) return json(message);
  const events: [string, unknown][] = [["message_start", { type: "message_start", message: { ...message, content: [], stop_reason: null, usage: { input_tokens: usage.input, output_tokens: 1 } } }]];
  content.forEach((block, i) => {
    if (block.type === "tool_use") {
      events.push(["content_block_start", { type: "content_block_start", index: i, content_block: { ...block, input: {} } }]);
      events.push(["content_block_delta", { type: "content_block_delta", index: i, delta: { type: "input_json_delta", partial_json: call!.args } }]);
    } else {
      events.push(["content_block_start", { type: "content_block_start", index: i, content_block: { type: "text", text: "" } }]);
      events.push(["content_block_delta", { type: "content_block_delta", index: i, delta: { type: "text_delta", text } }]);
    }
    events.push(["content_block_stop", { type: "content_block_stop", index: i }]);
  });
  events.push(["message_delta", { type: "message_delta", delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: usage.output } }]);
  events.push(["message_stop", { type: "message_stop" }]);
  return sse(events);
}
