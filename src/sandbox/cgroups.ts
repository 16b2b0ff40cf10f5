/**
 * Memory and process-count caps through cgroups (v1 memory+pids controllers, or v2), in a pool of reusable slots
 * under gym's own cgroup: mkdir/rmdir per run costs 10–25 ms here, a reused slot nothing. Every process left in a
 * slot after a run is killed before the slot is handed out again; the slots are removed when gym exits.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnDetached } from "../runtime/spawn.ts";
import type { LimitMechanism } from "./detect.ts";

/**
 * Kills what is left in the slots once gym is gone, however it went (kill -9 runs no exit handler, and bwrap's
 * --die-with-parent was seen to miss the sandbox's pid 1 when gym was killed mid-run): polls gym's pid each second.
 */
const WATCHDOG = `gym=$1; shift
while kill -0 "$gym" 2>/dev/null; do sleep 1; done
for base in "$@"; do
  for slot in "$base"/slot-*; do
    [ -d "$slot" ] || continue
    for try in 1 2 3 4 5 6 7 8 9 10; do
      pids=$(cat "$slot/cgroup.procs" 2>/dev/null)
      [ -z "$pids" ] && break
      kill -9 $pids 2>/dev/null
      sleep 0.1
    done
    rmdir "$slot" 2>/dev/null
  done
  rmdir "$base" 2>/dev/null
done`;

export interface CgroupSlot {
  /** `cgroup.procs` files the program's first process writes its pid into before it execs the sandbox. */
  procsFiles: string[];
  /** Processes killed by the memory cgroup's OOM killer so far (compare before and after a run). */
  oomKills(): number;
  /** Peak memory of the slot since it was handed out, in bytes (0 when unknown). */
  peakBytes(): number;
  /** Forks refused by the pids limit so far (compare before and after a run). */
  forksDenied(): number;
}

interface Slot extends CgroupSlot {
  dirs: string[];
  configured: string;
}

const ROOT = "/sys/fs/cgroup";

/** The cgroup a controller puts this process in (`/proc/self/cgroup`), so slots nest under gym's own limits. */
function ownPath(controller: string | null): string {
  for (const line of readFileSync("/proc/self/cgroup", "utf8").split("\n")) {
    const [, controllers, path] = line.split(":");
    if (controllers === undefined || path === undefined) continue;
    if (controller === null ? controllers === "" : controllers.split(",").includes(controller)) return path;
  }
  return "/";
}

function write(file: string, value: string): void {
  writeFileSync(file, value);
}

function readNumber(file: string, key?: string): number {
  try {
    const text = readFileSync(file, "utf8");
    if (key === undefined) return Number(text.trim()) || 0;
    const line = text.split("\n").find((l) => l.startsWith(`${key} `));
    return line ? Number(line.split(" ")[1]) || 0 : 0;
  } catch {
    return 0;
  }
}

/** Sends SIGKILL to every process still in a slot, until none is left (a fork in flight can add one). */
export async function killAll(dirs: string[]): Promise<void> {
  for (let round = 0; round < 200; round++) {
    let left = 0;
    for (const dir of dirs) {
      const pids = readFileSync(join(dir, "cgroup.procs"), "utf8").split("\n").filter(Boolean);
      left += pids.length;
      for (const pid of pids) {
        try {
          process.kill(Number(pid), "SIGKILL");
        } catch {}
      }
    }
    if (left === 0) return;
    await new Promise((r) => setTimeout(r, round < 20 ? 5 : 25));
  }
}

/** rmdir that retries while the kernel still reports the cgroup busy (EBUSY right after its last process exits). */
function removeDir(dir: string): void {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      rmdirSync(dir);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return;
      if (code !== "EBUSY") return;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}

/** A pool of cgroup slots with memory and pids limits; null when cgroups cannot be used. */
export class CgroupPool {
  private free: Slot[] = [];
  private all: Slot[] = [];
  private readonly bases: string[];
  private counter = 0;

  private constructor(private readonly mechanism: "cgroup-v1" | "cgroup-v2") {
    const name = `gym-sandbox-${process.pid}`;
    this.bases =
      mechanism === "cgroup-v1"
        ? [join(ROOT, "memory", ownPath("memory"), name), join(ROOT, "pids", ownPath("pids"), name)]
        : [join(ROOT, ownPath(null), name)];
    for (const base of this.bases) mkdirSync(base, { recursive: true });
    if (mechanism === "cgroup-v2") write(join(this.bases[0]!, "cgroup.subtree_control"), "+memory +pids");
    process.once("exit", () => this.removeAll());
    spawnDetached(["/bin/sh", "-c", WATCHDOG, "gym-sandbox-watchdog", String(process.pid), ...this.bases], { PATH: "/usr/bin:/bin" });
  }

