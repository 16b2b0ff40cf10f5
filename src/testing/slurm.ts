/** For the Slurm end-to-end tests: is the one-node cluster up (scripts/slurm/up.sh), and waiting for its jobs. */
import { spawnSync } from "node:child_process";

/** Why Slurm cannot be used here, or undefined when `sinfo` answers and the node takes jobs. */
export function slurmUnavailable(): string | undefined {
  const r = spawnSync("sinfo", ["-h", "-o", "%T"], { encoding: "utf8", timeout: 5000 });
  const code = (r.error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ENOENT") return "sinfo is not installed; bring the cluster up with scripts/slurm/up.sh (root, apt)";
  if (r.error) return `sinfo did not answer (${code ?? r.error.message}): is slurmctld running? scripts/slurm/up.sh starts it`;
  if (r.status !== 0) return `sinfo does not answer (${(r.stderr || "").trim()}); bring the cluster up with scripts/slurm/up.sh`;
  if (!/idle|mixed|alloc/.test(r.stdout)) return `the Slurm node is ${r.stdout.trim() || "missing"}`;
  return undefined;
}

/** scontrol's view of one job: state and exit code, or undefined once it has left the controller. */
export function jobState(id: string): { state: string; exit: string } | undefined {
  const r = spawnSync("scontrol", ["show", "job", "-o", id], { encoding: "utf8" });
  const state = /JobState=(\S+)/.exec(r.stdout)?.[1];
  return state ? { state, exit: /ExitCode=(\S+)/.exec(r.stdout)?.[1] ?? "" } : undefined;
}

/** Job ids still pending or running under one job name. */
export function activeJobs(name: string): string[] {
  const r = spawnSync("squeue", ["-h", "-o", "%i %T", "-n", name], { encoding: "utf8" });
  return r.stdout.split("\n").filter((l) => /PENDING|RUNNING|CONFIGURING|COMPLETING|REQUEUED|SUSPENDED/.test(l)).map((l) => l.split(" ")[0]!);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done()` holds, polling; throws with `what` on timeout. */
export async function waitFor(what: string, done: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

/** Waits until no job of these names is pending or running (a chain's successors included). */
export function waitForNames(names: string[], timeoutMs: number): Promise<void> {
  return waitFor(`jobs ${names.join(", ")} to end`, () => names.every((n) => activeJobs(n).length === 0), timeoutMs);
}

export function scancel(args: string[]): void {
  spawnSync("scancel", args, { encoding: "utf8" });
}
