/** Which upstream answers may be kept: complete, successful, non-empty, not refused. Errors never reach here (non-2xx is not stored). */

type Json = Record<string, unknown>;

/** True when `value` (the parsed 2xx body) is an answer worth serving again. */
export function isCacheable(value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const answer = value as Json;
  if (answer.error !== undefined && answer.error !== null) return false;
  if (Array.isArray(answer.choices)) return chatCompletionOk(answer.choices as Json[]);
  if (answer.object === "response" || Array.isArray(answer.output)) return responseOk(answer);
  if (Array.isArray(answer.tokens)) return answer.tokens.length > 0;
  return Object.keys(answer).length > 0;
}

function chatCompletionOk(choices: Json[]): boolean {
  if (choices.length === 0) return false;
  return choices.every((choice) => {
    if (choice?.finish_reason === "content_filter") return false;
    const message = (choice?.message ?? {}) as Json;
    if (typeof message.refusal === "string" && message.refusal) return false;
    const toolCalls = message.tool_calls as unknown[] | null | undefined;
    return Boolean(message.content || message.reasoning_content || message.reasoning || toolCalls?.length || (choice as Json).text);
  });
}

function responseOk(response: Json): boolean {
  if (response.status === "failed" || response.status === "cancelled" || response.status === "in_progress" || response.status === "queued") return false;
  if ((response.incomplete_details as Json | null | undefined)?.reason === "content_filter") return false;
  const output = response.output as Json[] | undefined;
  if (!Array.isArray(output) || output.length === 0) return false;
  let said = false;
  for (const item of output) {
    if (item?.type !== "message") {
      said = true;
      continue;
    }
    for (const part of (item.content as Json[] | undefined) ?? []) {
      if (part?.type === "refusal") return false;
      if (typeof part?.text === "string" && part.text !== "") said = true;
    }
  }
  return said;
}
