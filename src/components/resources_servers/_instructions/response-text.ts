/** The text both servers score: `response.output[-1].content[0].text` when the last output item has content, else "". */
import type { JsonObject } from "../../../protocol/responses.ts";

export function lastOutputText(response: JsonObject): string {
  const output = response.output;
  if (!Array.isArray(output) || output.length === 0) return "";
  const content = (output.at(-1) as JsonObject | null)?.content;
  if (!Array.isArray(content) || content.length === 0) return "";
  const text = (content[0] as JsonObject | null)?.text;
  return typeof text === "string" ? text : "";
}
