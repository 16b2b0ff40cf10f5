/** Downloading one URL to one file: resume with Range or a clean restart, size and hash checks, then an atomic rename. */
import * as fs from "node:fs";
import { dirname } from "node:path";
import { GymError } from "../errors.ts";
import { readBytes } from "../runtime/files.ts";
import { type Env, isOffline, offlineError, prefetchHint } from "./cache.ts";
import { ContentHasher, type ExpectedHash, hashFromEtag } from "./hash.ts";
import { getFollowing } from "./http.ts";
import { type ProgressSink, terminalProgress } from "./progress.ts";

export interface DownloadOptions {
  /** Request headers (Authorization included); never logged. */
  headers?: Record<string, string>;
  /** The byte count the file must have; else the server's Content-Length / Content-Range / X-Linked-Size. */
  size?: number;
  /** The hash the file must have; else, with `etagHash`, what the server's (X-Linked-)ETag announces. */
  hash?: ExpectedHash;
  /** Trust a 64- or 40-hex ETag as the content hash (Hugging Face resolve answers). */
  etagHash?: boolean;
  /** What the user calls this file in messages ("repo/file"); default the URL. */
  label?: string;
  /** Extra tries after a dropped connection, a 5xx or a 429 (default 3); each resumes where the last stopped. */
  retries?: number;
  /**
   * What a user can do when the file cannot be fetched (offline, or the server unreachable after every try);
   * default: the Hugging Face advice (`gym env prefetch`, HF_HUB_OFFLINE, HF_ENDPOINT). Harbor and GitLab name
   * their own settings here.
   */
  recovery?: string;
  /** Turns a non-OK, non-retryable answer into the error to throw (the Hub names repo, revision and file). */
  describeStatus?: (response: Response, url: string) => GymError;
  env?: Env;
  fetch?: typeof fetch;
  progress?: ProgressSink;
  /** One line per finished download (stderr logging); default none. */
  log?: (line: string) => void;
  signal?: AbortSignal;
}

export interface DownloadResult {
  path: string;
  bytes: number;
  /** The digest that was checked, when one was. */
  verified?: ExpectedHash;
  /** The URL that finally answered (after redirects). */
  finalUrl: string;
  repoCommit?: string;
  /** Bytes that came from an earlier, interrupted attempt. */
  resumedFrom: number;
}

interface PartMeta {
  url: string;
  validator?: string;
}

/** A retryable failure inside one attempt (the next attempt resumes). */
class Retry extends Error {}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Downloads `url` to `dest`. Bytes go to `<dest>.part` (kept, with `<dest>.part.json`, for the next try to
 * resume with Range/If-Range; a server that ignores Range restarts it cleanly); the size and hash are
 * checked before the rename, so `dest` is either absent or complete. Offline mode refuses with the URL.
 */
export async function downloadFile(url: string, dest: string, options: DownloadOptions = {}): Promise<DownloadResult> {
  const env = options.env ?? process.env;
  const label = options.label ?? url;
  if (isOffline(env)) {
    const refusal = offlineError(url, dest, env);
    throw options.recovery ? new GymError(refusal.code, refusal.message, { hint: options.recovery }) : refusal;
  }
  const part = `${dest}.part`;
  const metaPath = `${dest}.part.json`;
  try {
    fs.mkdirSync(dirname(dest), { recursive: true });
  } catch (error) {
    throw diskError(error, dest, label, env);
  }
  const retries = options.retries ?? 3;
  let lastProblem = "";
  let hashFailures = 0;
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (attempt > 0) await sleep(Math.min(200 * 2 ** (attempt - 1), 3000));
    try {
      return await attemptOnce(url, dest, part, metaPath, label, options, env);
    } catch (error) {
      if (error instanceof HashMismatch) {
        removePart(part, metaPath);
        if (++hashFailures > 1) throw error.gymError;
        lastProblem = error.message;
        continue;
      }
      if (!(error instanceof Retry)) throw error;
      lastProblem = error.message;
    }
  }
  throw new GymError("E_HTTP", `Downloading ${label} failed after ${retries + 1} tries: ${lastProblem}.`, {
    hint: `Run the same command again: it resumes from the ${partSize(part)} bytes kept in ${part}. ${options.recovery ?? prefetchHint(env)}`,
  });
}

