/** What code_gen reads from a response: LiveCodeBench's code extraction and NeMo Gym's `<think>` format check. */
import type { JsonObject } from "../../../protocol/responses.ts";
import { outputText } from "../_common/output.ts";

/**
 * LiveCodeBench's `extract_code` for OpenAI-chat style models: the lines between the last two lines that contain
 * a fence (```), or "" when fewer than two lines do.
 */
export function extractCode(modelOutput: string): string {
  const lines = modelOutput.split("\n");
  const fences: number[] = [];
  lines.forEach((line, i) => {
    if (line.includes("```")) fences.push(i);
  });
  if (fences.length < 2) return "";
  return lines.slice(fences[fences.length - 2]! + 1, fences[fences.length - 1]!).join("\n");
}

/**
 * NeMo Gym's reasoning-format violation: a `<think>` or `</think>` tag in the final answer, or more than one of
 * either in the concatenated reasoning summaries.
 */
export function hasReasoningFormatViolation(response: JsonObject): boolean {
  const answer = outputText(response);
  if (answer.includes("<think>") || answer.includes("</think>")) return true;
  let reasoning = "";
  for (const item of (response.output as JsonObject[] | undefined) ?? []) {
    if (item?.type !== "reasoning") continue;
    for (const summary of (item.summary as JsonObject[] | undefined) ?? []) if (typeof summary?.text === "string") reasoning += summary.text;
  }
  return count(reasoning, "<think>") > 1 || count(reasoning, "</think>") > 1;
}

function count(text: string, tag: string): number {
  return text.split(tag).length - 1;
}
