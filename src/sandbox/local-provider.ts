/**
 * The plain-Linux sandbox provider `local` (spec harbor-atif §2.4, §3) on bubblewrap: one host folder per
 * sandbox with work/ (bound writable at the task's workdir), tests/, solution/ (read-only), logs/ (writable at
 * /logs). Each `exec` is a fresh bwrap run over the same folders with the sandbox layer's limits (wall, CPU,
 * memory, processes, output); a limit comes back as return_code 125 with error_type "timeout" or "sandbox".
 * Its limits, stated in --help: the Dockerfile / docker_image is not built or pulled — commands run on the host's
 * read-only system folders; no network; processes do not survive between exec calls; as root they run as nobody.
 */
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix } from "node:path";
import { GymError } from "../errors.ts";
import { openSandbox, type Sandbox, type SandboxLimits } from "./index.ts";
import { expectProvider, type ExecResult, type SandboxHandle as ProviderHandle, type SandboxProvider, type SandboxSpec } from "./provider.ts";

export type { ExecResult, SandboxSpec } from "./provider.ts";

export const LOCAL_PROVIDER = "local";
export const LOCAL_PROVIDER_LIMITS =
  "--sandbox local (plain Linux, bubblewrap): the task's Dockerfile/docker_image is NOT built or pulled; commands run on this host's read-only /usr, /etc, /bin, /lib " +
  "in a private working dir, with no network, as nobody when gym is root; memory, processes, CPU time, output and wall time are capped; processes do not outlive one command.";

export interface SandboxHandle extends ProviderHandle {
  /** The host folder holding work/, tests/, solution/, logs/. */
  root: string;
  sandbox: Sandbox;
}

const MOUNTS = { work: null, tests: "/tests", solution: "/solution", logs: "/logs" } as const;

export async function createSandbox(spec: SandboxSpec): Promise<SandboxHandle> {
  const sandbox = await openSandbox("bwrap", "the local Harbor sandbox provider");
  const root = mkdtempSync(join(tmpdir(), "gym-harbor-"));
  for (const dir of ["work", "tests", "solution", "logs", "logs/agent", "logs/verifier", "logs/artifacts"]) {
    mkdirSync(join(root, dir), { recursive: true });
    chmodSync(join(root, dir), 0o777); // the sandbox user (nobody when gym is root) writes here
  }
  const handle: SandboxHandle = { sandbox_id: root.split("/").pop()!, provider_name: LOCAL_PROVIDER, root, spec, sandbox };
  const probe = await execIn(handle, "printf local-sandbox-ready", { timeoutS: 10 });
  if (probe.stdout !== "local-sandbox-ready") {
    closeSandbox(handle);
    throw new GymError("E_SANDBOX", `the local sandbox did not start: ${probe.reason ?? probe.stderr.trim()}`, { hint: "check that bwrap works here (gym --version --json shows the sandbox)" });
  }
  return handle;
}

/** Copies a host folder's contents into one of the sandbox's mounted folders (`/tests`, `/solution`). */
export function uploadDir(handle: SandboxHandle, hostDir: string, mount: "tests" | "solution"): void {
  rmSync(join(handle.root, mount), { recursive: true, force: true });
  cpSync(hostDir, join(handle.root, mount), { recursive: true, dereference: false });
  chmodSync(join(handle.root, mount), 0o755);
}

/** Host path of a sandbox folder (`logs/verifier`, `work`). */
export function hostPath(handle: SandboxHandle, sub: string): string {
  return join(handle.root, sub);
}

export async function execIn(handle: SandboxHandle, command: string, options: { env?: Record<string, string>; timeoutS: number; cwd?: string; limits?: Partial<SandboxLimits> }): Promise<ExecResult> {
  const binds = Object.entries(MOUNTS).map(([dir, path]) => ({ host: join(handle.root, dir), path: path ?? handle.spec.workdir, writable: dir === "work" || dir === "logs" }));
  for (const mount of handle.spec.mounts ?? []) binds.push({ host: mount.host, path: mount.path, writable: false });
  const memory = (handle.spec.memoryMib ?? 2048) * 1024 ** 2;
  const result = await handle.sandbox.run({
    argv: ["/bin/bash", "-c", command],
    env: { HOME: handle.spec.workdir, ...handle.spec.env, ...options.env },
    binds,
    cwd: options.cwd ?? handle.spec.workdir,
    limits: { wallSeconds: options.timeoutS, cpuSeconds: options.timeoutS, memoryBytes: memory, processes: 256, ...options.limits },
  });
  const errorType = result.limit === "wall" ? "timeout" : result.limit ? "sandbox" : null;
  return { stdout: result.stdout, stderr: result.stderr, return_code: errorType ? 125 : (result.exitCode ?? 128), error_type: errorType, reason: result.reason };
}

/** Removes the sandbox's folders; idempotent. */
export function closeSandbox(handle: SandboxHandle): void {
  rmSync(handle.root, { recursive: true, force: true });
}

/** The host folder behind a sandbox path: /tests, /solution, /logs/… or the workdir; anything else is not shared. */
function hostPathOf(handle: SandboxHandle, sandboxPath: string): string {
  const path = posix.normalize(sandboxPath);
  const inside = (base: string) => path === base || path.startsWith(`${base}/`);
  const under = (base: string, dir: string) => join(handle.root, dir, path.slice(base.length));
  const workdir = handle.spec.workdir;
  for (const [dir, mount] of Object.entries(MOUNTS)) if (mount && inside(mount)) return under(mount, dir);
  if (inside(workdir)) return under(workdir, "work");
  throw new GymError("E_SANDBOX", `the local sandbox shares only /tests, /solution, /logs and the workdir ${workdir} with the host, not ${sandboxPath}`, {
    hint: "copy files under one of those paths, or use a container provider (--sandbox podman|docker)",
  });
}

function copyReplacing(from: string, to: string): void {
  if (!existsSync(from)) throw new GymError("E_SANDBOX", `${from} does not exist`, { hint: "check the path" });
  if (statSync(from).isDirectory()) rmSync(to, { recursive: true, force: true });
  mkdirSync(dirname(to), { recursive: true });
  cpSync(from, to, { recursive: true, dereference: false });
}

/** The plain-Linux provider behind the contract of ./provider.ts. */
export const localProvider: SandboxProvider = {
  name: LOCAL_PROVIDER,
  limits: LOCAL_PROVIDER_LIMITS,
  keepsProcesses: false,
  create: (spec) => createSandbox(spec),
  exec: (handle, command, options) => execIn(expectProvider<SandboxHandle>(handle, LOCAL_PROVIDER), command, options),
  async upload(handle, hostPath, sandboxPath) {
    const local = expectProvider<SandboxHandle>(handle, LOCAL_PROVIDER);
    const target = hostPathOf(local, sandboxPath);
    copyReplacing(hostPath, target);
    // The sandbox user (nobody when gym is root) reads uploads and writes under the workdir and /logs.
    if (statSync(target).isDirectory()) chmodSync(target, /^\/(tests|solution)(\/|$)/.test(posix.normalize(sandboxPath)) ? 0o755 : 0o777);
  },
  async download(handle, sandboxPath, hostPath) {
    copyReplacing(hostPathOf(expectProvider<SandboxHandle>(handle, LOCAL_PROVIDER), sandboxPath), hostPath);
  },
  async close(handle) {
    closeSandbox(expectProvider<SandboxHandle>(handle, LOCAL_PROVIDER));
  },
};
