/** Where judged servers find text: the policy's answer, the user's question, the judge's verdict text. */
import type { JsonObject } from "../../../protocol/responses.ts";
import { pyStrip } from "../_python/text.ts";

const items = (response: JsonObject): JsonObject[] => (Array.isArray(response?.output) ? (response.output as JsonObject[]) : []);

/** The string texts of one message's content (a list's `text` parts, or a string content). */
function contentTexts(content: unknown): string[] | undefined {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return undefined;
  const texts: string[] = [];
  for (const part of content as JsonObject[]) if (typeof part?.text === "string") texts.push(part.text);
  return texts;
}

/**
 * The last assistant message with any text, its parts joined by "\n" and stripped ("" if none) — simpleqa's
 * `extract_text_from_response`: an assistant message whose content has no text is skipped.
 */
export function lastAssistantText(response: JsonObject): string {
  const output = items(response);
  for (let i = output.length - 1; i >= 0; i--) {
    const item = output[i]!;
    if (item.type !== "message" || item.role !== "assistant") continue;
    const texts = contentTexts(item.content);
    if (texts && texts.length > 0) return pyStrip(texts.join("\n"));
  }
  return "";
}

/** The text of the judge's last output item's last content part, or undefined when that item is not a message. */
export function lastOutputText(response: JsonObject): string | undefined {
  const last = items(response).at(-1);
  if (!last || last.type !== "message" || !Array.isArray(last.content) || last.content.length === 0) return undefined;
  const part = (last.content as JsonObject[]).at(-1)!;
  return typeof part.text === "string" ? part.text : "";
}

/** The text of the last `user` message of the create params (list contents' text parts joined by "\n"). */
export function lastUserText(params: JsonObject): string {
  let last: string | undefined;
  const input = params.input;
  // A string input iterates as characters in Python: no user message is found.
  if (typeof input === "string") return "";
  for (const m of (Array.isArray(input) ? input : []) as JsonObject[]) {
    if (m?.role !== "user") continue;
    const texts = contentTexts(m.content);
    if (typeof m.content === "string") last = m.content;
    else if (texts && texts.length > 0) last = texts.join("\n");
  }
  return last ?? "";
}

/** A judge chat completion's first choice's content, stripped ("" when missing). */
export function chatText(completion: JsonObject): string {
  const choice = (completion.choices as JsonObject[])[0];
  const content = (choice?.message as JsonObject | undefined)?.content;
  return typeof content === "string" && content ? pyStrip(content) : "";
}

/**
 * `<think>…</think>` and `<thinking>…</thinking>` blocks removed, then everything up to a leftover closing tag, then
 * stripped: frontierscience_judge's and imo_proofbench_judge's reading (other servers port their own app.py's rule).
 */
export function stripThinking(text: string): string {
  return pyStrip(
    text
      .replace(/<think>[\s\S]*?<\/think>/g, "")
      .replace(/<thinking>[\s\S]*?<\/thinking>/g, "")
      .replace(/^[\s\S]*?<\/think>/, "")
      .replace(/^[\s\S]*?<\/thinking>/, ""),
  );
}
