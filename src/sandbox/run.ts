/**
 * One sandboxed run: cgroup slot (or rlimits), prlimit for CPU time / file size / core dumps, bubblewrap, a wall
 * clock and an output budget. Whatever limit trips, the whole process tree is killed (the bwrap process, then
 * every process left in the slot; bwrap's --die-with-parent and the pid namespace cover gym itself dying).
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnProcess } from "../runtime/spawn.ts";
import { bwrapArgv } from "./bwrap-args.ts";
import type { CgroupPool, CgroupSlot } from "./cgroups.ts";
import type { SandboxInfo } from "./detect.ts";

export interface SandboxLimits {
  /** Wall-clock seconds before everything is killed. */
  wallSeconds: number;
  /** CPU seconds (RLIMIT_CPU) of each process. */
  cpuSeconds: number;
  /** Memory of the whole tree (cgroup: RAM+swap; rlimit fallback: address space per process). */
  memoryBytes: number;
  /** Processes and threads of the whole tree (cgroup pids.max; rlimit fallback: RLIMIT_NPROC). */
  processes: number;
  /** stdout+stderr bytes kept; past this the run is killed. */
  outputBytes: number;
  /** Size of the private /tmp (counted in the memory cap too) and of any one file written. */
  tmpBytes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  wallSeconds: 30,
  cpuSeconds: 30,
  memoryBytes: 4 * 1024 ** 3,
  processes: 64,
  outputBytes: 16 * 1024 ** 2,
  tmpBytes: 256 * 1024 ** 2,
};

export interface SandboxRequest {
  /** The program inside the sandbox (absolute path first). */
  argv: string[];
  stdin?: Uint8Array;
  env?: Record<string, string>;
  /** Host folders bound read-only at the same path (an interpreter's prefix). */
  readOnlyRoots?: string[];
  /** Files written into a fresh host folder bound read-only at `/sandbox` (the program, its tests). */
  files?: Record<string, string | Uint8Array>;
  /** Extra host folders bound at a sandbox path (writable ones must be writable by the sandbox user: see `info.user`). */
  binds?: { host: string; path: string; writable?: boolean }[];
  /** Working directory inside the sandbox (default /tmp). */
  cwd?: string;
  limits?: Partial<SandboxLimits>;
}

export type SandboxLimit = "wall" | "cpu" | "memory" | "output" | "processes";

export interface SandboxResult {
  exitCode: number | null;
  /** The signal that ended the program (bwrap reports 128+n; this is the name). */
  signal: string | null;
  stdout: string;
  stderr: string;
  /** The limit that ended the run, or null when it ended by itself. */
  limit: SandboxLimit | null;
  /** One line for a verdict: why the run ended abnormally, or null. */
  reason: string | null;
  wallMs: number;
}

const SIGNALS: Record<number, string> = { 6: "SIGABRT", 9: "SIGKILL", 11: "SIGSEGV", 15: "SIGTERM", 24: "SIGXCPU", 25: "SIGXFSZ" };

export interface RunContext {
  info: SandboxInfo;
  pool: CgroupPool | null;
  /** true: run without bubblewrap (the loud opt-out); limits still apply. */
  unsandboxed: boolean;
}

function prlimitArgs(context: RunContext, limits: SandboxLimits): string[] {
  if (!context.info.prlimit) return [];
  const cpu = Math.max(1, Math.ceil(limits.cpuSeconds));
  const args = [context.info.prlimit, `--cpu=${cpu}:${cpu + 1}`, `--fsize=${limits.tmpBytes}`, "--core=0", "--nofile=1024"];
  if (!context.pool) args.push(`--as=${limits.memoryBytes}`, `--nproc=${limits.processes}`);
  return [...args, "--"];
}

/** `sh` puts its own pid into the slot's cgroups, then execs the rest: nothing the program starts escapes the slot. */
function enterCgroups(slot: CgroupSlot | null): string[] {
  if (!slot) return [];
  const script = slot.procsFiles.map((_, i) => `echo $$ > "$${i + 1}" || exit 125`).join("; ") + `; shift ${slot.procsFiles.length}; exec "$@"`;
  return ["/bin/sh", "-c", script, "sh", ...slot.procsFiles];
}

