/** Token-id training fields for vllm_model (`return_token_id_information`, protocol.md §3.5). */
import type { JsonObject } from "../../../protocol/responses.ts";
import { postUpstream, type UpstreamOptions } from "../../../servers/upstream.ts";
import { pyError } from "./to-chat.ts";

const REQUIRED = ["prompt_token_ids", "generation_token_ids", "generation_log_probs"] as const;
const TOKENIZE_FIELDS = ["model", "messages", "tools", "chat_template_kwargs", "mm_processor_kwargs", "required_prefix_token_ids"];

/**
 * Puts `prompt_token_ids`, `generation_token_ids`, `generation_log_probs` (+ `routed_experts`) on
 * `choices[0].message`, from (1) a bundle already there, else (2) vLLM's inline ids + choice log-probs, else
 * (3) choice log-probs + `POST <base without /v1>/tokenize`. Transport fields are removed afterwards.
 */
export async function attachTokenInformation(completion: JsonObject, body: JsonObject, base: string, upstream: UpstreamOptions): Promise<void> {
  const choice = (completion.choices as JsonObject[])[0]!;
  const message = choice.message as JsonObject;
  const inline = inlineIds(completion, choice);
  if (REQUIRED.some((k) => k in message)) {
    const bundle = validateBundle(message, "choice.message");
    if (inline && (!sameIds(bundle.prompt_token_ids, inline[0]) || !sameIds(bundle.generation_token_ids, inline[1]))) {
      throw pyError("RuntimeError", "Message-level token metadata disagrees with vLLM response token IDs.");
    }
    Object.assign(message, bundle);
  } else {
    const [logprobIds, logprobs] = choiceLogprobs(choice);
    let prompt: unknown[];
    if (inline) {
      if (!sameIds(inline[1], logprobIds)) throw pyError("RuntimeError", "vLLM response generation token IDs disagree with choice logprob token IDs.");
      prompt = inline[0];
    } else {
      const tokenizeBody = Object.fromEntries(TOKENIZE_FIELDS.filter((k) => k in body).map((k) => [k, body[k]]));
      const tokenized = await postUpstream<JsonObject>(`${base.replace(/\/v1$/, "")}/tokenize`, tokenizeBody, upstream);
      if (!Array.isArray(tokenized.tokens)) throw pyError("RuntimeError", "`tokenize.tokens` must be a list of integer token IDs.");
      prompt = tokenized.tokens;
    }
    const bundle: JsonObject = { prompt_token_ids: prompt, generation_token_ids: logprobIds, generation_log_probs: logprobs };
    if (message.routed_experts != null) bundle.routed_experts = message.routed_experts;
    Object.assign(message, validateBundle(bundle, "vLLM token transport"));
    delete choice.logprobs;
  }
  delete completion.prompt_token_ids;
  delete choice.token_ids;
}

function inlineIds(completion: JsonObject, choice: JsonObject): [unknown[], unknown[]] | undefined {
  const prompt = completion.prompt_token_ids;
  const generation = choice.token_ids;
  if ((prompt == null) !== (generation == null)) {
    throw pyError("RuntimeError", `vLLM response returned partial token metadata; missing: ${prompt == null ? "prompt_token_ids" : "choice.token_ids"}.`);
  }
  if (prompt == null) return undefined;
  if (!Array.isArray(prompt) || !Array.isArray(generation)) throw pyError("RuntimeError", "token ids must be lists of integer token IDs.");
  return [prompt, generation];
}

function choiceLogprobs(choice: JsonObject): [number[], number[]] {
  const content = (choice.logprobs as JsonObject | null | undefined)?.content;
  if (!Array.isArray(content)) {
    throw pyError("RuntimeError", "requested per-token logprobs from vLLM, but the response had none. Cannot extract token ids or logprobs.");
  }
  const ids: number[] = [];
  const logprobs: number[] = [];
  content.forEach((entry: JsonObject, index) => {
    const token = entry?.token;
    const match = typeof token === "string" ? /^token_id:(-?\d+)$/.exec(token) : null;
    if (!match) throw pyError("RuntimeError", `choice.logprobs.content[${index}].token must use the \`token_id:<int>\` format.`);
    if (typeof entry.logprob !== "number") throw pyError("RuntimeError", `choice.logprobs.content[${index}].logprob must be numeric.`);
    ids.push(Number(match[1]));
    logprobs.push(entry.logprob);
  });
  return [ids, logprobs];
}

function validateBundle(source: JsonObject, label: string): JsonObject {
  const missing = REQUIRED.filter((k) => !(k in source));
  if (missing.length) throw pyError("RuntimeError", `${label} returned partial token metadata; missing: ${[...missing].sort().join(", ")}.`);
  for (const key of REQUIRED) if (!Array.isArray(source[key])) throw pyError("RuntimeError", `\`${label}.${key}\` must be a list.`);
  const generation = source.generation_token_ids as unknown[];
  const logprobs = source.generation_log_probs as unknown[];
  if (generation.length !== logprobs.length) {
    throw pyError("RuntimeError", `${label} returned mismatched generation token IDs and log probabilities: ${generation.length} token IDs and ${logprobs.length} log probabilities.`);
  }
  const out: JsonObject = { prompt_token_ids: source.prompt_token_ids, generation_token_ids: generation, generation_log_probs: logprobs };
  if ("routed_experts" in source) out.routed_experts = source.routed_experts;
  return out;
}

function sameIds(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
