/**
 * Anthropic's `POST /v1/messages/count_tokens`: a Messages request body (model, messages, system, tools,
 * tool_choice, thinking; no max_tokens) → `{"input_tokens": N}`. NeMo Gym serves no count_tokens; this one counts
 * the prompt the model would be sent (the request mapped to Responses params as `/v1/messages` maps it): the system
 * text, each message's text, tool calls' names and arguments, tool results, thinking text, and each tool's
 * definition as JSON. The count is tiktoken's for a model whose tokenizer gym carries (OpenAI's: `o200k_base` for
 * gpt-4o, gpt-4.1, gpt-4.5, gpt-5, o1, o3, o4; `cl100k_base` for gpt-4 and gpt-3.5); for any other model (Claude's
 * tokenizer is not public, open models' tokenizers are not bundled) it is an estimate: the same text counted with
 * `o200k_base`. Neither adds the per-message framing tokens of a chat template, and an image counts nothing.
 */
import { AnthropicError } from "../../protocol/anthropic/errors.ts";
import { messagesToResponsesParams } from "../../protocol/anthropic/request.ts";
import type { JsonObject } from "../../protocol/responses.ts";
import { tiktokenCounter } from "../../text/tiktoken.ts";

/** The tiktoken encoding of an OpenAI model name (a provider prefix such as `openai/` is ignored), or undefined. */
export function knownEncoding(model: string): "o200k_base" | "cl100k_base" | undefined {
  const name = model.toLowerCase().replace(/^.*\//, "");
  if (/^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o1|o3|o4)(\b|-|$)/.test(name)) return "o200k_base";
  if (/^(gpt-4|gpt-3\.5)(\b|-|$)/.test(name)) return "cl100k_base";
  return undefined;
}

/** The texts of a Messages request that reach the model. */
export function promptTexts(body: JsonObject): string[] {
  if (typeof body.model !== "string" || body.model === "") throw new AnthropicError(400, "model: Field required (a model name)");
  const params = messagesToResponsesParams(body);
  const texts: string[] = [];
  if (typeof params.instructions === "string") texts.push(params.instructions);
  for (const item of params.input as JsonObject[]) {
    if (typeof item.content === "string") texts.push(item.content);
    else if (Array.isArray(item.content)) for (const part of item.content as JsonObject[]) if (typeof part.text === "string") texts.push(part.text);
    for (const key of ["name", "arguments", "output"]) if (typeof item[key] === "string") texts.push(item[key] as string);
    for (const part of (item.summary as JsonObject[] | undefined) ?? []) if (typeof part.text === "string") texts.push(part.text);
  }
  for (const tool of (params.tools as JsonObject[] | undefined) ?? []) texts.push(JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.parameters }));
  return texts;
}

/** `{"input_tokens": N}` for a count_tokens body (an AnthropicError 400 for a malformed one). */
export async function countMessageTokens(body: JsonObject): Promise<{ input_tokens: number }> {
  const texts = promptTexts(body);
  const count = (await tiktokenCounter(knownEncoding(body.model as string) ?? "o200k_base"))!;
  return { input_tokens: texts.reduce((n, text) => n + count(text), 0) };
}
