/**
 * Harbor's dataset registry (spec harbor-atif §1.9): `registry.json`, a list of `{name, version, description, tasks: [{name,
 * git_url, git_commit_id, path}]}` (HARBOR_REGISTRY_URL, default Harbor's own). A reference without a version takes the
 * highest; a task pinned to HEAD or a branch is resolved to a commit through the GitHub API (`/repos/<o>/<r>/commits/<ref>`,
 * api.github.com or a GitHub Enterprise host's /api/v3; GITHUB_TOKEN when set). Task trees come as the repository's
 * `archive/<commit>.tar.gz` through the download layer (cached by commit), not by `git clone` as Harbor does.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cacheDir, downloadFile, isOffline } from "../../../download/index.ts";
import { sha256 } from "../../../outputs/digest.ts";
import { GymError } from "../../../errors.ts";
import type { HarborRef } from "./ref.ts";

export const DEFAULT_REGISTRY_URL = "https://raw.githubusercontent.com/harbor-framework/harbor/main/registry.json";

export interface RegistryTask {
  name: string;
  git_url: string;
  git_commit_id: string;
  path: string;
}

export interface RegistryDataset {
  name: string;
  version: string;
  description: string;
  tasks: RegistryTask[];
}

export const registryUrl = (env = process.env) => env.HARBOR_REGISTRY_URL || DEFAULT_REGISTRY_URL;
const COMMIT = /^[0-9a-f]{40}$/i;

/** Fetches registry.json (offline: the cached copy) and parses it; a bad entry is refused naming its index and field. */
export async function readRegistry(env = process.env): Promise<RegistryDataset[]> {
  const url = registryUrl(env);
  const dest = join(cacheDir(env), "harbor", "registry", `${sha256(url).slice(0, 16)}.json`);
  if (!(isOffline(env) && existsSync(dest))) await downloadFile(url, dest, { label: "the Harbor registry", env, retries: 2, recovery: registryHint(url, dest, env) });
  let list: unknown;
  try {
    list = JSON.parse(readFileSync(dest, "utf8"));
  } catch (error) {
    throw new GymError("E_INPUT_JSON", `${url}: the registry is not JSON (${(error as Error).message})`, { hint: "check HARBOR_REGISTRY_URL" });
  }
  if (!Array.isArray(list)) throw new GymError("E_INPUT_SCHEMA", `${url}: the registry must be a JSON list of datasets`, { hint: "check HARBOR_REGISTRY_URL" });
  return list.map((d, i) => {
    const at = `${url}: dataset #${i + 1}`;
    if (typeof d?.name !== "string" || !Array.isArray(d.tasks)) throw new GymError("E_INPUT_SCHEMA", `${at} needs a string 'name' and a list 'tasks'`, { hint: "check HARBOR_REGISTRY_URL" });
    const tasks = (d.tasks as Record<string, unknown>[]).map((t, j) => {
      for (const key of ["name", "git_url", "path"]) if (typeof t?.[key] !== "string" || !t[key]) throw new GymError("E_INPUT_SCHEMA", `${at} (${d.name}) task #${j + 1}: field '${key}' must be a non-empty string`, { hint: "check HARBOR_REGISTRY_URL" });
      const path = String(t.path);
      if (path.startsWith("/") || path.split("/").includes("..")) throw new GymError("E_INPUT_SCHEMA", `${at} (${d.name}) task ${t.name}: path ${JSON.stringify(path)} leaves the repository`, { hint: "a task path is relative to its repository" });
      return { name: String(t.name), git_url: String(t.git_url), git_commit_id: typeof t.git_commit_id === "string" && t.git_commit_id ? t.git_commit_id : "HEAD", path: path.replace(/\/+$/, "") };
    });
    return { name: d.name, version: d.version === undefined ? "head" : String(d.version), description: String(d.description ?? ""), tasks };
  });
}

