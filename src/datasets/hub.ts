/** Hugging Face Hub file downloads: HF_ENDPOINT base URL, HF_TOKEN auth, a local cache, and clear offline errors. */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { GymError } from "../errors.ts";
import { writeFileAtomic } from "../runtime/files.ts";

export interface HubOptions {
  env?: Record<string, string | undefined>;
  /** The fetch to use (tests pass none: the real one against a local server). */
  fetch?: typeof fetch;
}

/** Where downloads are cached: NEMO_GYM_CACHE_DIR, else $XDG_CACHE_HOME/nemo-gym, else ~/.cache/nemo-gym. */
export function hubCacheDir(env: Record<string, string | undefined> = process.env): string {
  return env.NEMO_GYM_CACHE_DIR ?? join(env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "nemo-gym");
}

/**
 * Returns the text of `file` in a Hub repo: from the cache when present, else downloaded from
 * `${HF_ENDPOINT:-https://huggingface.co}/<datasets/>repo/resolve/<revision>/<file>` and cached.
 * HF_HUB_OFFLINE=1 uses the cache only.
 */
export async function hubDownload(repoId: string, file: string, options: { revision?: string; repoType?: "datasets" | "models" } & HubOptions = {}): Promise<string> {
  const env = options.env ?? process.env;
  const revision = options.revision ?? "main";
  const repoType = options.repoType ?? "datasets";
  const cached = join(hubCacheDir(env), "hub", repoType, ...repoId.split("/"), revision, ...file.split("/"));
  if (existsSync(cached)) return readFileSync(cached, "utf8");
  const endpoint = (env.HF_ENDPOINT ?? "https://huggingface.co").replace(/\/+$/, "");
  const url = `${endpoint}/${repoType === "datasets" ? "datasets/" : ""}${repoId}/resolve/${encodeURIComponent(revision)}/${file.split("/").map(encodeURIComponent).join("/")}`;
  const offlineHint = `Download it on a machine with access and copy it to ${cached}, or point HF_ENDPOINT at a reachable mirror.`;
  if (env.HF_HUB_OFFLINE === "1" || env.HF_HUB_OFFLINE === "true") {
    throw new GymError("E_IO", `HF_HUB_OFFLINE is set and ${repoId}/${file} is not in the cache.`, { hint: offlineHint });
  }
  const headers: Record<string, string> = {};
  if (env.HF_TOKEN) headers.authorization = `Bearer ${env.HF_TOKEN}`;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, { headers, redirect: "follow" });
  } catch (error) {
    throw new GymError("E_HTTP", `Cannot reach ${endpoint} to download ${repoId}/${file}: ${(error as Error).message.replace(/[.?!\s]+$/, "")} (are you offline?)`, { hint: offlineHint, cause: error });
  }
  if (response.status === 401 || response.status === 403) {
    throw new GymError("E_HTTP", `${url} refused the download (HTTP ${response.status}).`, {
      hint: env.HF_TOKEN ? `Check that your HF_TOKEN has accepted the terms of https://huggingface.co/${repoType === "datasets" ? "datasets/" : ""}${repoId}.` : "This repository is gated or private: set HF_TOKEN to a Hugging Face token that has access.",
    });
  }
  if (!response.ok) throw new GymError("E_HTTP", `${url} answered HTTP ${response.status}.`, { hint: "Check the repository, file and revision names, and HF_ENDPOINT." });
  const text = await response.text();
  writeFileAtomic(cached, text);
  return text;
}