async function readCapped(stream: ReadableStream<Uint8Array>, budget: { left: number }, onOver: () => void): Promise<string> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (value.length > budget.left) {
      // Past the budget: keep what fits, kill, and drain the rest without keeping it.
      if (budget.left > 0) chunks.push(value.subarray(0, budget.left));
      budget.left = 0;
      onOver();
      continue;
    }
    budget.left -= value.length;
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** Runs one program under the limits. Never throws for what the program does; only for a sandbox that cannot start. */
export async function runSandboxed(context: RunContext, request: SandboxRequest): Promise<SandboxResult> {
  const limits = { ...DEFAULT_LIMITS, ...request.limits };
  const folder = request.files ? mkdtempSync(join(tmpdir(), "gym-sbx-")) : null;
  const slot = context.pool?.acquire(limits.memoryBytes, limits.processes) ?? null;
  const oomBefore = slot?.oomKills() ?? 0;
  const forksBefore = slot?.forksDenied() ?? 0;
  const started = performance.now();
  let limit: SandboxLimit | null = null;
  try {
    if (folder) await writeFiles(folder, request.files!);
    const inner = context.unsandboxed
      ? request.argv
      : bwrapArgv({
          bwrap: context.info.bwrap!.path,
          setpriv: process.getuid?.() === 0 ? context.info.setpriv : null,
          readOnlyRoots: request.readOnlyRoots ?? [],
          binds: [...(folder ? [{ host: folder, path: "/sandbox" }] : []), ...(request.binds ?? [])],
          cwd: request.cwd,
          tmpBytes: limits.tmpBytes,
          // A tag a test sets on gym to find every process of its runs afterwards (by /proc/<pid>/environ).
          env: { ...(process.env.GYM_SANDBOX_TAG ? { GYM_SANDBOX_TAG: process.env.GYM_SANDBOX_TAG } : {}), ...request.env },
          argv: request.argv,
        });
    const argv = [...enterCgroups(slot), ...prlimitArgs(context, limits), ...inner];
    const env = context.unsandboxed ? { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: folder ?? tmpdir(), ...request.env } : {};
    const child = spawnProcess(argv, { stdin: request.stdin, env, cwd: context.unsandboxed ? (folder ?? tmpdir()) : "/" });
    const kill = (why: SandboxLimit) => {
      limit ??= why;
      child.kill("SIGKILL");
    };
    const timer = setTimeout(() => kill("wall"), limits.wallSeconds * 1000);
    const budget = { left: limits.outputBytes };
    const [stdout, stderr, status] = await Promise.all([
      readCapped(child.stdout, budget, () => kill("output")),
      readCapped(child.stderr, budget, () => kill("output")),
      child.exited,
    ]);
    clearTimeout(timer);
    const wallMs = performance.now() - started;
    let { exitCode, signal } = status;
    if (signal === null && exitCode !== null && exitCode > 128 && exitCode < 160 && !context.unsandboxed) signal = SIGNALS[exitCode - 128] ?? `signal ${exitCode - 128}`;
    if (!limit && slot && slot.oomKills() > oomBefore) limit = "memory";
    if (slot && slot.forksDenied() > forksBefore && limit !== "memory" && limit !== "output") limit = "processes";
    if (!limit && signal === "SIGXCPU") limit = "cpu";
    if (!limit && signal === "SIGXFSZ") limit = "output";
    return { exitCode, signal, stdout, stderr, limit, reason: reasonOf(limit, limits, exitCode, signal, stderr), wallMs };
  } finally {
    if (slot) await context.pool!.release(slot);
    if (folder) rmSync(folder, { recursive: true, force: true });
  }
}

async function writeFiles(folder: string, files: Record<string, string | Uint8Array>): Promise<void> {
  chmodSync(folder, 0o755);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(folder, name), content, { mode: 0o644 });
}

function reasonOf(limit: SandboxLimit | null, limits: SandboxLimits, exitCode: number | null, signal: string | null, stderr: string): string | null {
  switch (limit) {
    case "wall":
      return `killed: wall-clock limit of ${limits.wallSeconds} s`;
    case "cpu":
      return `killed: CPU-time limit of ${limits.cpuSeconds} s`;
    case "memory":
      return `killed: memory limit of ${Math.round(limits.memoryBytes / 1024 ** 2)} MiB`;
    case "output":
      return `killed: output limit of ${Math.round(limits.outputBytes / 1024 ** 2)} MiB`;
    case "processes":
      return `process limit of ${limits.processes} reached (forks refused)`;
  }
  if (signal) return `ended by ${signal}`;
  if (exitCode === 125 && /bwrap|setpriv|prlimit/.test(stderr)) return `the sandbox failed to start: ${stderr.trim().split("\n").pop()}`;
  return null;
}
