/**
 * A 127.0.0.1 stand-in for the Hugging Face Hub's file endpoint (`/<datasets/>repo/resolve/<rev>/<path>`),
 * answering as huggingface.co does: every change is a new commit on its branch, a revision is a branch or a
 * commit sha, every answer (GET and HEAD) carries X-Repo-Commit; LFS files by a 302 to a CDN path with
 * X-Linked-Etag (sha256) and X-Linked-Size, small files with their git blob id as ETag, X-Error-Code on
 * 401/403/404, Range and If-Range, plus faults a test can ask for (dropped connections, ignored Range, 5xx). The tree
 * listing `/api/<type>s/<repo>/tree/<rev>[/<path>]?recursive=…` answers as huggingface.co does (the path quoted
 * whole or by segment, `recursive=true|True|1`, pages of `treePageSize` entries chained by a Link `rel="next"`
 * header with an opaque cursor), and a revision may also be a short commit sha (7+ hex digits, unique).
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { hubApi, type HubApiState } from "./hub-api.ts";

export interface HubFileOptions {
  revision?: string;
  repoType?: "dataset" | "model" | "space";
  /** Stored with LFS (redirected to the CDN path, announced by sha256); default: files of 10 kB or more. */
  lfs?: boolean;
}

export interface HubRepoOptions {
  repoType?: "dataset" | "model" | "space";
  /** Only these tokens may read it (others get 401 RepoNotFound, as the Hub hides private repos). */
  private?: boolean;
  /** Readable with a token only: without one 401 GatedRepo, with a token outside `granted` 403 GatedRepo (as huggingface.co answers). */
  gated?: boolean;
  /** The tokens granted access to a gated repo (default: every valid token). */
  granted?: string[];
}

