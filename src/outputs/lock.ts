/**
 * The run lock: one collector per output stem. A pid file taken atomically, holding the owner's pid, host,
 * start time, the kernel's boot id and the process's own start tick, and refreshed (mtime) while it runs.
 * A lock is stale — and taken over with a note — when its process is gone, when its pid now belongs to a
 * process that started later (pid reuse after a container restart), when it was written before this boot,
 * or when it was written on another host and has not been refreshed for `STALE_AFTER_MS` (a requeued job
 * on a shared file system). Otherwise the error names the holder and how to override. A takeover is atomic:
 * of several processes that find the same stale lock at once, exactly one becomes its owner (see takeOver).
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { GymError } from "../errors.ts";
import { processAlive, removeStaleTemps } from "../runtime/files.ts";

export interface RunLock {
  release(): void;
}

interface LockOwner {
  pid: number;
  host: string;
  started: string;
  /** /proc/sys/kernel/random/boot_id when it was taken (Linux). */
  boot?: string;
  /** The owner's start time in clock ticks since boot (/proc/<pid>/stat field 22, Linux). */
  tick?: string;
}

/** How often a holder refreshes its lock, and how long a lock from another host lives without that. */
export const HEARTBEAT_MS = 10_000;
export const STALE_AFTER_MS = 90_000;
/** How long a takeover marker from another host (or unreadable) blocks others; a takeover itself takes milliseconds. */
const MARKER_STALE_AFTER_MS = 30_000;
const MAX_MARKER_GENERATIONS = 8;
/** How long a starting run waits for another process's takeover of the same stale lock to settle. */
const TAKEOVER_WAIT_MS = 10_000;

/**
 * Takes `<stem>_run.lock` before anything of the run is read or written. Fails with a clear error when a
 * live process holds it; a stale lock (see the module note) is replaced. `note` hears why. `what` is the
 * output file the lock guards: once held, the temporary files a killed writer left beside it are removed.
 */
