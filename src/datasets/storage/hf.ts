/** Hugging Face Hub as dataset storage: uploads through @huggingface/hub (hubUrl from HF_ENDPOINT), checked by the Hub's hash of what landed. */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { GymError } from "../../errors.ts";
import { hfEndpoint, hfResolveUrl } from "../../download/index.ts";
import type { StorageSettings } from "./credentials.ts";

/** The token @huggingface/hub will accept: present and starting with hf_ (it refuses any other). */
export function hubToken(settings: StorageSettings): string {
  const token = settings.hfToken;
  if (!token) throw new GymError("E_CONFIG", "Uploading to Hugging Face needs a token.", { hint: "Set HF_TOKEN (or hf_token in env.yaml) to a write token from https://huggingface.co/settings/tokens." });
  if (!token.startsWith("hf_")) throw new GymError("E_CONFIG", "HF_TOKEN does not start with 'hf_': it is not a Hugging Face user access token.", { hint: "Create one at https://huggingface.co/settings/tokens (they start with hf_) and set HF_TOKEN to it." });
  return token;
}

/** `--repo-id`, else `<hf_organization or the token's user>/<name>`. */
export async function hubRepoId(repoId: string | undefined, name: string | undefined, settings: StorageSettings): Promise<string> {
  if (repoId) return repoId;
  if (!name) throw new GymError("E_MISSING_ARGUMENT", "Pass --repo-id ORG/NAME or --name NAME.", { hint: "e.g. --name my_dataset (the repo is <hf_organization>/my_dataset)." });
  if (settings.hfOrganization) return `${settings.hfOrganization}/${name}`;
  const { whoAmI } = await import("@huggingface/hub");
  const me = await whoAmI({ accessToken: hubToken(settings), hubUrl: hfEndpoint(settings.env) }).catch((e) => {
    throw hubError(e, `who owns HF_TOKEN`);
  });
  return `${me.name}/${name}`;
}

function hubError(error: unknown, what: string): GymError {
  const status = (error as { statusCode?: number }).statusCode;
  const message = ((error as Error).message ?? String(error)).replace(/hf_[A-Za-z0-9]+/g, "hf_***");
  if (status === 401) return new GymError("E_HTTP", `Hugging Face refused HF_TOKEN for ${what} (HTTP 401).`, { hint: "The token is invalid or expired: set HF_TOKEN to a write token from https://huggingface.co/settings/tokens." });
  if (status === 403) return new GymError("E_HTTP", `Hugging Face refused ${what} (HTTP 403): ${message}`, { hint: "The token can read but not write here: use a token with write access to the repo or organization." });
  return new GymError("E_HTTP", `Hugging Face: ${what} failed${status ? ` (HTTP ${status})` : ""}: ${message}`, { hint: "Check --repo-id, --revision and HF_ENDPOINT.", cause: error });
}

/**
 * Uploads `input` as `<file>` to dataset repo `repoId` on branch `revision` (created from main if missing, the repo
 * private if missing), then checks the Hub's hash of the uploaded file against ours. Returns the commit URL.
 */
export async function hubUpload(input: string, repoId: string, options: { revision?: string; file?: string }, settings: StorageSettings): Promise<{ commitUrl?: string; file: string }> {
  const { createRepo, uploadFile, createBranch } = await import("@huggingface/hub");
  const accessToken = hubToken(settings);
  const hubUrl = hfEndpoint(settings.env);
  const repo = { type: "dataset" as const, name: repoId };
  const file = options.file ?? basename(input);
  const revision = options.revision ?? "main";
  await createRepo({ repo, accessToken, hubUrl, private: true }).catch((e) => {
    if ((e as { statusCode?: number }).statusCode !== 409) throw hubError(e, `creating dataset repo ${repoId}`);
  });
  if (revision !== "main") {
    await createBranch({ repo, branch: revision, accessToken, hubUrl }).catch((e) => {
      if ((e as { statusCode?: number }).statusCode !== 409) throw hubError(e, `creating branch ${revision} of ${repoId}`);
    });
  }
  const bytes = readFileSync(input);
  const out = await uploadFile({ repo, accessToken, hubUrl, branch: revision, file: { path: file, content: new Blob([bytes]) }, commitTitle: `Upload ${file} with gym` }).catch((e) => {
    throw hubError(e, `uploading ${file} to ${repoId}@${revision}`);
  });
  await checkUploaded(repoId, file, revision, bytes, settings);
  return { commitUrl: out?.commit.url, file };
}

/** Asks the Hub (HEAD on resolve) for the uploaded file's sha256 (LFS) or git blob id, and compares it with the local bytes. */
export async function checkUploaded(repoId: string, file: string, revision: string, bytes: Uint8Array, settings: StorageSettings): Promise<void> {
  const url = hfResolveUrl({ repoId, path: file, revision }, settings.env);
  const res = await fetch(url, { method: "HEAD", redirect: "manual", headers: { authorization: `Bearer ${settings.hfToken}` } });
  const etag = (res.headers.get("x-linked-etag") ?? res.headers.get("etag") ?? "").replace(/^W\/|"/g, "");
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const gitSha1 = createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
  if (res.status >= 400 || (etag !== sha256 && etag !== gitSha1)) {
    throw new GymError("E_CHECK_FAILED", `After the upload, ${repoId}@${revision}/${file} ${res.status >= 400 ? `answers HTTP ${res.status}` : `has hash ${etag || "(none)"}, ours is ${sha256}`}.`, { hint: "Run the upload again; nothing was deleted." });
  }
}
