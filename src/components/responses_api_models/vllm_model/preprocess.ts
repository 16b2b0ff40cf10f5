/** vllm_model's config and the preprocessing of a chat body before it goes upstream (protocol.md §3.7). */
import { readFileSync, existsSync } from "node:fs";
import { extname, isAbsolute, join } from "node:path";
import type { JsonObject } from "../../../protocol/responses.ts";
import { extractThinking } from "./from-chat.ts";
import { pyError } from "./to-chat.ts";

export interface VllmModelConfig {
  name?: string;
  base_url: string | string[];
  api_key?: string;
  model: string;
  return_token_id_information?: boolean;
  request_prompt_and_generation_token_ids?: boolean;
  uses_reasoning_parser?: boolean;
  uses_interleaved_reasoning?: boolean;
  preserve_reasoning_in_assistant_content?: boolean;
  replace_developer_role_with_system?: boolean;
  sequential_reasoning_allowed?: boolean;
  is_responses_native?: boolean;
  chat_template_kwargs?: JsonObject | null;
  sampling_overrides?: JsonObject | null;
  extra_body?: JsonObject | null;
  default_headers?: Record<string, string> | null;
  audio_root?: string | null;
}

const AUDIO_MIME: Record<string, string> = { ".wav": "wav", ".flac": "flac", ".mp3": "mpeg", ".m4a": "mp4", ".ogg": "ogg", ".opus": "opus" };

/** The chat body as sent upstream: roles, model, template kwargs, think-tag handling, extra_body, audio, overrides. */
export function preprocessChatBody(input: JsonObject, config: VllmModelConfig): JsonObject {
  let body: JsonObject = structuredClone(input);
  const messages = (body.messages as JsonObject[]) ?? [];
  if (config.replace_developer_role_with_system) for (const m of messages) if (m.role === "developer") m.role = "system";
  body.model = config.model;

  const metadata = (body.metadata as Record<string, unknown> | null | undefined) ?? {};
  const templateKwargs = { ...(config.chat_template_kwargs ?? {}), ...JSON.parse(String(metadata.chat_template_kwargs || "{}")) };
  if (Object.keys(templateKwargs).length) body.chat_template_kwargs = templateKwargs;
  const extraBody = { ...(config.extra_body ?? {}), ...JSON.parse(String(metadata.extra_body || "{}")) };

  if (config.return_token_id_information) {
    Object.assign(body, { logprobs: true, top_logprobs: 0, return_tokens_as_token_ids: true });
    if (config.request_prompt_and_generation_token_ids) body.return_token_ids = true;
  }

  if ((config.uses_reasoning_parser ?? true) && !config.preserve_reasoning_in_assistant_content) {
    for (const m of messages) if (m.role === "assistant" && "content" in m) stripAssistantThinking(m, config.uses_interleaved_reasoning ?? true);
  }
  // vLLM reads a null top_logprobs as "no logprobs" but a missing one as its default.
  if (body.top_logprobs == null) delete body.top_logprobs;
  if (Object.keys(extraBody).length) body = { ...extraBody, ...body };

  applyAudio(body, metadata, config);
  if (config.sampling_overrides) Object.assign(body, config.sampling_overrides);
  if (config.return_token_id_information && body.n != null && body.n !== 1) {
    throw pyError("ValueError", `NeMo Gym server \`${config.name}\` requires n=1 when return_token_id_information=true.`);
  }
  return body;
}

/** Removes `<think>` spans from an assistant message; the first span becomes `reasoning_content`/`reasoning`. */
function stripAssistantThinking(message: JsonObject, interleaved: boolean): void {
  const content = message.content;
  if (typeof content === "string") {
    const { reasoning, rest } = extractThinking(content);
    message.content = rest;
    if (reasoning.length && interleaved) message.reasoning_content = message.reasoning = reasoning[0];
  } else if (Array.isArray(content)) {
    let found: string | undefined;
    for (const part of content as JsonObject[]) {
      const { reasoning, rest } = extractThinking(String(part.text ?? ""));
      if (found !== undefined && reasoning.length) throw pyError("AssertionError", "Found multiple reasoning matches in a single assistant message content item list!");
      part.text = rest;
      if (reasoning.length && interleaved) {
        found = reasoning[0];
        message.reasoning_content = message.reasoning = found;
      }
    }
  } else if (content) throw pyError("NotImplementedError", "");
}

function applyAudio(body: JsonObject, metadata: Record<string, unknown>, config: VllmModelConfig): void {
  const keys = ["audio_data", "audio_path", "audio_paths"].filter((k) => metadata[k]);
  if (keys.length > 1) throw pyError("ValueError", `metadata audio keys are mutually exclusive — got ${JSON.stringify(keys)}.`);
  const urls: string[] = [];
  if (metadata.audio_data) urls.push(String(metadata.audio_data));
  else if (metadata.audio_path) urls.push(audioDataUrl(String(metadata.audio_path), config));
  else if (metadata.audio_paths) {
    if (!Array.isArray(metadata.audio_paths)) throw pyError("ValueError", `metadata.audio_paths must be a list, got str.`);
    urls.push(...metadata.audio_paths.map((p) => audioDataUrl(String(p), config)));
  }
  if (!urls.length) return;
  delete metadata[keys[0]!];
  if (Object.keys(metadata).length === 0 && "metadata" in body) delete body.metadata;
  else if (body.metadata) body.metadata = metadata;
  const blocks = urls.map((url) => ({ type: "audio_url", audio_url: { url } }));
  const messages = ((body.messages as JsonObject[]) ??= []);
  const user = [...messages].reverse().find((m) => m.role === "user");
  if (!user) messages.push({ role: "user", content: blocks });
  else if (typeof user.content === "string") user.content = [...blocks, { type: "text", text: user.content }];
  else if (Array.isArray(user.content)) user.content = [...blocks, ...user.content];
  else user.content = blocks;
}

function audioDataUrl(path: string, config: VllmModelConfig): string {
  if (!isAbsolute(path) && !config.audio_root) {
    throw pyError("ValueError", `metadata.audio_path='${path}' is relative but VLLMModelConfig.audio_root is unset.`);
  }
  const resolved = isAbsolute(path) ? path : join(config.audio_root!, path);
  if (!existsSync(resolved)) throw pyError("FileNotFoundError", `metadata.audio_path resolved to '${resolved}', which does not exist.`);
  const mime = AUDIO_MIME[extname(resolved).toLowerCase()];
  if (!mime) throw pyError("ValueError", `Unsupported audio extension '${extname(resolved)}' for '${resolved}'.`);
  return `data:audio/${mime};base64,${readFileSync(resolved).toString("base64")}`;
}
