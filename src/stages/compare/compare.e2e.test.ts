import { beforeAll, expect, test } from "bun:test";
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, gym } from "../../testing/binary.ts";

const published = join(import.meta.dir, "../../../fixtures/metrics/blackjack/example_rollouts.jsonl");
let dir: string;

beforeAll(async () => {
  await ensureBinary();
  dir = mkdtempSync(join(tmpdir(), "gym-compare-e2e-"));
  for (const side of ["base", "cand"]) {
    mkdirSync(join(dir, side));
    copyFileSync(published, join(dir, `${side}-in.jsonl`));
    const r = await gym(["eval", "aggregate", "--input-glob", join(dir, `${side}-in.jsonl`), "--output", join(dir, side, "rollouts.jsonl")]);
    expect(r.code).toBe(0);
  }
}, 60_000);

test("gym eval compare names a baseline whose rollouts changed after its metrics (an invalid line appended), and says how to re-check them", async () => {
  const args = ["eval", "compare", "--baseline", join(dir, "base", "rollouts.jsonl"), "--candidates", join(dir, "cand", "rollouts.jsonl"), "--output-dir", join(dir, "report")];
  const clean = await gym(args);
  expect(clean.code).toBe(0);
  expect(clean.stderr).not.toContain("changed after its metrics");
  appendFileSync(join(dir, "base", "rollouts.jsonl"), "{not json\n");
  const later = new Date(Date.now() + 60_000);
  utimesSync(join(dir, "base", "rollouts.jsonl"), later, later);
  const stale = await gym([...args.slice(0, -1), join(dir, "report2")]);
  expect(stale.code).toBe(0);
  expect(stale.stderr).toContain(`${join(dir, "base", "rollouts.jsonl")} changed after its metrics`);
  expect(stale.stderr).toContain("gym eval aggregate --input-glob");
  // The re-check it points to refuses the broken line by file and line.
  const recheck = await gym(["eval", "aggregate", "--input-glob", join(dir, "base", "rollouts.jsonl"), "--output", join(dir, "recheck.jsonl")]);
  expect(recheck.code).toBe(1);
  expect(recheck.stderr).toMatch(/rollouts\.jsonl:\d+/);
}, 60_000);
