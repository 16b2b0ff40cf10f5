/** A rollout as a conversation: prompt messages, assistant text, reasoning, tool calls and outputs, the verifier's fields. */
import { fmt, h } from "./dom.ts";

type Row = Record<string, unknown>;
const obj = (v: unknown): Row | undefined => (v && typeof v === "object" && !Array.isArray(v) ? (v as Row) : undefined);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The text of a message's content: a string, or the text of its parts (other parts shown by type). */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  return list(content)
    .map((part) => {
      const p = obj(part);
      if (!p) return String(part);
      if (typeof p.text === "string") return p.text;
      if (typeof p.refusal === "string") return `[refusal] ${p.refusal}`;
      return `[${String(p.type ?? "part")}]`;
    })
    .join("\n");
}

const pretty = (value: unknown) => {
  if (typeof value !== "string") return JSON.stringify(value, null, 2);
  try {
    return JSON.stringify(JSON.parse(value), null, 2);
  } catch {
    return value;
  }
};

function block(kind: string, role: string, text: string): HTMLElement {
  return h("div", { class: `msg ${kind}` }, h("div", { class: "role" }, role), h("pre", {}, text));
}

/** One Responses API item (input or output) as a message block. */
function item(value: unknown): HTMLElement {
  const it = obj(value) ?? {};
  const type = String(it.type ?? (it.role ? "message" : "item"));
  if (type === "message" || (it.role && it.content !== undefined)) {
    const role = String(it.role ?? "message");
    return block(role === "assistant" ? "assistant" : "user", role, contentText(it.content));
  }
  if (type === "reasoning") {
    const text = [...list(it.summary), ...list(it.content)].map((p) => contentText([p])).join("\n") || String(it.encrypted_content ? "[encrypted reasoning]" : "");
    return block("reasoning", "reasoning", text);
  }
  if (type === "function_call") return block("tool_call", `tool call · ${String(it.name ?? "?")}${it.call_id ? ` · ${String(it.call_id)}` : ""}`, pretty(it.arguments ?? ""));
  if (type === "function_call_output") return block("tool_output", `tool output${it.call_id ? ` · ${String(it.call_id)}` : ""}`, typeof it.output === "string" ? it.output : pretty(it.output));
  return block("tool_call", type, pretty(it));
}

const MACHINERY = new Set(["responses_create_params", "response"]);

/** The whole transcript of a row. */
export function transcript(row: Row | null, raw: string): HTMLElement {
  if (!row) return h("div", { class: "transcript", "data-testid": "transcript" }, h("div", { class: "error" }, "This row is not a JSON object; its raw text:"), h("pre", { class: "raw" }, raw));
  const params = obj(row.responses_create_params) ?? {};
  const response = obj(row.response) ?? {};
  const input = typeof params.input === "string" ? [{ role: "user", content: params.input }] : list(params.input);
  const verifier = Object.entries(row).filter(([k]) => !MACHINERY.has(k));
  return h(
    "div",
    { class: "transcript", "data-testid": "transcript" },
    typeof params.instructions === "string" && params.instructions ? block("user", "instructions", params.instructions) : null,
    input.map(item),
    list(response.output).map(item),
    obj(response.error) ? block("tool_output", "response error", pretty(response.error)) : null,
    typeof row._ng_failure_class === "string" ? block("tool_output", `failed attempt · ${row._ng_failure_class}${typeof row._ng_failure_type === "string" ? ` · ${row._ng_failure_type}` : ""}`, String(row._ng_failure_message ?? "")) : null,
    h(
      "div",
      { class: "msg verifier" },
      h("div", { class: "role" }, `verifier · reward ${fmt(typeof row.reward === "number" ? row.reward : null)}`),
      h("table", {}, verifier.map(([k, v]) => h("tr", {}, h("th", {}, k), h("td", {}, h("pre", {}, typeof v === "string" ? v : JSON.stringify(v)))))),
    ),
  );
}
