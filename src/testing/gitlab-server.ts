/**
 * A 127.0.0.1 stand-in for GitLab's generic package registry (/api/v4/projects/:id/packages…): PUT and GET of
 * package files with PRIVATE-TOKEN auth, the package list (package_name as a substring filter, as GitLab does)
 * and DELETE of a package, with GitLab's status codes and `select=package_file` answer.
 */
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface GitlabServer {
  url: string;
  projectId: string;
  token: string;
  /** name → version → file → bytes. */
  packages: Map<string, { id: number; versions: Map<string, Map<string, Uint8Array>> }>;
  requests: string[];
  close(): Promise<void>;
}

/** Starts the fake registry for one project (`projectId`, default "42") and one token. */
export async function startGitlabServer(options: { projectId?: string; token?: string } = {}): Promise<GitlabServer> {
  const projectId = options.projectId ?? "42";
  const token = options.token ?? "glpat-test";
  let nextId = 1;
  const packages: GitlabServer["packages"] = new Map();
  const ids = new Map<number, { name: string; version: string }>();
  const gl: GitlabServer = { url: "", projectId, token, packages, requests: [], close: async () => {
    server.closeAllConnections?.();
    await new Promise<void>((r) => server.close(() => r()));
  } };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    gl.requests.push(`${req.method} ${url.pathname}`);
    const json = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.headers["private-token"] !== token) return json(401, { message: "401 Unauthorized" });
    const base = `/api/v4/projects/${projectId}/packages`;
    if (!url.pathname.startsWith(base)) return json(404, { message: "404 Project Not Found" });
    const rest = url.pathname.slice(base.length);
    const file = /^\/generic\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(rest);
    if (file) {
      const [name, version, fname] = file.slice(1).map(decodeURIComponent) as [string, string, string];
      if (req.method === "PUT") {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          const bytes = new Uint8Array(Buffer.concat(chunks));
          if (!packages.has(name)) packages.set(name, { id: 0, versions: new Map() });
          const p = packages.get(name)!;
          if (!p.versions.has(version)) {
            p.versions.set(version, new Map());
            const id = nextId++;
            ids.set(id, { name, version });
          }
          p.versions.get(version)!.set(fname, bytes);
          if (url.searchParams.get("select") === "package_file") return json(201, { id: nextId, file_name: fname, size: bytes.length, file_sha256: createHash("sha256").update(bytes).digest("hex") });
          json(201, { message: "201 Created" });
        });
        return;
      }
      const bytes = packages.get(name)?.versions.get(version)?.get(fname);
      if (!bytes) return json(404, { message: "404 Package Not Found" });
      return res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(bytes.length) }).end(bytes);
    }
    if (rest === "" && req.method === "GET") {
      const filter = url.searchParams.get("package_name") ?? "";
      const list = [...ids.entries()].filter(([, p]) => p.name.includes(filter) && packages.get(p.name)?.versions.has(p.version)).map(([id, p]) => ({ id, name: p.name, version: p.version, package_type: "generic" }));
      return json(200, list);
    }
    const del = /^\/(\d+)$/.exec(rest);
    if (del && req.method === "DELETE") {
      const p = ids.get(Number(del[1]));
      if (!p || !packages.get(p.name)?.versions.delete(p.version)) return json(404, { message: "404 Not found" });
      ids.delete(Number(del[1]));
      return res.writeHead(204).end();
    }
    json(404, { message: "404 Not Found" });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  gl.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return gl;
}
