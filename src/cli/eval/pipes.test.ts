import { beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, gymBinary, run } from "../../testing/binary.ts";
import { writeMcqaDataset } from "../../testing/datasets.ts";

let dir: string;
beforeAll(async () => {
  await ensureBinary();
  dir = mkdtempSync(join(tmpdir(), "gym-pipes-"));
  writeMcqaDataset(join(dir, "tasks.jsonl"), 12);
}, 120_000);

const collect = `${gymBinary} eval run --resources-server mcqa --model-type mock_model --input tasks.jsonl --num-repeats 3 -o -`;

test("gym eval run -o - | gym eval profile --rollouts -", async () => {
  const r = await run(["bash", "-c", `set -o pipefail; ${collect} 2>/dev/null | ${gymBinary} eval profile --rollouts - --output prof/p.jsonl --json`], { cwd: dir });
  expect(r.code).toBe(0);
  const report = JSON.parse(r.stdout);
  expect(report.summary.completed_rollout_rows).toBe(36);
  expect(existsSync(join(dir, "prof", "p_reward_profiling.jsonl"))).toBe(true);
  expect(readFileSync(join(dir, "prof", "p_reward_profiling.jsonl"), "utf8").trimEnd().split("\n").length).toBe(12);
}, 60_000);

test("cat shards | gym eval aggregate --input -", async () => {
  const r = await run(["bash", "-c", `set -o pipefail; ${collect} 2>/dev/null > all.jsonl && head -n 20 all.jsonl > a.jsonl && tail -n +21 all.jsonl > b.jsonl && cat a.jsonl b.jsonl | ${gymBinary} eval aggregate --input - -o merged/r.jsonl --json`], { cwd: dir });
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout).rows).toBe(36);
  const metrics = JSON.parse(readFileSync(join(dir, "merged", "r_aggregate_metrics.json"), "utf8"));
  expect(metrics[0].agent_ref.name).toBe("mcqa_simple_agent");
}, 60_000);

test("a closed pipe ends the producer quietly (exit 141), not with a hang or a stack trace", async () => {
  const r = await run(["bash", "-c", `${collect} --limit 12 2>err.txt | head -c 10 > /dev/null; echo "\${PIPESTATUS[0]}"`], { cwd: dir });
  expect(r.stdout.trim()).toBe("141");
  expect(readFileSync(join(dir, "err.txt"), "utf8")).not.toContain("Error");
}, 60_000);
