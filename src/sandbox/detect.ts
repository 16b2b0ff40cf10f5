/** Which sandbox this machine offers (bubblewrap, the user to drop to, how memory and process counts are capped), probed once. */
import { existsSync, readFileSync } from "node:fs";
import { findExecutable } from "../runtime/executables.ts";
import { runProbe } from "../runtime/spawn.ts";

/** The uid/gid a root-run sandbox drops to (Debian's `nobody`/`nogroup`). */
export const NOBODY = 65534;

export type LimitMechanism = "cgroup-v1" | "cgroup-v2" | "rlimit";

export interface SandboxInfo {
  /** `bwrap` when programs run in bubblewrap; `none` when bubblewrap is missing or cannot start here. */
  kind: "bwrap" | "none";
  bwrap: { path: string; version: string } | null;
  /** What the program runs as on the host: `nobody` when gym is root (setpriv), else gym's own user. */
  user: string;
  setpriv: string | null;
  prlimit: string | null;
  /** How memory and process counts are capped (cgroups when gym is root and the controllers are writable). */
  limits: LimitMechanism;
  /** Why there is no sandbox (for the refusal and `gym --version --json`). */
  reason: string | null;
}

/** Finds a program on PATH (and the usual system dirs), or null. */
export function findProgram(name: string): string | null {
  return findExecutable(name, { systemDirs: true });
}

/** Whether cgroup v1 memory and pids controllers, or a cgroup v2 hierarchy, are mounted and writable by us. */
export function cgroupMechanism(isRoot: boolean): LimitMechanism {
  if (!isRoot) return "rlimit";
  if (existsSync("/sys/fs/cgroup/memory/cgroup.procs") && existsSync("/sys/fs/cgroup/pids/cgroup.procs")) return "cgroup-v1";
  try {
    const controllers = readFileSync("/sys/fs/cgroup/cgroup.controllers", "utf8");
    if (controllers.includes("memory") && controllers.includes("pids")) return "cgroup-v2";
  } catch {}
  return "rlimit";
}

let cached: Promise<SandboxInfo> | undefined;

/** Probes bubblewrap once per process: present, starts a trivial sandbox, and what it runs as. */
export function detectSandbox(): Promise<SandboxInfo> {
  cached ??= probe();
  return cached;
}

/** Forgets the cached probe (tests that change PATH). */
export function resetSandboxDetection(): void {
  cached = undefined;
}

async function probe(): Promise<SandboxInfo> {
  const isRoot = process.getuid?.() === 0;
  const setpriv = findProgram("setpriv");
  const prlimit = findProgram("prlimit");
  const base = { setpriv, prlimit, limits: cgroupMechanism(isRoot), user: isRoot ? "nobody" : (process.env.USER ?? `uid ${process.getuid?.()}`) };
  const path = process.env.GYM_BWRAP === "" ? null : (process.env.GYM_BWRAP ?? findProgram("bwrap"));
  if (!path) return { kind: "none", bwrap: null, ...base, reason: "bubblewrap (bwrap) is not installed" };
  const version = await runProbe([path, "--version"]);
  if (version.exitCode !== 0) return { kind: "none", bwrap: null, ...base, reason: `${path} --version failed: ${version.stderr.trim()}` };
  if (isRoot && !setpriv) return { kind: "none", bwrap: null, ...base, reason: "setpriv (util-linux) is missing: gym runs as root and cannot drop to an unprivileged user" };
  const trial = await runProbe([path, "--unshare-net", "--unshare-pid", "--die-with-parent", "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--", "/bin/sh", "-c", "exit 0"]);
  const bwrap = { path, version: version.stdout.trim().replace(/^bubblewrap\s+/, "") };
  if (trial.exitCode !== 0) return { kind: "none", bwrap, ...base, reason: `bubblewrap cannot create namespaces here: ${trial.stderr.trim()}` };
  return { kind: "bwrap", bwrap, ...base, reason: null };
}
