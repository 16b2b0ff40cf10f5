/**
 * The write half of the fake Hub: the API calls @huggingface/hub makes to create a repo and a branch and to
 * commit files (whoami-v2, repos/create, preupload, the LFS batch with the "basic" transfer only, so the client
 * never switches to Xet, the LFS PUT, and the ndjson commit), answered as huggingface.co answers them.
 */
import { createHash } from "node:crypto";
import type { HubServer, StoredFile } from "./hub-server.ts";

type RepoType = "dataset" | "model" | "space";

export interface HubApiState {
  hub(): HubServer;
  hasRepo(type: RepoType, repoId: string): boolean;
  hasRevision(type: RepoType, repoId: string, rev: string): boolean;
  /** The commit sha branch `rev` points at. */
  head(type: RepoType, repoId: string, rev: string): string;
  createRevision(type: RepoType, repoId: string, rev: string, from?: string): void;
  /** One new commit on branch `rev` with the changes `change` makes to its files; returns the commit sha. */
  commit(type: RepoType, repoId: string, rev: string, change: (files: Map<string, StoredFile>) => void): string;
  storedFile(bytes: Uint8Array, lfs?: boolean): StoredFile;
  blobs: Map<string, StoredFile>;
  pendingLfs: Map<string, Uint8Array>;
}

interface ApiRequest {
  method: string;
  path: string;
  token?: string;
  body: Buffer;
}

interface ApiAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

const LFS_THRESHOLD = 10_000;
const err = (status: number, error: string, code?: string): ApiAnswer => ({ status, body: { error }, headers: code ? { "x-error-code": code } : {} });
const typeOf = (plural: string): RepoType => (plural === "datasets" ? "dataset" : plural === "spaces" ? "space" : "model");

/** Answers one API request against the fake Hub's store. */
export function hubApi(req: ApiRequest, state: HubApiState): ApiAnswer {
  const hub = state.hub();
  const authorized = req.token !== undefined && (hub.tokens.size === 0 || hub.tokens.has(req.token));
  if (req.path.startsWith("/lfs-upload/")) return lfsPut(req, state);
  if (!authorized) return err(401, "Invalid credentials in Authorization header");
  if (req.path === "/api/whoami-v2") return { status: 200, body: { type: "user", id: "1", name: "gym-user", fullname: "gym user", email: null, canPay: false, isPro: false, periodEnd: null, orgs: [], auth: { type: "access_token", accessToken: { displayName: "test", role: "write" } } } };
  if (req.path === "/api/repos/create" && req.method === "POST") {
    const body = JSON.parse(req.body.toString() || "{}") as { name: string; organization?: string; type?: RepoType; visibility?: string };
    const repoId = body.organization ? `${body.organization}/${body.name}` : `gym-user/${body.name}`;
    const type = body.type ?? "model";
    if (state.hasRepo(type, repoId)) return err(409, "You already created this dataset repo");
    hub.addRepo(repoId, { repoType: type, private: body.visibility === "private" });
    return { status: 200, body: { url: `${hub.url}/${type === "dataset" ? "datasets/" : ""}${repoId}`, name: repoId, id: repoId } };
  }
  const batch = /^\/(datasets\/|spaces\/)?(.+)\.git\/info\/lfs\/objects\/batch$/.exec(req.path);
  if (batch) {
    const body = JSON.parse(req.body.toString()) as { objects: { oid: string; size: number }[] };
    const objects = body.objects.map((o) => (state.blobs.has(o.oid) ? { oid: o.oid, size: o.size } : { oid: o.oid, size: o.size, authenticated: true, actions: { upload: { href: `${hub.url}/lfs-upload/${o.oid}`, expires_in: 3600 } } }));
    // "basic" only: a real Hub may answer "xet" (and application/vnd.xet-fileinfo+json later), which switches the client to Xet.
    return { status: 200, body: { transfer: "basic", objects }, headers: { "content-type": "application/vnd.git-lfs+json" } };
  }
  const m = /^\/api\/(datasets|models|spaces)\/(.+?)\/(preupload|commit|branch)\/([^/]+)$/.exec(req.path);
  if (!m) return err(404, `No API route for ${req.method} ${req.path}`);
  const type = typeOf(m[1]!);
  const repoId = m[2]!;
  const rev = decodeURIComponent(m[4]!);
  if (!state.hasRepo(type, repoId)) return err(404, "Repository not found", "RepoNotFound");
  if (m[3] === "branch") {
    if (state.hasRevision(type, repoId, rev)) return err(409, `Reference already exists: refs/heads/${rev}`);
    state.createRevision(type, repoId, rev);
    return { status: 200, body: {} };
  }
  if (!state.hasRevision(type, repoId, rev)) return err(404, `Invalid rev id: ${rev}`, "RevisionNotFound");
  if (m[3] === "preupload") {
    const body = JSON.parse(req.body.toString()) as { files: { path: string; size: number }[] };
    return { status: 200, body: { files: body.files.map((f) => ({ path: f.path, uploadMode: f.size >= LFS_THRESHOLD ? "lfs" : "regular", shouldIgnore: false })), commitOid: state.head(type, repoId, rev) } };
  }
  return commit(req, state, type, repoId, rev);
}

function lfsPut(req: ApiRequest, state: HubApiState): ApiAnswer {
  const oid = req.path.slice("/lfs-upload/".length);
  const actual = createHash("sha256").update(req.body).digest("hex");
  if (actual !== oid) return err(400, `sha256 mismatch: expected ${oid}, got ${actual}`);
  state.pendingLfs.set(oid, new Uint8Array(req.body));
  return { status: 200 };
}

function commit(req: ApiRequest, state: HubApiState, type: RepoType, repoId: string, rev: string): ApiAnswer {
  const hub = state.hub();
  const lines = req.body.toString().split("\n").filter(Boolean).map((l) => JSON.parse(l) as { key: string; value: Record<string, unknown> });
  const changes: ((files: Map<string, StoredFile>) => void)[] = [];
  for (const { key, value } of lines) {
    const path = String(value.path);
    if (key === "file") {
      const file = state.storedFile(new Uint8Array(Buffer.from(String(value.content), value.encoding === "base64" ? "base64" : "utf8")), false);
      changes.push((files) => files.set(path, file));
    } else if (key === "lfsFile") {
      const oid = String(value.oid);
      const bytes = state.pendingLfs.get(oid) ?? state.blobs.get(oid)?.bytes;
      if (!bytes) return err(422, `LFS object ${oid} was never uploaded`);
      const file = state.storedFile(bytes, true);
      state.blobs.set(file.sha256, file);
      changes.push((files) => files.set(path, file));
    } else if (key === "deletedFile") changes.push((files) => files.delete(path));
  }
  const oid = state.commit(type, repoId, rev, (files) => {
    for (const change of changes) change(files);
  });
  return { status: 200, body: { success: true, commitOid: oid, commitUrl: `${hub.url}/${type === "dataset" ? "datasets/" : ""}${repoId}/commit/${oid}`, hookOutput: "" } };
}