/** Version order: numeric parts numerically, others as text; "head" lowest. */
function compareVersions(a: string, b: string): number {
  if (a === b) return 0;
  if (a === "head") return -1;
  if (b === "head") return 1;
  const pa = a.split(/[.-]/);
  const pb = b.split(/[.-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? "";
    const y = pb[i] ?? "";
    const c = /^\d+$/.test(x) && /^\d+$/.test(y) ? Number(x) - Number(y) : x.localeCompare(y);
    if (c) return c;
  }
  return 0;
}

/** The dataset a reference names: the version given, else the highest. */
export function selectDataset(datasets: RegistryDataset[], ref: HarborRef, env = process.env): RegistryDataset {
  const named = datasets.filter((d) => d.name === ref.name);
  if (named.length === 0) {
    const store = ref.name.includes("/") ? " (org/name references live in Harbor's package store, which this build does not reach; only registry.json datasets are fetched)" : "";
    const near = datasets.map((d) => d.name).filter((n, i, all) => all.indexOf(n) === i && (n.includes(ref.name) || ref.name.includes(n))).slice(0, 5);
    throw new GymError("E_INPUT_NOT_FOUND", `${ref.text}: the Harbor registry (${registryUrl(env)}) has no dataset named ${ref.name}${store}`, { hint: near.length ? `did you mean: ${near.join(", ")}` : "check the name, or point HARBOR_REGISTRY_URL at the registry that lists it" });
  }
  if (ref.version === null) return named.sort((a, b) => compareVersions(b.version, a.version))[0]!;
  const exact = named.find((d) => d.version === ref.version);
  if (!exact) throw new GymError("E_INPUT_NOT_FOUND", `${ref.text}: ${ref.name} has no version ${ref.version} in the Harbor registry`, { hint: `versions: ${named.map((d) => d.version).join(", ")}` });
  return exact;
}

/** owner, repo and web origin of a GitHub (or GitHub Enterprise) git URL; anything else is refused. */
export function githubRepo(gitUrl: string): { origin: string; owner: string; repo: string; api: string } {
  const m = /^(https?:\/\/[^/]+)\/([^/]+)\/([^/]+?)(\.git)?\/?$/.exec(gitUrl);
  if (!m) throw new GymError("E_INPUT_SCHEMA", `task repository ${gitUrl} is not a https://<host>/<owner>/<repo>(.git) URL`, { hint: "this build fetches task trees as GitHub archives; clone other hosts with git and run the folder" });
  const origin = m[1]!;
  return { origin, owner: m[2]!, repo: m[3]!, api: new URL(origin).hostname === "github.com" ? "https://api.github.com" : `${origin}/api/v3` };
}

const authHeaders = (env = process.env): Record<string, string> => (env.GITHUB_TOKEN ? { Authorization: `Bearer ${env.GITHUB_TOKEN}` } : {});

/** A commit id for a task's pin: a 40-hex pin as is, HEAD or a branch through the GitHub API. */
export async function resolveCommit(task: RegistryTask, env = process.env): Promise<string> {
  if (COMMIT.test(task.git_commit_id)) return task.git_commit_id.toLowerCase();
  const { api, owner, repo } = githubRepo(task.git_url);
  const url = `${api}/repos/${owner}/${repo}/commits/${encodeURIComponent(task.git_commit_id)}`;
  if (isOffline(env)) throw new GymError("E_IO", `Offline: ${task.name} is pinned to ${task.git_commit_id}, which needs ${url} to resolve to a commit`, { hint: `unset GYM_OFFLINE/HF_HUB_OFFLINE, pull once with network, or point HARBOR_REGISTRY_URL (now ${registryUrl(env)}) at a registry whose entries pin 40-hex commits` });
  const response = await fetch(url, { headers: { Accept: "application/vnd.github.sha", ...authHeaders(env) } });
  const text = (await response.text()).trim();
  if (!response.ok || !COMMIT.test(text)) throw new GymError("E_HTTP", `${url} answered HTTP ${response.status} resolving ${task.git_commit_id} of ${task.git_url}`, { hint: "check the registry entry's git_commit_id, or set GITHUB_TOKEN when rate-limited" });
  return text.toLowerCase();
}

/** Downloads (or reuses from the cache) a repository's archive at a commit; returns the archive path and whether it was fetched. */
export async function fetchArchive(gitUrl: string, commit: string, env = process.env, log?: (line: string) => void): Promise<{ path: string; downloaded: boolean }> {
  const { origin, owner, repo } = githubRepo(gitUrl);
  const dest = join(cacheDir(env), "harbor", "archives", new URL(origin).host, owner, repo, `${commit}.tar.gz`);
  if (existsSync(dest)) return { path: dest, downloaded: false };
  const url = `${origin}/${owner}/${repo}/archive/${commit}.tar.gz`;
  log?.(`downloading ${owner}/${repo} at ${commit.slice(0, 12)}`);
  await downloadFile(url, dest, {
    label: `${owner}/${repo}@${commit.slice(0, 12)}`,
    env,
    headers: authHeaders(env),
    recovery: `The task files come from ${origin}/${owner}/${repo} (the registry entry's git_url): run the same command again where ${new URL(origin).host} is reachable, or pull once with network (the archive is kept at ${dest} and reused offline); GITHUB_TOKEN helps when rate-limited.`,
  });
  return { path: dest, downloaded: true };
}

/** Extracts `paths` (relative to the repository root) of an archive into `into` (no owners, no absolute or '..' names). */
export function extractPaths(archive: string, paths: string[], into: string): void {
  mkdirSync(into, { recursive: true });
  try {
    execFileSync("tar", ["-xzf", archive, "-C", into, "--strip-components=1", "--no-same-owner", "--no-same-permissions", "--wildcards", ...paths.map((p) => `*/${p}`)], { stdio: ["ignore", "ignore", "pipe"] });
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? "").trim().split("\n").slice(0, 3).join("; ");
    throw new GymError("E_INPUT_NOT_FOUND", `${archive}: could not extract ${paths.slice(0, 3).join(", ")}${paths.length > 3 ? ", …" : ""}: ${stderr}`, { hint: "the registry names a path the repository does not have at that commit; remove the cached archive if it is damaged" });
  }
}

/** What to do when the Harbor registry cannot be fetched: Harbor's own setting, not the Hugging Face ones. */
function registryHint(url: string, dest: string, env: NodeJS.ProcessEnv): string {
  const cached = existsSync(dest) ? ` A copy fetched earlier is kept at ${dest}: GYM_OFFLINE=1 uses it without asking.` : "";
  return `The registry comes from HARBOR_REGISTRY_URL (now ${url}${env.HARBOR_REGISTRY_URL ? "" : ", Harbor's default"}): point it at a reachable mirror (any HTTP server holding a copy of registry.json).${cached}`;
}

