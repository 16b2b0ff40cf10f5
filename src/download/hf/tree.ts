/**
 * A Hub repository's file listing at a revision, as huggingface_hub's `list_repo_tree` asks for it:
 * `GET /api/<type>s/<repo>/tree/<revision>[/<path>]?recursive=…&expand=false`, page after page by the Link
 * header's `rel="next"`. The same rules as file downloads: a listing at a full commit sha is served from the cache
 * without asking; a branch, tag or short sha is listed again and the cache refreshed; offline (HF_HUB_OFFLINE /
 * GYM_OFFLINE) the cached listing answers or the offline refusal names it; when the Hub cannot be reached the
 * cached listing answers with a warning. Listings are kept under `<repo cache>/trees/<revision>/…json`.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { GymError } from "../../errors.ts";
import { writeFileAtomic } from "../../runtime/files.ts";
import { type Env, isOffline, offlineError } from "../cache.ts";
import { hfRepoCacheDir, isCommitSha } from "./cache.ts";
import { describeHubStatus, type HfRepoType, hfEndpoint, hfToken } from "./hub.ts";

/** One entry of a listing, with the fields the Hub sends (`lfs` for files stored with LFS). */
export interface HfTreeEntry {
  type: "file" | "directory";
  path: string;
  size: number;
  oid: string;
  lfs?: { oid: string; size: number; pointerSize: number };
}

export interface HfTreeRequest {
  repoId: string;
  repoType?: HfRepoType;
  /** Branch, tag or commit (a short sha too); default `main`. */
  revision?: string;
  /** A folder of the repo; default the root. */
  path?: string;
  /** Every file and folder below, not only the folder's own entries. */
  recursive?: boolean;
}

export interface HfTreeOptions {
  env?: Env;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /** List again even when a listing at a commit sha is cached. */
  force?: boolean;
  /** Where a cached listing served without asking the Hub is announced; default stderr. */
  warn?: (line: string) => void;
}

const typePrefix = (t: HfRepoType) => (t === "dataset" ? "datasets" : t === "space" ? "spaces" : "models");

/** The first page's URL: revision and path quoted whole (`/` too), as huggingface_hub quotes them. */
export function hfTreeUrl(request: HfTreeRequest, env: Env = process.env): string {
  const revision = encodeURIComponent(request.revision ?? "main");
  const path = request.path ? `/${encodeURIComponent(request.path.replace(/^\/+|\/+$/g, ""))}` : "";
  return `${hfEndpoint(env)}/api/${typePrefix(request.repoType ?? "dataset")}/${request.repoId}/tree/${revision}${path}?recursive=${request.recursive ? "true" : "false"}&expand=false`;
}

class Unreachable extends Error {}

/** The Link header's `rel="next"` URL, if any. */
export function nextLink(header: string | null): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(",")) {
    const m = /^\s*<([^>]+)>\s*;(.*)$/.exec(part);
    if (m && /(^|;)\s*rel\s*=\s*"?next"?\s*(;|$)/i.test(m[2]!)) return m[1];
  }
  return undefined;
}

function checkEntries(body: unknown, url: string): HfTreeEntry[] {
  const ok = Array.isArray(body) && body.every((e) => e && typeof e === "object" && (e.type === "file" || e.type === "directory") && typeof e.path === "string");
  if (!ok) throw new GymError("E_HTTP", `${url} did not answer a Hugging Face tree listing (a JSON array of {type, path, …}).`, { hint: "Point HF_ENDPOINT at the Hub or a mirror that serves /api/…/tree." });
  return (body as HfTreeEntry[]).map((e) => ({ type: e.type, path: e.path, size: Number(e.size ?? 0), oid: String(e.oid ?? ""), ...(e.lfs ? { lfs: e.lfs } : {}) }));
}

/** Every entry of the listing, in the Hub's order (see the module note). */
export async function hfListTree(request: HfTreeRequest, options: HfTreeOptions = {}): Promise<HfTreeEntry[]> {
  const env = options.env ?? process.env;
  const revision = request.revision ?? "main";
  const url = hfTreeUrl(request, env);
  const folder = request.path?.replace(/^\/+|\/+$/g, "") ?? "";
  const cachePath = join(hfRepoCacheDir(request, env), "trees", encodeURIComponent(revision), `${encodeURIComponent(folder) || "_root"}.${request.recursive ? "recursive" : "flat"}.json`);
  const cached = () => (existsSync(cachePath) ? (JSON.parse(readFileSync(cachePath, "utf8")) as { entries: HfTreeEntry[] }).entries : undefined);
  if (isCommitSha(revision) && !options.force) {
    const hit = cached();
    if (hit) return hit;
  }
  if (isOffline(env)) {
    const hit = cached();
    if (hit) return hit;
    throw offlineError(url, cachePath, env);
  }
  const token = hfToken(env);
  const headers: Record<string, string> = { accept: "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const origin = new URL(url).origin;
  const entries: HfTreeEntry[] = [];
  try {
    for (let page: string | undefined = url; page; ) {
      const timeout = AbortSignal.timeout(Number(env.HF_HUB_DOWNLOAD_TIMEOUT) > 0 ? Number(env.HF_HUB_DOWNLOAD_TIMEOUT) * 1000 : 30_000);
      let response: Response;
      try {
        // The token goes only to the Hub's own origin (a next link elsewhere gets none).
        response = await (options.fetch ?? fetch)(page, { headers: new URL(page).origin === origin ? headers : { accept: "application/json" }, signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout });
      } catch (error) {
        if (options.signal?.aborted) throw error;
        throw new Unreachable(`cannot reach ${new URL(page).host}: ${(error as Error).message.replace(/[.\s]+$/, "")}`);
      }
      if (response.status === 429 || response.status >= 500) {
        await response.body?.cancel();
        throw new Unreachable(`${new URL(page).host} answered HTTP ${response.status}`);
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw describeHubStatus({ repoId: request.repoId, repoType: request.repoType, revision, path: folder || "/" }, response, env);
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        body = null;
      }
      entries.push(...checkEntries(body, page));
      const next = nextLink(response.headers.get("link"));
      page = next ? new URL(next, page).toString() : undefined;
    }
  } catch (error) {
    if (!(error instanceof Unreachable)) throw error;
    const hit = cached();
    if (!hit) throw new GymError("E_HTTP", `Cannot list ${request.repoId} at '${revision}': ${error.message}, and no listing is cached.`, { hint: "Check the network and HF_ENDPOINT, then try again." });
    (options.warn ?? ((line) => process.stderr.write(`${line}\n`)))(`Warning: the Hugging Face Hub could not be asked for the files of ${request.repoId} at '${revision}' (${error.message}); using the cached listing.`);
    return hit;
  }
  writeFileAtomic(cachePath, `${JSON.stringify({ url, entries })}\n`);
  return entries;
}
