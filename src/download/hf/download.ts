/**
 * Downloading a Hub file as huggingface_hub does: a branch or tag is revalidated with a HEAD request (the
 * commit it points at now, X-Repo-Commit, and the file's ETag), the cache is keyed by that commit, and a file
 * is fetched only when its bytes are not cached yet. The cache answers without asking only for a commit sha,
 * offline (HF_HUB_OFFLINE / GYM_OFFLINE), or when the Hub cannot be reached (with a warning naming the commit).
 */
import { createHash } from "node:crypto";
import { existsSync, renameSync, rmSync } from "node:fs";
import { GymError } from "../../errors.ts";
import { type Env, isOffline, offlineError } from "../cache.ts";
import { type DownloadOptions, downloadFile } from "../file.ts";
import { hashFromEtag } from "../hash.ts";
import { describeHubStatus, type HfFile, hfEndpoint, hfResolveUrl, hfToken } from "./hub.ts";
import { HubCache, hfRepoCacheDir, isCommitSha } from "./cache.ts";

export interface HfDownloadOptions extends Omit<DownloadOptions, "describeStatus" | "etagHash" | "label" | "headers"> {
  /** Download again even when the file is cached. */
  force?: boolean;
  /** Where a cached copy served without revalidation is announced; default stderr. */
  warn?: (line: string) => void;
}

/** What a HEAD on the resolve URL tells: the commit the revision names now and the file's blob name. */
interface HubFileMetadata {
  commit: string;
  blob: string;
}

/** The Hub could not be asked (no connection, a timeout, a 5xx or 429): the cache may stand in. */
class Unreachable extends Error {}

/** Returns the local path of a Hub file at its revision's current commit (see the module note). */
export async function hfDownload(file: HfFile, options: HfDownloadOptions = {}): Promise<string> {
  const env = options.env ?? process.env;
  const revision = file.revision ?? "main";
  const cache = new HubCache(hfRepoCacheDir(file, env));
  const label = `${file.repoId}/${file.path}${revision !== "main" ? `@${revision}` : ""}`;
  const known = cache.ref(revision);
  const cachedPath = known ? cache.snapshot(known, file.path) : undefined;
  const cached = cachedPath && existsSync(cachedPath) ? cachedPath : undefined;
  if (cached && !options.force && isCommitSha(revision)) return cached;
  const legacy = existsSync(cache.legacy(revision, file.path)) ? cache.legacy(revision, file.path) : undefined;
  if (isOffline(env)) {
    const copy = cached ?? legacy;
    if (copy) return copy;
    throw offlineError(hfResolveUrl(file, env), cachedPath ?? cache.snapshot(revision, file.path), env);
  }
  const token = hfToken(env);
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const get = (url: string, dest: string) =>
    downloadFile(url, dest, { ...options, env, headers, etagHash: true, label, describeStatus: (response) => describeHubStatus(file, response, env) });
  let meta: HubFileMetadata | undefined;
  try {
    meta = await headFile(file, headers, env, options);
  } catch (error) {
    if (!(error instanceof Unreachable)) throw error;
    const copy = cached ?? legacy;
    if (copy && !options.force) {
      const which = cached ? `commit ${known}` : "a commit gym did not record (cached by an earlier version)";
      (options.warn ?? ((line) => process.stderr.write(`${line}\n`)))(
        `Warning: the Hugging Face Hub could not be asked whether '${revision}' of ${file.repoId} changed (${error.message}); using the cached ${file.path} of ${which}.`,
      );
      return copy;
    }
  }
  if (meta) {
    cache.setRef(revision, meta.commit);
    const snapshot = cache.snapshot(meta.commit, file.path);
    if (existsSync(snapshot) && !options.force) return snapshot;
    const blob = cache.blob(meta.blob);
    // The bytes of the commit just resolved, even if the branch moves again meanwhile.
    if (options.force || !existsSync(blob)) await get(hfResolveUrl({ ...file, revision: meta.commit }, env), blob);
    return cache.link(blob, meta.commit, file.path);
  }
  // The HEAD found no answer and nothing is cached: the download's own retries try the revision itself.
  const pending = cache.blob(`pending-${createHash("sha256").update(`${revision}\n${file.path}`).digest("hex")}`);
  const result = await get(hfResolveUrl(file, env), pending);
  if (!result.repoCommit) {
    rmSync(pending, { force: true });
    throw notAHub(env);
  }
  const blob = cache.blob(result.verified?.hex ?? createHash("sha256").update(`${result.repoCommit}\n${file.path}`).digest("hex"));
  renameSync(pending, blob);
  cache.setRef(revision, result.repoCommit);
  return cache.link(blob, result.repoCommit, file.path);
}

/**
 * HEAD on the resolve URL. Redirects are followed only while no answer has named the commit (a renamed repo);
 * the Hub puts X-Repo-Commit and X-Linked-Etag on the LFS redirect itself, so the CDN is never asked.
 * HF_HUB_ETAG_TIMEOUT (seconds, default 10) bounds it, as in huggingface_hub.
 */
async function headFile(file: HfFile, headers: Record<string, string>, env: Env, options: HfDownloadOptions): Promise<HubFileMetadata> {
  const timeout = Number(env.HF_HUB_ETAG_TIMEOUT) > 0 ? Number(env.HF_HUB_ETAG_TIMEOUT) * 1000 : 10_000;
  const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(timeout)]) : AbortSignal.timeout(timeout);
  let url = hfResolveUrl(file, env);
  const origin = new URL(url).origin;
  for (let hop = 0; hop < 10; hop++) {
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(url, { method: "HEAD", redirect: "manual", headers: new URL(url).origin === origin ? headers : {}, signal });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw new Unreachable(`cannot reach ${new URL(url).host}: ${(error as Error).message.replace(/[.\s]+$/, "")}`);
    }
    await response.body?.cancel();
    const h = response.headers;
    const commit = h.get("x-repo-commit");
    if (response.status === 429 || response.status >= 500) throw new Unreachable(`${new URL(url).host} answered HTTP ${response.status}`);
    if (response.status >= 400) throw describeHubStatus(file, response, env);
    if (commit) {
      const etag = h.get("x-linked-etag") ?? h.get("etag") ?? "";
      const blob = hashFromEtag(etag)?.hex ?? createHash("sha256").update(etag || `${commit}\n${file.path}`).digest("hex");
      return { commit, blob };
    }
    const location = h.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url).toString();
      continue;
    }
    throw notAHub(env);
  }
  throw new GymError("E_HTTP", `${hfResolveUrl(file, env)} redirected more than 10 times.`, { hint: "Check HF_ENDPOINT: a redirect loop is a server or proxy misconfiguration." });
}

function notAHub(env: Env): GymError {
  return new GymError("E_HTTP", `${hfEndpoint(env)} answered without X-Repo-Commit, so it does not look like a Hugging Face Hub (or a proxy strips its headers).`, {
    hint: "Point HF_ENDPOINT at the Hub or a mirror that passes the Hub's headers through, or check your proxy settings.",
  });
}
