/** GitLab's generic package registry as dataset storage: PUT/GET/DELETE under /api/v4/projects/:id/packages. */
import { readFileSync, statSync } from "node:fs";
import { createHash } from "node:crypto";
import { basename } from "node:path";
import { GymError } from "../../errors.ts";
import { downloadFile } from "../../download/index.ts";
import type { StorageSettings } from "./credentials.ts";

export interface GitlabTarget {
  name: string;
  version: string;
  file: string;
}

function need(settings: StorageSettings): { base: string; token: string } {
  const missing = [!settings.gitlabUrl && "GITLAB_URL (gitlab_url)", !settings.gitlabProjectId && "GITLAB_PROJECT_ID (gitlab_project_id)", !settings.gitlabToken && "GITLAB_TOKEN (gitlab_token)"].filter(Boolean);
  if (missing.length > 0) {
    throw new GymError("E_CONFIG", `GitLab dataset storage needs ${missing.join(", ")}.`, { hint: "Set them in the environment or in env.yaml (gitlab_url: https://gitlab.example.com, gitlab_project_id: 1234, gitlab_token: glpat-…)." });
  }
  const base = `${settings.gitlabUrl!.replace(/\/+$/, "")}/api/v4/projects/${encodeURIComponent(settings.gitlabProjectId!)}`;
  return { base, token: settings.gitlabToken! };
}

const fileUrl = (base: string, t: GitlabTarget) => `${base}/packages/generic/${encodeURIComponent(t.name)}/${encodeURIComponent(t.version)}/${encodeURIComponent(t.file)}`;

function statusError(status: number, what: string, settings: StorageSettings): GymError {
  if (status === 401 || status === 403) return new GymError("E_HTTP", `GitLab refused ${what} (HTTP ${status}).`, { hint: "Check GITLAB_TOKEN (a token with the api scope, or read_/write_package_registry) and GITLAB_PROJECT_ID." });
  if (status === 404) return new GymError("E_HTTP", `GitLab has no ${what} in project ${settings.gitlabProjectId} (HTTP 404).`, { hint: "Check --name, --revision and --artifact (`gym dataset upload --storage gitlab` publishes them)." });
  return new GymError("E_HTTP", `GitLab answered HTTP ${status} for ${what}.`, { hint: "Check GITLAB_URL, or try again later." });
}

function unreachableHint(settings: StorageSettings): string {
  return `Check GITLAB_URL (now ${settings.gitlabUrl}): that host must be reachable from here (VPN, proxy: HTTPS_PROXY), then run the same command again.`;
}

/** A GitLab API call; a failure to connect says GitLab is unreachable (not "check the path and its permissions"). */
async function gitlabFetch(settings: StorageSettings, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const cause = (error as { code?: string }).code ?? (error as Error).message;
    throw new GymError("E_HTTP", `GitLab at ${settings.gitlabUrl} is unreachable (${cause}).`, { hint: unreachableHint(settings), cause: error });
  }
}

/** Uploads a file as `<name>/<version>/<file>`; returns the package file's sha256 as GitLab reports it (or ours). */
export async function gitlabUpload(input: string, target: Omit<GitlabTarget, "file"> & { file?: string }, settings: StorageSettings): Promise<string> {
  const { base, token } = need(settings);
  const file = target.file ?? basename(input);
  const bytes = readFileSync(input);
  const url = `${fileUrl(base, { ...target, file })}?select=package_file`;
  const res = await gitlabFetch(settings, url, { method: "PUT", headers: { "PRIVATE-TOKEN": token, "content-type": "application/octet-stream" }, body: bytes });
  if (!res.ok) throw statusError(res.status, `the upload of ${target.name}/${target.version}/${file}`, settings);
  const local = createHash("sha256").update(bytes).digest("hex");
  const answer = (await res.json().catch(() => ({}))) as { file_sha256?: string; size?: number };
  if (answer.file_sha256 && answer.file_sha256 !== local) throw new GymError("E_CHECK_FAILED", `GitLab stored ${file} with sha256 ${answer.file_sha256}, ours is ${local}.`, { hint: "Upload it again." });
  if (answer.size !== undefined && answer.size !== statSync(input).size) throw new GymError("E_CHECK_FAILED", `GitLab stored ${answer.size} bytes of ${file}, ours has ${statSync(input).size}.`, { hint: "Upload it again." });
  return local;
}

/** Downloads `<name>/<version>/<file>` to `output` (resumable, size-checked, renamed into place). */
export async function gitlabDownload(target: GitlabTarget, output: string, settings: StorageSettings): Promise<void> {
  const { base, token } = need(settings);
  await downloadFile(fileUrl(base, target), output, {
    env: settings.env,
    headers: { "PRIVATE-TOKEN": token },
    label: `GitLab package ${target.name}/${target.version}/${target.file}`,
    recovery: unreachableHint(settings),
    describeStatus: (r) => statusError(r.status, `package file ${target.name}/${target.version}/${target.file}`, settings),
  });
}

export interface GitlabPackage {
  id: number;
  name: string;
  version: string;
}

/** The generic packages named `name` (every version, or one). */
export async function gitlabPackages(name: string, version: string | undefined, settings: StorageSettings): Promise<GitlabPackage[]> {
  const { base, token } = need(settings);
  const res = await gitlabFetch(settings, `${base}/packages?package_type=generic&package_name=${encodeURIComponent(name)}&per_page=100`, { headers: { "PRIVATE-TOKEN": token } });
  if (!res.ok) throw statusError(res.status, `the package list for ${name}`, settings);
  const all = (await res.json()) as GitlabPackage[];
  // package_name is a substring filter in GitLab: keep exact matches only.
  return all.filter((p) => p.name === name && (version === undefined || p.version === version));
}

/** Deletes the given packages. */
export async function gitlabDelete(packages: GitlabPackage[], settings: StorageSettings): Promise<void> {
  const { base, token } = need(settings);
  for (const p of packages) {
    const res = await gitlabFetch(settings, `${base}/packages/${p.id}`, { method: "DELETE", headers: { "PRIVATE-TOKEN": token } });
    if (!res.ok && res.status !== 404) throw statusError(res.status, `the deletion of ${p.name}/${p.version}`, settings);
  }
}