class HashMismatch extends Error {
  constructor(readonly gymError: GymError) {
    super(gymError.message);
  }
}

function partSize(part: string): number {
  try {
    return fs.statSync(part).size;
  } catch {
    return 0;
  }
}

function removePart(part: string, metaPath: string): void {
  fs.rmSync(part, { force: true });
  fs.rmSync(metaPath, { force: true });
}

function readMeta(metaPath: string): PartMeta | undefined {
  try {
    return JSON.parse(fs.readFileSync(metaPath, "utf8")) as PartMeta;
  } catch {
    return undefined;
  }
}

async function attemptOnce(url: string, dest: string, part: string, metaPath: string, label: string, options: DownloadOptions, env: Env): Promise<DownloadResult> {
  const meta = readMeta(metaPath);
  let offset = meta?.url === url ? partSize(part) : 0;
  if (offset === 0) removePart(part, metaPath);
  const headers: Record<string, string> = { "accept-encoding": "identity", ...options.headers };
  if (offset > 0) {
    headers.range = `bytes=${offset}-`;
    if (meta?.validator) headers["if-range"] = meta.validator;
  }
  let followed;
  try {
    followed = await getFollowing(url, headers, options.fetch, options.signal);
  } catch (error) {
    if (error instanceof GymError) throw error;
    if (options.signal?.aborted) throw error;
    const host = new URL(url).host;
    throw new Retry(`cannot reach ${host} (${(error as Error).message.replace(/[.\s]+$/, "")}; are you offline?)`);
  }
  const { response } = followed;
  const status = response.status;
  if (status === 416 && offset > 0) {
    await response.body?.cancel();
    removePart(part, metaPath);
    throw new Retry("the kept partial file did not match the server's (restarting it)");
  }
  if (status === 429 || status >= 500) {
    await response.body?.cancel();
    const wait = Number(response.headers.get("retry-after"));
    if (wait > 0 && wait <= 30) await sleep(wait * 1000);
    throw new Retry(`${followed.finalUrl === url ? url : `${url} (via ${new URL(followed.finalUrl).host})`} answered HTTP ${status}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw options.describeStatus?.(response, url) ?? new GymError("E_HTTP", `${url} answered HTTP ${status} for ${label}.`, { hint: "Check the URL, the name and revision, and your token." });
  }
  let total: number | undefined;
  const contentLength = response.headers.get("content-length");
  if (status === 206) {
    const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(response.headers.get("content-range") ?? "");
    if (!m || Number(m[1]) !== offset) {
      await response.body?.cancel();
      removePart(part, metaPath);
      throw new Retry("the server resumed at another offset than asked (restarting)");
    }
    if (m[3] !== "*") total = Number(m[3]);
  } else {
    // 200 to a Range request: the server ignored it (or If-Range saw a changed file): start over.
    if (offset > 0) removePart(part, metaPath);
    offset = 0;
    if (contentLength !== null && /^\d+$/.test(contentLength)) total = Number(contentLength);
  }
  const expectedSize = options.size ?? followed.linkedSize ?? total;
  if (total !== undefined && expectedSize !== undefined && total !== expectedSize) {
    await response.body?.cancel();
    throw new GymError("E_CHECK_FAILED", `${label}: the server sends ${total} bytes but ${expectedSize} were expected.`, { hint: "The file changed on the server or a proxy rewrote it; check the revision, or download again later." });
  }
  const validator = response.headers.get("etag") ?? response.headers.get("last-modified") ?? undefined;
  const strongValidator = validator && !validator.startsWith("W/") ? validator : undefined;
  const expectedHash = options.hash ?? (options.etagHash ? hashFromEtag(followed.linkedEtag ?? response.headers.get("etag")) : undefined);
  const hasher = expectedHash ? new ContentHasher(expectedHash, expectedSize) : undefined;
  let fd: number;
  try {
    if (offset > 0 && hasher) for await (const chunk of readBytes(part, { reuseBuffer: true })) hasher.update(chunk);
    fd = fs.openSync(part, offset > 0 ? "a" : "w");
    fs.writeFileSync(metaPath, JSON.stringify({ url, validator: strongValidator } satisfies PartMeta));
  } catch (error) {
    await response.body?.cancel();
    throw diskError(error, part, label, env);
  }
  const progress = options.progress ?? terminalProgress(env);
  progress.start(label, expectedSize, offset);
  let bytes = offset;
  let closed = false;
  try {
    const reader = response.body!.getReader();
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        throw new Retry(`the connection dropped after ${bytes} of ${expectedSize ?? "?"} bytes (${(error as Error).message.replace(/[.\s]+$/, "")})`);
      }
      if (chunk.done) break;
      try {
        writeAll(fd, chunk.value);
      } catch (error) {
        await reader.cancel().catch(() => {});
        throw diskError(error, part, label, env);
      }
      hasher?.update(chunk.value);
      bytes += chunk.value.length;
      progress.update(chunk.value.length);
    }
    if (expectedSize !== undefined && bytes < expectedSize) throw new Retry(`the connection closed after ${bytes} of ${expectedSize} bytes`);
    if (expectedSize !== undefined && bytes > expectedSize) {
      removePart(part, metaPath);
      throw new GymError("E_CHECK_FAILED", `${label}: received ${bytes} bytes, more than the ${expectedSize} announced.`, { hint: "A proxy or the server is sending something else; download again, or check HF_ENDPOINT." });
    }
    if (hasher && expectedHash) {
      const actual = hasher.digest();
      if (actual !== expectedHash.hex) {
        throw new HashMismatch(new GymError("E_CHECK_FAILED", `${label}: the downloaded bytes have ${expectedHash.algorithm} ${actual}, the server announced ${expectedHash.hex}.`, { hint: "The transfer was corrupted twice; nothing was kept. Run it again, or check the proxy between you and the server." }));
      }
    }
    try {
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      closed = true;
      fs.renameSync(part, dest);
      fs.rmSync(metaPath, { force: true });
    } catch (error) {
      throw diskError(error, dest, label, env);
    }
  } finally {
    if (!closed) fs.closeSync(fd);
    progress.done();
  }
  options.log?.(`Downloaded ${label} (${bytes} bytes${offset > 0 ? `, resumed at ${offset}` : ""}) to ${dest}`);
  return { path: dest, bytes, verified: expectedHash, finalUrl: followed.finalUrl, repoCommit: followed.repoCommit, resumedFrom: offset };
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) offset += fs.writeSync(fd, bytes, offset, bytes.length - offset);
}

/** A file-system failure while writing a download: a full disk frees the partial file; the fix names the cache. */
function diskError(error: unknown, file: string, label: string, env: Env): GymError {
  if (error instanceof GymError) return error;
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === "ENOSPC" || code === "EDQUOT") {
    fs.rmSync(`${file.replace(/\.part$/, "")}.part`, { force: true });
    return new GymError("E_IO", `No space left on the device while downloading ${label} to ${file}; the partial file was removed.`, {
      hint: `Free some space on the disk that holds ${dirname(file)} (for the download cache, or set NEMO_GYM_CACHE_DIR to a folder on a larger disk), then run the same command again.`,
      cause: error,
    });
  }
  const message = (error as Error)?.message ?? String(error);
  return new GymError("E_IO", `Cannot write ${file} while downloading ${label}: ${message}`, { hint: "Check that the folder is writable (or choose another with NEMO_GYM_CACHE_DIR / --output).", cause: error });
}
