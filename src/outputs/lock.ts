/** The run lock: one collector per output stem. A pid file taken atomically; a lock left by a dead process is taken over. */
import * as fs from "node:fs";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { GymError } from "../errors.ts";

export interface RunLock {
  release(): void;
}

interface LockOwner {
  pid: number;
  host: string;
  started: string;
}

/**
 * Takes `<stem>_run.lock` before anything of the run is read or written. Fails with a clear error when a
 * live process holds it; a lock whose process is gone (kill -9, crash) is stale and replaced.
 */
export function acquireRunLock(path: string, what: string): RunLock {
  fs.mkdirSync(dirname(path), { recursive: true });
  const me: LockOwner = { pid: process.pid, host: hostname(), started: new Date().toISOString() };
  const tmp = `${path}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(me)}\n`);
  try {
    for (let tries = 0; tries < 3; tries++) {
      try {
        fs.linkSync(tmp, path); // atomic: fails if the lock exists
        return { release: () => releaseIfMine(path) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const owner = readOwner(path);
      if (owner && owner.host === me.host && isAlive(owner.pid) && owner.pid !== process.pid) {
        throw new GymError("E_RUN_LOCKED", `Another collector (pid ${owner.pid}, started ${owner.started}) is writing ${what}.`, {
          hint: `Wait for it to finish or stop it; two runs must not write the same output. Lock file: ${path}`,
        });
      }
      if (owner && owner.host !== me.host) {
        throw new GymError("E_RUN_LOCKED", `${what} is locked by pid ${owner.pid} on host ${owner.host}.`, {
          hint: `If that run is gone, delete ${path} and try again.`,
        });
      }
      fs.rmSync(path, { force: true }); // stale: its process is dead
    }
    throw new GymError("E_RUN_LOCKED", `Could not take the run lock ${path}.`, { hint: "Another run may be starting at the same moment; try again." });
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

function readOwner(path: string): LockOwner | undefined {
  try {
    return JSON.parse(fs.readFileSync(path, "utf8")) as LockOwner;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function releaseIfMine(path: string): void {
  if (readOwner(path)?.pid === process.pid) fs.rmSync(path, { force: true });
}