export function acquireRunLock(path: string, what: string, note: (message: string) => void = (m) => process.stderr.write(`${m}\n`)): RunLock {
  fs.mkdirSync(dirname(path), { recursive: true });
  const me: LockOwner = { pid: process.pid, host: hostname(), started: new Date().toISOString(), boot: bootId(), tick: startTick(process.pid) };
  const mine = `${JSON.stringify(me)}\n`;
  const tmp = `${path}.${process.pid}.tmp`;
  const deadline = Date.now() + TAKEOVER_WAIT_MS;
  try {
    for (;;) {
      fs.writeFileSync(tmp, mine);
      try {
        fs.linkSync(tmp, path); // atomic: fails if the lock exists
        removeStaleTemps(what);
        return held(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const content = readContent(path);
      if (content === undefined) continue; // released between the link and the read
      const owner = parseOwner(content);
      const stale = owner ? staleness(owner, me, path) : "its content is unreadable";
      if (stale === undefined && owner!.pid !== process.pid) {
        const where = owner!.host === me.host ? `pid ${owner!.pid}` : `pid ${owner!.pid} on host ${owner!.host}`;
        throw new GymError("E_RUN_LOCKED", `Another collector (${where}${owner!.started ? `, started ${owner!.started}` : ""}) is writing ${what}.`, {
          hint: `Wait for it to finish or stop it; two runs must not write the same output. If you are sure it is gone, delete the lock file ${path} and run again.`,
        });
      }
      const outcome = takeOver(path, content, tmp, mine, me);
      if (outcome === "taken") {
        if (stale) note(`Taking over the run lock ${path}: ${stale}.`);
        removeStaleTemps(what);
        return held(path);
      }
      if (Date.now() > deadline) {
        throw new GymError("E_RUN_LOCKED", `Could not take the run lock ${path}.`, { hint: "Another run may be starting at the same moment; try again." });
      }
      if (outcome === "busy") sleep(5); // another process is taking this stale lock over: see what it leaves
    }
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/**
 * Replaces the stale lock whose bytes are `stale`, so that of any number of processes that judged the same
 * lock stale at once exactly one takes it. Only the creator of `<lock>.takeover-<sha256 of stale>` (made
 * exclusively) may replace it, and only after checking that the lock still holds those bytes; the fresh lock
 * is renamed over the stale one (the lock never vanishes, so no newcomer can link in between), then read
 * back to confirm. A marker whose creator died mid-takeover is passed by the next generation
 * (`…-1`, `…-2`), never removed under a live taker; the winner removes every generation afterwards.
 * "busy": a live process holds the marker; "changed": the lock is no longer the stale one.
 */
function takeOver(path: string, stale: string, tmp: string, mine: string, me: LockOwner): "taken" | "busy" | "changed" {
  const base = `${path}.takeover-${createHash("sha256").update(stale).digest("hex")}`;
  let marker: string | undefined;
  let generation = 0;
  for (; generation < MAX_MARKER_GENERATIONS && !marker; generation++) {
    const name = generation ? `${base}-${generation}` : base;
    try {
      fs.writeFileSync(name, mine, { flag: "wx" });
      marker = name;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (!markerAbandoned(name, me)) return "busy";
    }
  }
  if (!marker) return "busy";
  try {
    if (readContent(path) !== stale) return "changed";
    fs.renameSync(tmp, path);
    if (readContent(path) !== mine) return "changed";
    for (let g = 0; g < generation; g++) fs.rmSync(g ? `${base}-${g}` : base, { force: true });
    return "taken";
  } finally {
    fs.rmSync(marker, { force: true });
  }
}

/** A takeover marker whose creator is gone (this host), or that is older than `MARKER_STALE_AFTER_MS` (another host, or unreadable). */
function markerAbandoned(name: string, me: LockOwner): boolean {
  const content = readContent(name);
  if (content === undefined) return false; // just removed: the next look finds the lock changed or the marker free
  const owner = parseOwner(content);
  if (owner && owner.host === me.host && (!owner.boot || owner.boot === me.boot)) return !processAlive(owner.pid);
  try {
    return Date.now() - fs.statSync(name).mtimeMs > MARKER_STALE_AFTER_MS;
  } catch {
    return false;
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Why a recorded owner no longer holds the lock, or undefined when it may still be running. */
function staleness(owner: LockOwner, me: LockOwner, path: string): string | undefined {
  if (owner.host !== me.host) {
    const age = Date.now() - fs.statSync(path).mtimeMs;
    return age > STALE_AFTER_MS ? `it was written on host ${owner.host} (pid ${owner.pid}) and not refreshed for ${Math.round(age / 1000)} s` : undefined;
  }
  if (owner.boot && me.boot && owner.boot !== me.boot) return `it was taken before this machine last booted (pid ${owner.pid})`;
  if (!processAlive(owner.pid)) return `its process (pid ${owner.pid}) is gone`;
  const tick = startTick(owner.pid);
  if (owner.tick && tick && owner.tick !== tick) return `pid ${owner.pid} now belongs to another process (it started after the lock was taken)`;
  return undefined;
}

/** A held lock: refreshed while the process lives, removed by release (only while it is still ours). */
function held(path: string): RunLock {
  const beat = setInterval(() => {
    try {
      const now = new Date();
      fs.utimesSync(path, now, now);
    } catch {}
  }, HEARTBEAT_MS);
  beat.unref?.();
  return {
    release: () => {
      clearInterval(beat);
      releaseIfMine(path);
    },
  };
}

function readContent(path: string): string | undefined {
  try {
    return fs.readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function parseOwner(content: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(content) as LockOwner;
    return typeof owner?.pid === "number" && typeof owner.host === "string" ? owner : undefined;
  } catch {
    return undefined;
  }
}

function bootId(): string | undefined {
  try {
    return fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Field 22 of /proc/<pid>/stat (after the command name, which may hold spaces and parentheses). */
export function startTick(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

function releaseIfMine(path: string): void {
  const content = readContent(path);
  if (content !== undefined && parseOwner(content)?.pid === process.pid) fs.rmSync(path, { force: true });
}
