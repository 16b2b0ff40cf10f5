/** Hugging Face Hub addresses and answers: HF_ENDPOINT, HF_TOKEN, `resolve` URLs, the Hub's error headers. */
import { GymError } from "../../errors.ts";
import type { Env } from "../cache.ts";

export type HfRepoType = "dataset" | "model" | "space";

/** One file of one Hub repository at one revision (branch, tag or commit; default `main`). */
export interface HfFile {
  repoId: string;
  path: string;
  revision?: string;
  /** Default "dataset". */
  repoType?: HfRepoType;
}

/** HF_ENDPOINT without a trailing slash, else https://huggingface.co. */
export function hfEndpoint(env: Env = process.env): string {
  return (env.HF_ENDPOINT || "https://huggingface.co").replace(/\/+$/, "");
}

/** HF_TOKEN (or the older HUGGING_FACE_HUB_TOKEN), trimmed; undefined when unset or empty. */
export function hfToken(env: Env = process.env): string | undefined {
  const token = (env.HF_TOKEN ?? env.HUGGING_FACE_HUB_TOKEN)?.trim();
  return token ? token : undefined;
}

const typePrefix = (t: HfRepoType) => (t === "dataset" ? "datasets/" : t === "space" ? "spaces/" : "");

/** `<endpoint>/datasets/<repo>/resolve/<revision>/<path>`, the revision and each path segment URL-encoded (as huggingface_hub does). */
export function hfResolveUrl(file: HfFile, env: Env = process.env): string {
  const revision = encodeURIComponent(file.revision ?? "main");
  const path = file.path.split("/").map(encodeURIComponent).join("/");
  return `${hfEndpoint(env)}/${typePrefix(file.repoType ?? "dataset")}${file.repoId}/resolve/${revision}/${path}`;
}

/** The page of a repo on the Hub, for hints. */
export function hfRepoPage(file: Pick<HfFile, "repoId" | "repoType">, env: Env = process.env): string {
  return `${hfEndpoint(env)}/${typePrefix(file.repoType ?? "dataset")}${file.repoId}`;
}

/** Turns a Hub error answer into an error naming the repo, revision and file, read from X-Error-Code as huggingface_hub does. */
export function describeHubStatus(file: HfFile, response: Response, env: Env): GymError {
  const code = response.headers.get("x-error-code") ?? "";
  const serverMessage = response.headers.get("x-error-message");
  const where = `${file.repoType ?? "dataset"} ${file.repoId}`;
  const revision = file.revision ?? "main";
  const token = hfToken(env);
  const page = hfRepoPage(file, env);
  const said = serverMessage ? ` (${serverMessage})` : "";
  if (code === "GatedRepo") {
    // The Hub answers 401 to an anonymous request and 403 to a token that was not granted access.
    const problem = token ? "your HF_TOKEN has not been granted access to it" : "no HF_TOKEN was sent";
    return new GymError("E_HTTP", `Hugging Face ${where} is gated and ${problem} (HTTP ${response.status})${said}.`, {
      hint: `Request access at ${page} (log in, read and accept the conditions; some repos grant it only after review), then set HF_TOKEN to a read token of that account (https://huggingface.co/settings/tokens).`,
    });
  }
  if (response.status === 401 && !code && token) {
    return new GymError("E_HTTP", `Hugging Face refused HF_TOKEN for ${where} (HTTP 401)${said}.`, { hint: "The token is invalid or expired: create a read token at https://huggingface.co/settings/tokens and set HF_TOKEN to it (or in env.yaml as hf_token)." });
  }
  if (code === "RepoNotFound" || response.status === 401) {
    return new GymError("E_HTTP", `Hugging Face ${where} was not found, or is private, at ${hfEndpoint(env)} (HTTP ${response.status})${said}.`, {
      hint: token ? `Check the repo id (${page}) and that your HF_TOKEN can read it.` : `Check the repo id (${page}); a private repo needs HF_TOKEN set to a token that can read it.`,
    });
  }
  if (response.status === 403) {
    return new GymError("E_HTTP", `Hugging Face ${where} refused ${file.path}: HTTP ${response.status}${said}.`, {
      hint: token ? `Accept the repo's terms at ${page} with the account of your HF_TOKEN, or use a token that has access.` : `This repo is gated: accept its terms at ${page} and set HF_TOKEN to a token of that account.`,
    });
  }
  if (code === "RevisionNotFound") {
    return new GymError("E_HTTP", `Hugging Face ${where} has no revision '${revision}' (HTTP ${response.status})${said}.`, { hint: `Pass an existing branch, tag or commit (--revision); see ${page}/tree/main.` });
  }
  if (code === "EntryNotFound" || response.status === 404) {
    return new GymError("E_HTTP", `Hugging Face ${where} has no file '${file.path}' at revision '${revision}' (HTTP ${response.status})${said}.`, { hint: `Check the file name (--artifact) against ${page}/tree/${encodeURIComponent(revision)}.` });
  }
  return new GymError("E_HTTP", `Hugging Face ${where}: ${file.path} at '${revision}' answered HTTP ${response.status}${said}.`, { hint: "Check HF_ENDPOINT and your token, or try again later." });
}
