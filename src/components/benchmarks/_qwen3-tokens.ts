/**
 * The Qwen3 token count NeMo Gym's proof-judge prepares filter on (`len(AutoTokenizer("Qwen/Qwen3-0.6B").encode(text))`):
 * the model repo's tokenizer.json and tokenizer_config.json through the download layer (cache, HF_TOKEN, the offline
 * refusal), run by Hugging Face's pure-JS tokenizers.js.
 */
import { readFileSync } from "node:fs";
import { Tokenizer } from "@huggingface/tokenizers";
import { hfDownload } from "../../download/index.ts";
import type { PrepareContext } from "./_prepare.ts";

export const QWEN3_TOKENIZER_REPO = "Qwen/Qwen3-0.6B";

/** A function giving a text's token count (special tokens added as `encode` adds them by default). */
export async function qwen3TokenCounter(context: PrepareContext, repoId = QWEN3_TOKENIZER_REPO): Promise<(text: string) => number> {
  context.log(`Loading the Qwen3 tokenizer (${repoId})...`);
  const read = async (path: string) => JSON.parse(readFileSync(await hfDownload({ repoId, path, repoType: "model" }, { log: context.log }), "utf8"));
  const tokenizer = new Tokenizer(await read("tokenizer.json"), await read("tokenizer_config.json"));
  return (text) => tokenizer.encode(text).ids.length;
}
