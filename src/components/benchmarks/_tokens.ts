/**
 * Token counts as the long-context prepare steps take them (`len(tiktoken.get_encoding(name).encode(text,
 * disallowed_special=()))`), and their `tokenizer_name` / `max_context_tokens` arguments. The rank tables and split
 * regexes are js-tiktoken's, the merge src/text/bpe.ts (`src/text/tiktoken.ts`); counts equal tiktoken 0.14.0's on fixtures/long_context/token_counts.json (scripts/long-context-golden.py).
 */
import { GymError } from "../../errors.ts";
import { TIKTOKEN_ENCODINGS, tiktokenCounter } from "../../text/tiktoken.ts";

export const DEFAULT_TOKENIZER = "o200k_base";

/** A `text → token count` function for one encoding; special-token text counts as ordinary text (`disallowed_special=()`). */
export async function tokenCounter(name: string): Promise<(text: string) => number> {
  const counter = await tiktokenCounter(name);
  if (!counter) {
    throw new GymError("E_USAGE", `tokenizer_name '${name}' is not one gym carries: it counts with the tiktoken encodings ${TIKTOKEN_ENCODINGS.join(", ")}.`, {
      hint: "NeMo Gym falls back to a Hugging Face tokenizer (transformers) for other names; gym has no port of those: prepare with o200k_base or cl100k_base.",
    });
  }
  return counter;
}

/** The prepare arguments of the long-context benchmarks: `tokenizer_name` and `max_context_tokens` (null or negative: no cap). */
export function tokenArgs(args: Record<string, unknown>): { tokenizer: string; cap: number | null } {
  const tokenizer = args.tokenizer_name ?? DEFAULT_TOKENIZER;
  if (typeof tokenizer !== "string") throw new GymError("E_USAGE", `tokenizer_name must be a string, not ${JSON.stringify(tokenizer)}.`);
  const cap = args.max_context_tokens ?? null;
  if (cap !== null && !Number.isSafeInteger(cap)) throw new GymError("E_USAGE", `max_context_tokens must be an integer, not ${JSON.stringify(cap)}.`, { hint: "e.g. +prepare_script_args={max_context_tokens: 131072}" });
  return { tokenizer, cap: cap === null || (cap as number) < 0 ? null : (cap as number) };
}

/** The closing log line NeMo Gym's prepare steps print. */
export const capSummary = (tokenizer: string, cap: number | null, dropped: number) => `tokenizer=${tokenizer}, cap=${cap ?? "none"}; dropped ${dropped} over cap`;

/** The counting a prepare does, checked and loaded before anything is downloaded: encoding, cap and counter. */
export interface TokenCounting {
  tokenizer: string;
  cap: number | null;
  count: (text: string) => number;
}

export async function tokenCounting(args: Record<string, unknown>): Promise<TokenCounting> {
  const { tokenizer, cap } = tokenArgs(args);
  return { tokenizer, cap, count: await tokenCounter(tokenizer) };
}
