import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const gym = path.join(import.meta.dir, "..", "..", "..", "dist", "gym");
const rollouts = path.join(import.meta.dir, "..", "..", "..", "fixtures", "metrics", "blackjack", "example_rollouts.jsonl");

/** Runs `gym eval aggregate` on the fixture into a fresh folder: its stderr and the files it wrote. */
function aggregate(env: Record<string, string>): { stderr: string; files: Map<string, Buffer> } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gym-phases-"));
  try {
    const run = spawnSync(gym, ["eval", "aggregate", "--input-glob", rollouts, "--output", "merged.jsonl"], { cwd: dir, encoding: "utf8", env: { ...process.env, ...env } });
    expect(run.status).toBe(0);
    return { stderr: run.stderr, files: new Map(fs.readdirSync(dir).map((f) => [f, fs.readFileSync(path.join(dir, f))])) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test("GYM_DEBUG_PHASES=1: aggregate prints its CPU seconds by phase to stderr and writes the same files; off by default", () => {
  const on = aggregate({ GYM_DEBUG_PHASES: "1" });
  const off = aggregate({ GYM_DEBUG_PHASES: "" });
  const line = on.stderr.split("\n").find((l) => l.startsWith("[gym] eval aggregate, CPU s by phase: "));
  expect(line).toBeDefined();
  for (const phase of ["start-up", "parse", "columns", "order", "merged copy", "agent metrics", "metrics file", "health verdicts"]) expect(line).toMatch(new RegExp(`${phase} \\d+\\.\\d{3}`));
  expect(line).toMatch(/total \d+\.\d{3} \(within them: sha256 \d+\.\d{3}\)$/);
  expect(off.stderr).not.toContain("CPU s by phase");
  expect([...on.files.keys()].sort()).toEqual([...off.files.keys()].sort());
  for (const [name, bytes] of on.files) expect(bytes.equals(off.files.get(name)!)).toBe(true);
});