  /** A pool for this mechanism, or null when its files are not writable (then rlimits stand in). */
  static open(mechanism: LimitMechanism): CgroupPool | null {
    if (mechanism === "rlimit") return null;
    try {
      sweepStale(mechanism);
      return new CgroupPool(mechanism);
    } catch {
      return null;
    }
  }

  /** A slot limited to `memoryBytes` (RAM+swap) and `pids` processes, cleared of any earlier run. */
  acquire(memoryBytes: number, pids: number): CgroupSlot {
    const slot = this.free.pop() ?? this.create();
    const wanted = `${memoryBytes}/${pids}`;
    if (slot.configured !== wanted) {
      this.configure(slot, memoryBytes, pids);
      slot.configured = wanted;
    }
    if (this.mechanism === "cgroup-v1") {
      try {
        write(join(slot.dirs[0]!, "memory.max_usage_in_bytes"), "0");
      } catch {}
    }
    return slot;
  }

  /** Kills whatever is left in the slot and returns it to the pool. */
  async release(slot: CgroupSlot): Promise<void> {
    const s = slot as Slot;
    await killAll(s.dirs);
    this.free.push(s);
  }

  private create(): Slot {
    const id = `slot-${this.counter++}`;
    const dirs = this.bases.map((base) => join(base, id));
    for (const dir of dirs) mkdirSync(dir, { recursive: true });
    const mem = dirs[0]!;
    const v1 = this.mechanism === "cgroup-v1";
    const slot: Slot = {
      dirs,
      configured: "",
      procsFiles: dirs.map((d) => join(d, "cgroup.procs")),
      oomKills: () => (v1 ? readNumber(join(mem, "memory.oom_control"), "oom_kill") : readNumber(join(mem, "memory.events"), "oom_kill")),
      forksDenied: () => readNumber(join(dirs[1] ?? mem, "pids.events"), "max"),
      peakBytes: () => (v1 ? readNumber(join(mem, "memory.max_usage_in_bytes")) : readNumber(join(mem, "memory.peak"))),
    };
    this.all.push(slot);
    return slot;
  }

  private configure(slot: Slot, memoryBytes: number, pids: number): void {
    const [mem, pid] = [slot.dirs[0]!, slot.dirs[1] ?? slot.dirs[0]!];
    if (this.mechanism === "cgroup-v1") {
      const memsw = join(mem, "memory.memsw.limit_in_bytes");
      const hasSwapFile = existsSync(memsw);
      // memsw may never be below the RAM limit: lower RAM first when shrinking, raise memsw first when growing.
      const current = readNumber(join(mem, "memory.limit_in_bytes"));
      if (hasSwapFile && memoryBytes > current) write(memsw, String(memoryBytes));
      write(join(mem, "memory.limit_in_bytes"), String(memoryBytes));
      if (hasSwapFile) write(memsw, String(memoryBytes));
      write(join(mem, "memory.swappiness"), "0");
      write(join(pid, "pids.max"), String(pids));
    } else {
      write(join(mem, "memory.max"), String(memoryBytes));
      try {
        write(join(mem, "memory.swap.max"), "0");
      } catch {}
      write(join(mem, "pids.max"), String(pids));
    }
  }

  private removeAll(): void {
    for (const slot of this.all) {
      for (const dir of slot.dirs) {
        try {
          for (const pid of readFileSync(join(dir, "cgroup.procs"), "utf8").split("\n").filter(Boolean)) process.kill(Number(pid), "SIGKILL");
        } catch {}
        removeDir(dir);
      }
    }
    for (const base of this.bases) removeDir(base);
  }
}

/** Removes empty `gym-sandbox-<pid>` cgroups left by a gym that died (its pid no longer exists). */
function sweepStale(mechanism: "cgroup-v1" | "cgroup-v2"): void {
  const parents = mechanism === "cgroup-v1" ? [join(ROOT, "memory", ownPath("memory")), join(ROOT, "pids", ownPath("pids"))] : [join(ROOT, ownPath(null))];
  for (const parent of parents) {
    for (const name of readdirSync(parent)) {
      const match = /^gym-sandbox-(\d+)$/.exec(name);
      if (!match || existsSync(`/proc/${match[1]}`)) continue;
      const base = join(parent, name);
      for (const slot of readdirSync(base)) if (slot.startsWith("slot-")) removeDir(join(base, slot));
      removeDir(base);
    }
  }
}
