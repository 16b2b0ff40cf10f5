import { describe, expect, test } from "bun:test";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createHash } from "node:crypto";
import { aggregateShards } from "./index.ts";
import { hashHere } from "./hash.ts";
import { fixturePath } from "../../metrics/_fixtures.ts";
import { GymError } from "../../errors.ts";

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "gym-agg-test-"));
const lines = (name: string) => fs.readFileSync(fixturePath(name, "example_rollouts.jsonl"), "utf8").trim().split("\n");

describe("aggregate stage", () => {
  test("unsorted shards with CRLF and a sidecar beside them: merged in key order, metrics byte-identical to NeMo Gym", async () => {
    const dir = tmp();
    const rows = lines("blackjack");
    fs.writeFileSync(path.join(dir, "rollouts-1.jsonl"), `${rows[3]}\r\n${rows[0]}\r\n`);
    fs.writeFileSync(path.join(dir, "rollouts-2.jsonl"), `${rows[4]}\n\n${rows[2]}\n${rows[1]}`);
    fs.writeFileSync(path.join(dir, "rollouts-1_failures.jsonl"), '{"_ng_task_index":0,"_ng_rollout_index":9}\n');
    fs.writeFileSync(path.join(dir, "rollouts-1_materialized_inputs.jsonl"), '{"_ng_task_index":0,"_ng_rollout_index":9}\n');
    // The attempts journal and the Batch API journal are companions too (the old rule merged them as shards).
    fs.writeFileSync(path.join(dir, "rollouts-2_manifest.attempts.jsonl"), '{"_ng_task_index":0,"_ng_rollout_index":9}\n');
    fs.writeFileSync(path.join(dir, "rollouts-2_batches.jsonl"), '{"event":"created"}\n');
    const logs: string[] = [];
    const report = await aggregateShards({ inputs: [path.join(dir, "rollouts-*.jsonl")], output: path.join(dir, "merged.jsonl"), repeatLevel: false, log: (m) => logs.push(m) });
    expect(report.excludedSidecars.map((p) => path.basename(p))).toEqual(["rollouts-1_failures.jsonl", "rollouts-1_materialized_inputs.jsonl", "rollouts-2_batches.jsonl", "rollouts-2_manifest.attempts.jsonl"]);
    expect(report.shards.map((s) => [path.basename(s.path), s.rows])).toEqual([["rollouts-1.jsonl", 2], ["rollouts-2.jsonl", 3]]);
    const merged = fs.readFileSync(path.join(dir, "merged.jsonl"), "utf8").trim().split("\n");
    expect(merged.map((l) => JSON.parse(l)._ng_rollout_index)).toEqual([0, 1, 2, 3, 4]);
    expect(merged).toEqual(rows); // rows keep their exact bytes (1.0 stays 1.0)
    expect(fs.readFileSync(path.join(dir, "merged_aggregate_metrics.json"), "utf8")).toBe(fs.readFileSync(fixturePath("blackjack", "example_rollouts_aggregate_metrics.json"), "utf8"));
    const sources = JSON.parse(fs.readFileSync(path.join(dir, "merged_sources.json"), "utf8"));
    // Hashed from the blocks the parse reads (or in a worker with GYM_AGGREGATE_WORKER=1): the digest of the file's bytes either way.
    const digest = (name: string) => createHash("sha256").update(fs.readFileSync(path.join(dir, name))).digest("hex");
    expect(sources.shards.map((s: { sha256: string }) => s.sha256)).toEqual([digest("rollouts-1.jsonl"), digest("rollouts-2.jsonl")]);
    expect(await hashHere(path.join(dir, "rollouts-2.jsonl"))).toBe(digest("rollouts-2.jsonl"));
    expect(logs.some((l) => l.includes("Skipping sidecar"))).toBe(true);
  });

  test("0.7 adds repeat-level metrics for a multi-repeat agent", async () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, "r.jsonl"), lines("blackjack").join("\n"));
    await aggregateShards({ inputs: [path.join(dir, "r.jsonl")], output: path.join(dir, "out.jsonl") });
    const [entry] = JSON.parse(fs.readFileSync(path.join(dir, "out_aggregate_metrics.json"), "utf8"));
    expect(Object.keys(entry)).toEqual(["agent_ref", "agent_metrics", "key_metrics", "group_level_metrics", "repeat_level_metrics"]);
    expect(entry.repeat_level_metrics.length).toBe(5);
    expect(entry.agent_metrics["mean_across_repeats/mean/reward"]).toBeCloseTo(0.2, 15);
  });

  test("identities colliding across shards are refused, naming both files and lines", async () => {
    const dir = tmp();
    const rows = lines("tales");
    fs.writeFileSync(path.join(dir, "a.jsonl"), `${rows[0]}\n${rows[1]}\n`);
    fs.writeFileSync(path.join(dir, "b.jsonl"), `${rows[2]}\n${rows[1]}\n`);
    const error = await aggregateShards({ inputs: [`${dir}/a.jsonl,${dir}/b.jsonl`], output: path.join(dir, "m.jsonl") }).catch((e) => e);
    expect(error).toBeInstanceOf(GymError);
    expect(error.message).toContain(`${dir}/a.jsonl:2`);
    expect(error.message).toContain(`${dir}/b.jsonl:2`);
  });

  test("the output may not be one of several shards; a bad line names file and line", async () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, "a.jsonl"), `${lines("tales")[0]}\n`);
    fs.writeFileSync(path.join(dir, "b.jsonl"), `${lines("tales")[1]}\n{"broken": \n`);
    const clash = await aggregateShards({ inputs: [`${dir}/*.jsonl`], output: path.join(dir, "a.jsonl") }).catch((e) => e);
    expect(clash.code).toBe("E_CONFIG");
    const bad = await aggregateShards({ inputs: [`${dir}/b.jsonl`], output: path.join(dir, "m.jsonl") }).catch((e) => e);
    expect(bad.message).toContain(`${dir}/b.jsonl:2`);
  });
});

