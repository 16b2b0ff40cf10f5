// When gym itself is killed (kill -9, no clean-up code runs), its sandboxed programs die with it: bwrap's
// --die-with-parent and the pid namespace, and — for the sandbox's pid 1, which --die-with-parent was seen to miss —
// the cgroup watchdog gym starts with its slots (it kills what is left in them within a second of gym's death).
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { detectPython, detectSandbox } from "./index.ts";

const ready = (await detectSandbox()).kind === "bwrap" && (await detectPython()) !== null;
if (!ready) console.warn("skip: the parent-death test because bubblewrap or python3 is not available");

/** Live processes whose command line carries the tag (the sandboxed program and its fork). */
function tagged(tag: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
          if (readFileSync(`/proc/${entry}/cmdline`, "latin1").includes(tag)) found.push(Number(entry));
        } catch {}
      }
      return found;
    }

    (ready ? test : test.skip)("kill -9 of the process that opened the sandbox leaves no sandboxed process behind", async () => {
  const tag = `parent-death-${process.pid}-${Date.now()}`;
  const script = `
    import { openSandbox, detectPython } from ${JSON.stringify(join(import.meta.dir, "index.ts"))};
    const python = await detectPython();
    const sandbox = await openSandbox();
    // A program that forks a child and both sleep: two processes to outlive their parent if they could.
    await sandbox.run({ argv: [python.executable, "-c", "# ${tag}\\nimport os, time\\nos.fork()\\ntime.sleep(600)"], readOnlyRoots: python.roots, limits: { wallSeconds: 600, cpuSeconds: 600 } });
  `;
  const parent = Bun.spawn([process.execPath, "-e", script], { stdout: "ignore", stderr: "ignore" });
  // The parent's own command line holds the script (and so the tag): count the others.
  const programs = () => tagged(tag).filter((pid) => pid !== parent.pid);
  try {
    for (let i = 0; i < 400 && programs().length < 2; i++) await Bun.sleep(25);
    // bwrap (its command line holds the program too), its reaper, the program and its fork.
    expect(programs().length).toBeGreaterThanOrEqual(2);
    parent.kill(9);
    await parent.exited;
    for (let i = 0; i < 400 && programs().length > 0; i++) await Bun.sleep(25);
    expect(programs()).toEqual([]);
  } finally {
    // Never leave a sleeper behind, whatever failed above.
    parent.kill(9);
    for (const pid of programs()) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
    }
  }
}, 30_000);
