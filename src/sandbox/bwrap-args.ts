/**
 * The bubblewrap command line: new pid/net/ipc/uts namespaces, only the system folders read-only (never /root,
 * /home, /work, /tmp or the run's folder), a private size-capped /tmp, a clean environment, and — when gym is
 * root — a drop to the real user nobody with no capabilities and no_new_privs (bwrap's own --uid is still root
 * outside the sandbox, so the drop is setpriv's).
 */
import { existsSync, lstatSync, readlinkSync } from "node:fs";
import { dirname } from "node:path";
import { NOBODY } from "./detect.ts";

/** Top-level system folders a program may read; each is bound read-only (or recreated as the symlink it is). */
const SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"];

export interface BwrapPlan {
  bwrap: string;
  /** setpriv's path when gym is root (drop to nobody), else null. */
  setpriv: string | null;
  /** Host folders bound read-only at the same path (the interpreter's prefix). */
  readOnlyRoots: string[];
  /** Host folder → sandbox path, read-only (the program and its tests) unless `writable` (a task's workdir, logs). */
  binds: { host: string; path: string; writable?: boolean }[];
  /** The working directory inside (default /tmp). */
  cwd?: string;
  tmpBytes: number;
  env: Record<string, string>;
  argv: string[];
}

function underSystemDir(path: string): boolean {
  return SYSTEM_DIRS.some((dir) => path === dir || path.startsWith(`${dir}/`));
}

/** `--dir` with mode 0755 for every ancestor bwrap would otherwise create 0700 (unreadable for nobody). */
function ancestors(path: string, made: Set<string>): string[] {
  const out: string[] = [];
  const chain: string[] = [];
  for (let p = dirname(path); p !== "/" && p !== "."; p = dirname(p)) chain.unshift(p);
  for (const p of chain) {
    if (made.has(p) || underSystemDir(p)) continue;
    made.add(p);
    out.push("--perms", "0755", "--dir", p);
  }
  return out;
}

/** The full argv: bwrap, its options, then (as root) setpriv, then the program. */
export function bwrapArgv(plan: BwrapPlan): string[] {
  const root = plan.setpriv !== null;
  const args = [plan.bwrap, "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try"];
  // Unprivileged bwrap needs a user namespace; as root one would map nobody back to host root, so none is made.
  if (!root) args.push("--unshare-user");
  args.push("--die-with-parent", "--new-session", "--dev", "/dev", "--proc", "/proc");
  for (const dir of SYSTEM_DIRS) {
    if (!existsSync(dir)) continue;
    const stat = lstatSync(dir);
    if (stat.isSymbolicLink()) args.push("--symlink", readlinkSync(dir), dir);
    else if (stat.isDirectory()) args.push("--ro-bind", dir, dir);
  }
  // /tmp first: an interpreter that lives under the host /tmp (a venv) is bound on top of it, not hidden by it.
  args.push("--perms", "1777", "--size", String(plan.tmpBytes), "--tmpfs", "/tmp");
  const made = new Set<string>(["/tmp"]);
  for (const path of plan.readOnlyRoots) {
    if (underSystemDir(path) || !existsSync(path)) continue;
    args.push(...ancestors(path, made), "--ro-bind", path, path);
  }
  for (const bind of plan.binds) args.push(...ancestors(bind.path, made), bind.writable ? "--bind" : "--ro-bind", bind.host, bind.path);
  args.push("--chdir", plan.cwd ?? "/tmp", "--clearenv");
  const env = { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: "/tmp", LANG: "C.UTF-8", TMPDIR: "/tmp", ...plan.env };
  for (const [key, value] of Object.entries(env)) args.push("--setenv", key, value);
  if (root) {
    // Only what setpriv needs to become nobody; it clears them (and the bounding set) before the program starts.
    args.push("--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_SETPCAP", "--");
    args.push(plan.setpriv!, `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all", "--");
  } else {
    args.push("--cap-drop", "ALL", "--");
  }
  return [...args, ...plan.argv];
}
