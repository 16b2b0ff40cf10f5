/**
 * The one download layer: HTTP GETs into a cache, Hugging Face files, and Parquet rows.
 *
 * API (import from "../download/index.ts"):
 * - `downloadFile(url, dest, options)` → `{ path, bytes, verified, finalUrl, resumedFrom }`. Writes
 *   `<dest>.part` then renames: `dest` is absent or complete. Resumes a kept `.part` with Range/If-Range
 *   (a server that ignores Range restarts it cleanly); retries dropped connections, 5xx and 429
 *   (`retries`, default 3); checks `size` and `hash` ({ algorithm: "sha256" | "git-sha1", hex }), or with
 *   `etagHash` the Hub's X-Linked-Etag/ETag; `describeStatus(response, url)` maps an error answer to a
 *   GymError. Progress on stderr when it is a TTY (`NO_PROGRESS=1` hides it). A full disk removes the
 *   partial file and names the folder.
 * - `hfDownload({ repoId, path, revision?, repoType? }, options)` → the local path
 *   `<cache>/hf/<kind>/<repo>/snapshots/<commit>/<path>`. A branch or tag is revalidated by a HEAD
 *   (X-Repo-Commit, X-Linked-Etag/ETag) and recorded in `refs/`; bytes live once in `blobs/<etag>`
 *   (`hf/cache.ts`). Cached copies are served unasked only for a commit sha, offline, or
 *   an unreachable Hub (`warn` hears which commit). Uses HF_ENDPOINT (default https://huggingface.co)
 *   and HF_TOKEN (or HUGGING_FACE_HUB_TOKEN) as Bearer auth (kept off other origins on redirects); URL
 *   `datasets/<repo>/resolve/<revision>/<path>`; errors name repo, revision and file (X-Error-Code:
 *   RepoNotFound, RevisionNotFound, EntryNotFound, GatedRepo: 401 without a token, 403 for a token not
 *   granted access). `force` re-downloads. Also `hfResolveUrl`, `hfEndpoint`, `hfToken`, `hfRepoPage`,
 *   `describeHubStatus`.
 * - `hfListTree({ repoId, revision?, path?, recursive?, repoType? }, options)` → the repo's entries
 *   (`{type, path, size, oid, lfs?}`) from `/api/<type>s/<repo>/tree/<revision>[/<path>]`, every page
 *   (Link `rel="next"`), as huggingface_hub's `list_repo_tree`; cached under `trees/`, served unasked
 *   only at a commit sha, offline, or when the Hub is unreachable (`hf/tree.ts`).
 * - `cacheDir(env)`: NEMO_GYM_CACHE_DIR (or GYM_CACHE_DIR), else $XDG_CACHE_HOME/gym, else ~/.cache/gym.
 *   `isOffline(env)`: HF_HUB_OFFLINE or GYM_OFFLINE set; every download then refuses with
 *   `offlineError(url, cachedPath)`, which names the URL and `gym env prefetch` (`prefetchHint`).
 * - `readParquetRows(path, { columns?, pythonFloats? })`: an async iterator of JSON-ready rows (BigInt →
 *   number, Date → ISO string), one row group in memory at a time; `pythonFloats` keeps whole values of
 *   FLOAT/DOUBLE columns as PyFloat (printed `3.0` as Python does); `parquetRowCount(path)`.
 *
 * Tests use `src/testing/hub-server.ts`: a 127.0.0.1 server answering like the Hub's resolve endpoint
 * (a commit per change, X-Repo-Commit, LFS redirects, X-Error-Code 404s, Range, dropped connections) with real Parquet bytes from
 * `src/testing/parquet.ts`.
 */
export { cacheDir, type Env, isOffline, offlineError, prefetchHint } from "./cache.ts";
export { type DownloadOptions, type DownloadResult, downloadFile } from "./file.ts";
export { ContentHasher, type ExpectedHash, hashFromEtag } from "./hash.ts";
export { describeHubStatus, type HfDownloadOptions, type HfFile, type HfRepoType, type HfTreeEntry, type HfTreeOptions, type HfTreeRequest, hfDownload, hfEndpoint, hfListTree, hfRepoPage, hfResolveUrl, hfToken, hfTreeUrl } from "./hf/index.ts";
export { parquetRowCount, readParquetRows, type ParquetRowsOptions } from "./parquet.ts";
export { type ProgressSink, terminalProgress } from "./progress.ts";