/** Faults for the next requests that reach a file body; each count decrements as it is used. */
export interface HubFaults {
  /** Close the socket after this many body bytes… */
  dropAfterBytes?: number;
  /** …on this many answers (default 1 once dropAfterBytes is set). */
  drops?: number;
  /** Answer 200 with the whole file to a Range request. */
  ignoreRange?: boolean;
  /** Answer the next N file requests with this status (e.g. 503). */
  status?: { code: number; times: number };
  /** Send these bytes instead of the file's on the next answer (a corrupting proxy). */
  corrupt?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface HubServer {
  url: string;
  /** Adds (or replaces) a file in a new commit on its branch (default main); returns the file's sha256. */
  addFile(repoId: string, path: string, bytes: Uint8Array | string, options?: HubFileOptions): string;
  /** Deletes a file in a new commit on its branch (default main). */
  removeFile(repoId: string, path: string, options?: Omit<HubFileOptions, "lfs">): void;
  /** The commit a branch points at now (as X-Repo-Commit announces it). */
  commitOf(repoId: string, options?: { revision?: string; repoType?: "dataset" | "model" | "space" }): string;
  addRepo(repoId: string, options?: HubRepoOptions): void;
  faults: HubFaults;
  tokens: Set<string>;
  requests: RecordedRequest[];
  /** Where LFS redirects point (default this server); set to another HubServer's url to test cross-origin hops. */
  cdnBase?: string;
  /** Entries per page of a tree listing (the Hub's is 1000 without `expand`). */
  treePageSize: number;
  close(): Promise<void>;
}

export interface StoredFile {
  bytes: Uint8Array;
  sha256: string;
  gitSha1: string;
  lfs: boolean;
}

interface StoredRepo {
  options: HubRepoOptions;
  /** Branch name → commit sha. */
  branches: Map<string, string>;
  /** Commit sha → the files of that commit (never changed once made). */
  commits: Map<string, Map<string, StoredFile>>;
}

/** The commit sha a revision names: a branch's head, a commit sha itself, or the one commit a short sha begins. */
function resolve(repo: StoredRepo, revision: string): string | undefined {
  const named = repo.branches.get(revision) ?? (repo.commits.has(revision) ? revision : undefined);
  if (named || !/^[0-9a-f]{7,39}$/.test(revision)) return named;
  const matches = [...repo.commits.keys()].filter((sha) => sha.startsWith(revision));
  return matches.length === 1 ? matches[0] : undefined;
}

/** The entries of a tree listing of `files` under `folder` ("" for the root), as the Hub lists them, sorted by path. */
function treeEntries(files: Map<string, StoredFile>, folder: string, recursive: boolean): Record<string, unknown>[] | undefined {
  const prefix = folder ? `${folder}/` : "";
  const out = new Map<string, Record<string, unknown>>();
  let found = folder === "";
  for (const [path, file] of files) {
    if (!path.startsWith(prefix)) continue;
    found = true;
    const parts = path.slice(prefix.length).split("/");
    // Folders on the way (all of them when recursive, the first level otherwise).
    for (let depth = 1; depth < parts.length && (recursive || depth === 1); depth++) {
      const dir = prefix + parts.slice(0, depth).join("/");
      if (!out.has(dir)) out.set(dir, { type: "directory", oid: createHash("sha1").update(`tree ${dir}`).digest("hex"), size: 0, path: dir });
    }
    if (!recursive && parts.length > 1) continue;
    out.set(path, {
      type: "file",
      oid: file.gitSha1,
      size: file.bytes.length,
      ...(file.lfs ? { lfs: { oid: file.sha256, size: file.bytes.length, pointerSize: 134 } } : {}),
      path,
    });
  }
  if (!found) return undefined;
  return [...out.values()].sort((a, b) => (String(a.path) < String(b.path) ? -1 : 1));
}

let commitCounter = 0;

/** Makes a new commit on `branch` from its current files changed by `change`; returns its sha. */
function commitTo(repo: StoredRepo, branch: string, change: (files: Map<string, StoredFile>) => void): string {
  const parent = repo.branches.get(branch) ?? "";
  const files = new Map(repo.commits.get(parent) ?? []);
  change(files);
  const listing = [...files].map(([path, f]) => `${path}:${f.sha256}`).join("\n");
  const sha = createHash("sha1").update(`${parent}\n${++commitCounter}\n${listing}`).digest("hex");
  repo.commits.set(sha, files);
  repo.branches.set(branch, sha);
  return sha;
}

const key = (type: string | undefined, repoId: string) => `${type ?? "dataset"}:${repoId}`;

/** A file's bytes with the hashes the Hub announces for it (LFS: files of 10 kB or more unless told). */
function storedFile(bytes: Uint8Array, lfs?: boolean): StoredFile {
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const gitSha1 = createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
  return { bytes, sha256, gitSha1, lfs: lfs ?? bytes.length >= 10_000 };
}

/** Starts the fake Hub on 127.0.0.1 (a free port). */
export async function startHubServer(): Promise<HubServer> {
  const repos = new Map<string, StoredRepo>();
  const blobs = new Map<string, StoredFile>();
  const hub: HubServer = {
    url: "",
    faults: {},
    tokens: new Set(),
    requests: [],
    treePageSize: 1000,
    addRepo(repoId, options = {}) {
      const k = key(options.repoType, repoId);
      const existing = repos.get(k);
      if (existing) existing.options = { ...existing.options, ...options };
      else {
        const repo: StoredRepo = { options, branches: new Map(), commits: new Map() };
        commitTo(repo, "main", () => {}); // the Hub makes an initial commit when a repo is created
        repos.set(k, repo);
      }
    },
    removeFile(repoId, path, options = {}) {
      commitTo(repos.get(key(options.repoType, repoId))!, options.revision ?? "main", (files) => files.delete(path));
    },
    commitOf(repoId, options = {}) {
      return repos.get(key(options.repoType, repoId))!.branches.get(options.revision ?? "main")!;
    },
    addFile(repoId, path, data, options = {}) {
      const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
      const k = key(options.repoType, repoId);
      if (!repos.has(k)) hub.addRepo(repoId, { repoType: options.repoType });
      const file = storedFile(bytes, options.lfs);
      commitTo(repos.get(k)!, options.revision ?? "main", (files) => files.set(path, file));
      blobs.set(file.sha256, file);
      return file.sha256;
    },
    async close() {
      server.closeAllConnections?.();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };

  const bearer = (req: IncomingMessage) => {
    const auth = String(req.headers.authorization ?? "");
    return auth.startsWith("Bearer ") ? auth.slice(7) : undefined;
  };
  const api: HubApiState = {
    hub: () => hub,
    hasRepo: (type, repoId) => repos.has(key(type, repoId)),
    hasRevision: (type, repoId, rev) => repos.get(key(type, repoId))?.branches.has(rev) ?? false,
    head: (type, repoId, rev) => repos.get(key(type, repoId))!.branches.get(rev)!,
    createRevision: (type, repoId, rev, from) => {
      const repo = repos.get(key(type, repoId))!;
      repo.branches.set(rev, repo.branches.get(from ?? "main")!);
    },
    commit: (type, repoId, rev, change) => commitTo(repos.get(key(type, repoId))!, rev, change),
    storedFile,
    blobs,
    pendingLfs: new Map(),
  };
  const server = createServer((req, res) => {
    hub.requests.push({ method: req.method ?? "GET", path: req.url ?? "/", headers: req.headers });
    try {
      route(req, res);
    } catch (error) {
      res.writeHead(500, { "content-type": "text/plain" }).end(String(error));
    }
  });

  void api;
  function fail(res: ServerResponse, status: number, code: string, message: string) {
    res.writeHead(status, { "x-error-code": code, "x-error-message": message, "content-type": "application/json" });
    res.end(JSON.stringify({ error: message }));
  }

  function route(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://x");
    if (req.method !== "GET" && req.method !== "HEAD") {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const answer = hubApi({ method: req.method!, path: url.pathname, token: bearer(req), body: Buffer.concat(chunks) }, api);
        res.writeHead(answer.status, { "content-type": "application/json", ...(answer.headers ?? {}) }).end(JSON.stringify(answer.body ?? {}));
      });
      return;
    }
    if (url.pathname === "/api/whoami-v2") {
      const answer = hubApi({ method: "GET", path: url.pathname, token: bearer(req), body: Buffer.alloc(0) }, api);
      return res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body));
    }
    const tree = /^\/api\/(datasets|models|spaces)\/(.+?)\/tree\/([^/]+)(?:\/(.*))?$/.exec(url.pathname);
    if (tree) return listTree(req, res, url, tree);
    const cdn = /^\/cdn\/([0-9a-f]{64})$/.exec(url.pathname);
    if (cdn) {
      const blob = blobs.get(cdn[1]!);
      if (!blob) return fail(res, 404, "EntryNotFound", "Blob not found");
      return sendBody(req, res, blob, { etag: `"${blob.sha256}"` });
    }
    const m = /^\/(datasets\/|spaces\/)?(.+?)\/resolve\/([^/]+)\/(.+)$/.exec(url.pathname);
    if (!m) return fail(res, 404, "EntryNotFound", `No route for ${url.pathname}`);
    const type = m[1] === "datasets/" ? "dataset" : m[1] === "spaces/" ? "space" : "model";
    const repoId = decodeURIComponent(m[2]!);
    const revision = decodeURIComponent(m[3]!);
    const path = m[4]!.split("/").map(decodeURIComponent).join("/");
    const repo = repos.get(key(type, repoId));
    const auth = String(req.headers.authorization ?? "");
    const token = auth.startsWith("Bearer ") ? auth.slice(7) : undefined;
    const authorized = token !== undefined && hub.tokens.has(token);
    if (token !== undefined && !authorized && hub.tokens.size > 0) return fail(res, 401, "", "Invalid credentials in Authorization header");
    if (!repo || (repo.options.private && !authorized)) return fail(res, authorized ? 404 : 401, "RepoNotFound", "Repository not found");
    if (repo.options.gated && !authorized) return fail(res, 401, "GatedRepo", `Access to dataset ${repoId} is restricted. You must have access to it and be authenticated to access it. Please log in.`);
    if (repo.options.gated && repo.options.granted && !repo.options.granted.includes(token!)) {
      return fail(res, 403, "GatedRepo", `Access to dataset ${repoId} is restricted and you are not in the authorized list. Visit https://huggingface.co/datasets/${repoId} to ask for access.`);
    }
    const commit = resolve(repo, revision);
    if (!commit) return fail(res, 404, "RevisionNotFound", `Invalid rev id: ${revision}`);
    const file = repo.commits.get(commit)!.get(path);
    if (!file) return fail(res, 404, "EntryNotFound", "Entry not found");
    const common = { "x-repo-commit": commit };
    if (file.lfs) {
      const location = `${hub.cdnBase ?? ""}/cdn/${file.sha256}`;
      res.writeHead(302, { ...common, location, "x-linked-etag": `"${file.sha256}"`, "x-linked-size": String(file.bytes.length), etag: `"${file.gitSha1}"` });
      return res.end();
    }
    return sendBody(req, res, file, { ...common, etag: `"${file.gitSha1}"` });
  }

  /** Repo access as the resolve route checks it; true when an error answer was sent. */
  function refused(req: IncomingMessage, res: ServerResponse, repo: StoredRepo | undefined, repoId: string): boolean {
    const token = bearer(req);
    const authorized = token !== undefined && hub.tokens.has(token);
    if (token !== undefined && !authorized && hub.tokens.size > 0) return fail(res, 401, "", "Invalid credentials in Authorization header"), true;
    if (!repo || (repo.options.private && !authorized)) return fail(res, authorized ? 404 : 401, "RepoNotFound", "Repository not found"), true;
    if (repo.options.gated && !authorized) return fail(res, 401, "GatedRepo", `Access to dataset ${repoId} is restricted. You must have access to it and be authenticated to access it. Please log in.`), true;
    if (repo.options.gated && repo.options.granted && !repo.options.granted.includes(token!)) return fail(res, 403, "GatedRepo", `Access to dataset ${repoId} is restricted and you are not in the authorized list.`), true;
    return false;
  }

  function listTree(req: IncomingMessage, res: ServerResponse, url: URL, m: RegExpExecArray) {
    const type = m[1] === "datasets" ? "dataset" : m[1] === "spaces" ? "space" : "model";
    const repoId = decodeURIComponent(m[2]!);
    const repo = repos.get(key(type, repoId));
    if (refused(req, res, repo, repoId)) return;
    const revision = decodeURIComponent(m[3]!);
    const commit = resolve(repo!, revision);
    if (!commit) return fail(res, 404, "RevisionNotFound", `Invalid rev id: ${revision}`);
    const folder = decodeURIComponent(m[4] ?? "").replace(/^\/+|\/+$/g, "");
    const recursive = /^(true|1)$/i.test(url.searchParams.get("recursive") ?? "");
    const entries = treeEntries(repo!.commits.get(commit)!, folder, recursive);
    if (!entries) return fail(res, 404, "EntryNotFound", `${folder} does not exist on "${revision}"`);
    const cursor = url.searchParams.get("cursor");
    const start = cursor ? Number(Buffer.from(cursor, "base64url").toString("utf8").replace(/^offset:/, "")) : 0;
    const page = entries.slice(start, start + hub.treePageSize);
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (start + hub.treePageSize < entries.length) {
      const next = new URL(url.pathname + url.search, hub.url);
      next.searchParams.set("cursor", Buffer.from(`offset:${start + hub.treePageSize}`).toString("base64url"));
      headers.link = `<${next.toString()}>; rel="next"`;
    }
    res.writeHead(200, headers).end(JSON.stringify(page));
  }

  function sendBody(req: IncomingMessage, res: ServerResponse, file: StoredFile, headers: Record<string, string>) {
    const f = hub.faults;
    if (f.status && f.status.times > 0) {
      f.status.times--;
      res.writeHead(f.status.code, { "content-type": "text/plain", "retry-after": "0" });
      return res.end("temporarily unavailable");
    }
    let body = file.bytes;
    if (f.corrupt && req.method !== "HEAD") {
      f.corrupt = false;
      body = body.slice();
      body[0] = body[0]! ^ 0xff;
    }
    const size = body.length;
    const range = /^bytes=(\d+)-(\d*)$/.exec(String(req.headers.range ?? ""));
    const ifRange = req.headers["if-range"];
    const honourRange = range && !f.ignoreRange && (ifRange === undefined || ifRange === headers.etag);
    let start = 0;
    let end = size - 1;
    let status = 200;
    const out: Record<string, string> = { ...headers, "accept-ranges": "bytes", "content-type": "application/octet-stream" };
    if (honourRange) {
      start = Number(range[1]);
      end = range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      if (start >= size) {
        res.writeHead(416, { ...out, "content-range": `bytes */${size}` });
        return res.end();
      }
      status = 206;
      out["content-range"] = `bytes ${start}-${end}/${size}`;
    }
    out["content-length"] = String(end - start + 1);
    res.writeHead(status, out);
    if (req.method === "HEAD") return res.end();
    const slice = body.subarray(start, end + 1);
    if (f.dropAfterBytes !== undefined && (f.drops ?? 1) > 0) {
      f.drops = (f.drops ?? 1) - 1;
      const cut = Math.min(f.dropAfterBytes, slice.length - 1);
      if (f.drops <= 0) f.dropAfterBytes = undefined;
      // Let the client read the first bytes before the socket goes (a busy machine needs the pause).
      res.write(slice.subarray(0, cut), () => setTimeout(() => res.socket?.destroy(), 50));
      return;
    }
    res.end(slice);
  }

  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  hub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return hub;
}