describe("aggregate health check", () => {
  const usage = (i: number, o: number | string) => `{"input_tokens":${i},"output_tokens":${o}}`;
  const capture = (calls: string) => `"ng_model_call_capture":{"calls":[${calls}]}`;
  const rows = [
    // healthy; its usage spelled 5.0 (typed as a Python float by the metrics parse, not by the checks)
    `{"_ng_task_index":1,"_ng_rollout_index":0,"reward":1.0,"response":{"usage":${usage(10, "5.0")}},${capture(`{"status":"completed","usage":${usage(10, 5)}}`)},"ng_trajectory":{"turns":[{"text":"hi"}]},"agent_ref":{"name":"a"}}`,
    // unhealthy: the last call failed
    `{"_ng_task_index":0,"_ng_rollout_index":1,"reward":0,"response":{"usage":${usage(10, 0)}},${capture(`{"status":"completed","usage":${usage(10, 0)}},{"status":"failed","error":"boom"}`)},"ng_trajectory":{"turns":[{"text":"x"}]},"agent_ref":{"name":"a"}}`,
    // the same identity under another agent: a duplicate record in the merged file
    `{"_ng_task_index":0,"_ng_rollout_index":1,"reward":null,"response":{"usage":${usage(3, 3)}},"agent_ref":{"name":"b"}}`,
    `{"_ng_task_index":0,"_ng_rollout_index":0,"response":{"usage":${usage(3, 3)}},"agent_ref":{"name":"a"}}`,
    `{"_ng_task_index":7,"_ng_rollout_index":0,"reward":1,"agent_ref":{"name":"b"}}`,
    `{"_ng_task_index":2,"reward":0.5,"ng_trajectory":{"turns":[],"gaps":[1]},"agent_ref":{"name":"a"}}`,
  ];

  test("verdicts and summary from the aggregate's own parse are byte-identical to healthCheck() on the merged file", async () => {
    const { healthCheck } = await import("../health-check/index.ts");
    const dir = tmp();
    fs.writeFileSync(path.join(dir, "s1.jsonl"), `${rows.slice(0, 3).join("\n")}\n`);
    fs.writeFileSync(path.join(dir, "s2.jsonl"), `${rows.slice(3).join("\r\n")}\r\n`);
    const out = path.join(dir, "out");
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, "merged_materialized_inputs.jsonl"), [0, 1, 2, 3].map((t) => JSON.stringify({ _ng_task_index: t, _ng_rollout_index: 0 })).join("\n"));
    const report = await aggregateShards({ inputs: [`${dir}/s*.jsonl`], output: path.join(out, "merged.jsonl"), healthCheck: true });
    const read = (name: string) => fs.readFileSync(path.join(out, name), "utf8");
    const [verdicts, summary] = [read("merged_rollout_verdicts.jsonl"), read("merged_quality_summary.json")];
    const checked = await healthCheck({ runDir: out, rolloutsFile: "merged.jsonl" });
    expect(verdicts).toBe(read("merged_rollout_verdicts.jsonl"));
    expect(summary).toBe(read("merged_quality_summary.json"));
    expect(report.health).toEqual(checked);
    // The fixture exercises what matters: duplicates, failures, missing rollouts.
    expect([checked.checked, checked.healthy, checked.unhealthy, checked.unobserved]).toEqual([6, 1, 3, 2]);
    expect(checked.run.run_missing_rollouts.missing).toBe(1);
    expect(verdicts).toContain("record_duplicate_identity");
    expect(verdicts).toContain('"rollout_id":"7:0"');
  });

  test("a task index spelled as a string stops both readers at its file:line and field (it once grouped silently)", async () => {
    const { healthCheck } = await import("../health-check/index.ts");
    const dir = tmp();
    fs.writeFileSync(path.join(dir, "rollouts.jsonl"), `${rows[0]}\n{"_ng_task_index":"7","_ng_rollout_index":0,"reward":1}\n`);
    const message = /rollouts\.jsonl:2: field '_ng_task_index' must be a non-negative integer .* but it is the string "7"/;
    await expect(aggregateShards({ inputs: [path.join(dir, "rollouts.jsonl")], output: path.join(dir, "out", "m.jsonl") })).rejects.toThrow(message);
    await expect(healthCheck({ runDir: dir })).rejects.toThrow(message);
    expect(fs.existsSync(path.join(dir, "out", "m.jsonl"))).toBe(false);
  });

  test("no merge, no health check", async () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, "s.jsonl"), `${rows[0]}\n`);
    const report = await aggregateShards({ inputs: [`${dir}/s.jsonl`], output: path.join(dir, "m.jsonl"), healthCheck: true, mergeShards: false });
    expect(report.health).toBeUndefined();
    expect(fs.readdirSync(dir).filter((f) => f.includes("quality_summary"))).toEqual([]);
  });
});
