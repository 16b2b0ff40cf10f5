import { expect, test } from "bun:test";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { aggregateShards } from "./index.ts";
import { SecondCore } from "./second-core.ts";

/** Runs `body` with GYM_AGGREGATE_WORKER set to `mode`, then puts it back. */
async function withWorker<T>(mode: string, body: () => Promise<T>): Promise<T> {
  const before = process.env.GYM_AGGREGATE_WORKER;
  process.env.GYM_AGGREGATE_WORKER = mode;
  try {
    return await body();
  } finally {
    if (before === undefined) delete process.env.GYM_AGGREGATE_WORKER;
    else process.env.GYM_AGGREGATE_WORKER = before;
  }
}

test("the worker loads from source when asked for (GYM_AGGREGATE_WORKER=1), and is off by default", async () => {
  await withWorker("1", async () => {
    const second = new SecondCore();
    try {
      expect(await second.whenLoaded()).toBe(true);
    } finally {
      second.stop();
    }
  });
  const before = process.env.GYM_AGGREGATE_WORKER;
  delete process.env.GYM_AGGREGATE_WORKER;
  try {
    const second = new SecondCore();
    expect(second.usable).toBe(false);
    expect(await second.whenLoaded()).toBe(false);
  } finally {
    if (before !== undefined) process.env.GYM_AGGREGATE_WORKER = before;
  }
});

/** Two shards, two agents, rows in completion order: ints, whole floats, fractions, a missing reward, an agentless row. */
function writeShards(dir: string): string[] {
  const files = [0, 1].map((s) => path.join(dir, `rollouts-${s}.jsonl`));
  for (let s = 0; s < 2; s++) {
    const lines: string[] = [];
    for (let r = 0; r < 4; r++) {
      for (let t = s; t < 800; t += 2) {
        const reward = t % 7 === 0 ? "0.5" : t % 5 === 0 ? "1" : (t + r) % 3 === 0 ? "1.0" : "0.0";
        const agent = t % 11 === 0 ? "" : `,"agent_ref":{"name":"${t % 3 === 0 ? "b_agent" : "a_agent"}"}`;
        const rewardField = t === 13 ? "" : `"reward":${reward},`;
        lines.push(`{"response":{"output":[],"usage":{"input_tokens":${t},"output_tokens":${r + 1}.0}},${rewardField}"score":${(t * r) % 9}.25,"_ng_task_index":${t},"_ng_rollout_index":${r}${agent}}`);
      }
    }
    fs.writeFileSync(files[s]!, `${lines.join("\n")}\n`);
  }
  return files;
}

test("metrics on the second core write the same bytes as on the main thread", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gym-agg-second-"));
  try {
    const shards = writeShards(dir);
    const outputs: Record<string, string>[] = [];
    for (const mode of ["0", "1"]) {
      await withWorker(mode, async () => {
        const out = path.join(dir, `out-${mode}`, "merged.jsonl");
        const report = await aggregateShards({ inputs: shards, output: out, healthCheck: true });
        expect(report.rows).toBe(3200);
        expect(report.agents).toEqual(["a_agent", "b_agent"]);
        const folder = path.dirname(out);
        outputs.push(Object.fromEntries(fs.readdirSync(folder).sort().map((f) => [f, fs.readFileSync(path.join(folder, f), "utf8").replaceAll(`out-${mode}`, "out")])));
      });
    }
    expect(Object.keys(outputs[0]!)).toEqual(["merged.jsonl", "merged_aggregate_metrics.json", "merged_quality_summary.json", "merged_rollout_verdicts.jsonl", "merged_sources.json"]);
    expect(outputs[1]).toEqual(outputs[0]!);
    expect(outputs[0]!["merged_aggregate_metrics.json"]).toContain('"mean/reward"');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
