import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot, run } from "../../testing/binary.ts";

const fixture = join(repoRoot, "fixtures", "metrics", "example_multi_turn_gymnasium");

test("aggregate --resources-server asks the server's /aggregate_metrics and reproduces NeMo Gym's file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "gym-agg-config-"));
  const out = join(dir, "r.jsonl");
  const r = await run([process.execPath, "src/main.ts", "eval", "aggregate", "--input-glob", join(fixture, "example_rollouts.jsonl"), "-o", out, "--resources-server", "example_multi_turn_gymnasium"]);
  expect(r.code).toBe(0);
  expect(r.stderr).toContain("computed by the config's servers");
  const ours = JSON.parse(readFileSync(join(dir, "r_aggregate_metrics.json"), "utf8"));
  const theirs = JSON.parse(readFileSync(join(fixture, "example_rollouts_aggregate_metrics.json"), "utf8"));
  // The published file predates 0.7's repeat-level metrics; everything else is the same, floats included.
  expect(ours[0].repeat_level_metrics).toEqual([]);
  delete ours[0].repeat_level_metrics;
  expect(ours).toEqual(theirs);
  expect(readFileSync(join(dir, "r_aggregate_metrics.json"), "utf8")).toContain('"max/reward": 1.0');
}, 60_000);
