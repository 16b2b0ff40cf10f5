/** The three NeMo Gym definitions of "the model's text" in a Responses object (verifiers.md §5). */
import type { JsonObject } from "../../../protocol/responses.ts";

function outputItems(response: JsonObject): JsonObject[] {
  const output = response.output;
  return Array.isArray(output) ? (output as JsonObject[]) : [];
}

/**
 * T1, the SDK's `response.output_text`: the text of every `output_text` part of every `message` item, joined
 * with no separator (reasoning, tool calls and tool outputs ignored; every turn included).
 */
export function outputText(response: JsonObject): string {
  let text = "";
  for (const item of outputItems(response)) {
    if (item.type !== "message" || !Array.isArray(item.content)) continue;
    for (const part of item.content as JsonObject[]) if (part.type === "output_text") text += part.text as string;
  }
  return text;
}

/** T2: every string `text` of every assistant `message` item (or a string content), joined with "\n" (not trimmed). */
export function assistantTexts(response: JsonObject): string[] {
  const texts: string[] = [];
  for (const item of outputItems(response)) {
    if (item.type !== "message" || item.role !== "assistant") continue;
    const content = item.content;
    if (typeof content === "string") texts.push(content);
    else if (Array.isArray(content)) {
      for (const part of content as JsonObject[]) if (typeof part?.text === "string") texts.push(part.text);
    }
  }
  return texts;
}

/** The `function_call` items of a response, in order. */
export function functionCalls(response: JsonObject): JsonObject[] {
  return outputItems(response).filter((item) => item.type === "function_call");
}

/** Output items in order (empty when `output` is missing). */
export { outputItems };
