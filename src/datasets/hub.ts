/** Hugging Face Hub files as text for benchmark `prepare` scripts, through the download layer (cache, HF_ENDPOINT, HF_TOKEN, offline). */
import { readFileSync } from "node:fs";
import { type Env, hfDownload } from "../download/index.ts";

export interface HubOptions {
  env?: Env;
  /** The fetch to use (tests pass none: the real one against a local server). */
  fetch?: typeof fetch;
}

/**
 * Returns the text of `file` in a Hub repo: from the cache when present, else downloaded from
 * `${HF_ENDPOINT:-https://huggingface.co}/<datasets/>repo/resolve/<revision>/<file>` (checked, cached).
 * HF_HUB_OFFLINE=1 uses the cache only.
 */
export async function hubDownload(repoId: string, file: string, options: { revision?: string; repoType?: "datasets" | "models" } & HubOptions = {}): Promise<string> {
  const repoType = options.repoType === "models" ? "model" : "dataset";
  const path = await hfDownload({ repoId, path: file, revision: options.revision, repoType }, { env: options.env, fetch: options.fetch });
  return readFileSync(path, "utf8");
}
