/** One GET with redirects followed by hand: the hops' Hub headers are kept and credentials never leave their origin. */
import { GymError } from "../errors.ts";

const MAX_REDIRECTS = 10;

/** The final answer of a GET, with what the redirect hops announced on the way. */
export interface FollowedResponse {
  response: Response;
  finalUrl: string;
  /** X-Linked-Etag / X-Linked-Size / X-Repo-Commit seen on any hop (the Hub puts them on the LFS redirect). */
  linkedEtag?: string;
  linkedSize?: number;
  repoCommit?: string;
}

/**
 * GETs `url`, following up to 10 redirects. An Authorization header is sent only to the origin it was
 * given for (a CDN's signed URL must not receive the Hub token), as huggingface_hub does.
 */
export async function getFollowing(url: string, headers: Record<string, string>, fetcher: typeof fetch = fetch, signal?: AbortSignal): Promise<FollowedResponse> {
  let current = url;
  const origin = new URL(url).origin;
  const out: Omit<FollowedResponse, "response" | "finalUrl"> = {};
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const sameOrigin = new URL(current).origin === origin;
    const sent = sameOrigin ? headers : Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== "authorization"));
    const response = await fetcher(current, { headers: sent, redirect: "manual", signal });
    const h = response.headers;
    out.linkedEtag ??= h.get("x-linked-etag") ?? undefined;
    const size = h.get("x-linked-size");
    if (size !== null && out.linkedSize === undefined && /^\d+$/.test(size)) out.linkedSize = Number(size);
    out.repoCommit ??= h.get("x-repo-commit") ?? undefined;
    const location = h.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      current = new URL(location, current).toString();
      continue;
    }
    return { response, finalUrl: current, ...out };
  }
  throw new GymError("E_HTTP", `${url} redirected more than ${MAX_REDIRECTS} times.`, { hint: "Check the URL (and HF_ENDPOINT): a redirect loop is a server or proxy misconfiguration." });
}
