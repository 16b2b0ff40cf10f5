/** The stale-lock race with real processes: contenders under Bun and Deno take the same stale lock at once, round after round; exactly one owns each. */
import { expect, test } from "bun:test";
import * as fs from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "../testing/binary.ts";

const ROUNDS = 150;
const racer = join(repoRoot, "src", "testing", "lock-racer.ts");
const deno = join(repoRoot, "node_modules", ".bin", "deno");

async function race(runtimes: string[][]): Promise<void> {
  const dir = fs.mkdtempSync(join(tmpdir(), "gym-lock-race-"));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // Stale two ways: a pid that has exited, and an owner written before this boot.
      const stale = round % 2 ? { pid: 2 ** 22 + round, host: hostname(), started: "2026-01-01T00:00:00Z" } : { pid: process.pid, host: hostname(), started: "x", boot: "an-earlier-boot" };
      fs.writeFileSync(join(dir, `round-${round}_run.lock`), `${JSON.stringify(stale)}\n`);
    }
    const procs = runtimes.map((cmd, i) => Bun.spawn([...cmd, racer, dir, String(i), String(runtimes.length), String(ROUNDS)], { stdout: "ignore", stderr: "pipe" }));
    const exits = await Promise.all(procs.map(async (p) => ({ code: await p.exited, stderr: await new Response(p.stderr).text() })));
    expect(exits).toEqual(runtimes.map(() => ({ code: 0, stderr: "" })));
    const doubles: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const owners = runtimes.map((_, i) => fs.readFileSync(join(dir, `result-${round}-${i}`), "utf8")).filter((r) => r === "owner");
      if (owners.length !== 1) doubles.push(round);
      // The lock left behind is the owner's, and no takeover marker is left over.
      expect(JSON.parse(fs.readFileSync(join(dir, `round-${round}_run.lock`), "utf8")).pid).not.toBe(round % 2 ? 2 ** 22 + round : process.pid);
    }
    expect(doubles).toEqual([]);
    expect(fs.readdirSync(dir).filter((name) => name.includes(".takeover-"))).toEqual([]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test(`${ROUNDS} rounds, four Bun processes on each stale lock: exactly one owner per round`, async () => {
  await race([[process.execPath], [process.execPath], [process.execPath], [process.execPath]]);
}, 120_000);

test(`${ROUNDS} rounds, two Bun and two Deno processes on each stale lock: exactly one owner per round`, async () => {
  const denoRun = [deno, "run", "-A", "--quiet"];
  await race([[process.execPath], denoRun, [process.execPath], denoRun]);
}, 120_000);
