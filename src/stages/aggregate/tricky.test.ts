import { expect, test } from "bun:test";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { aggregateShards } from "./index.ts";

const FIXTURE = path.join(import.meta.dir, "..", "..", "..", "fixtures", "stages", "tricky");
const expected = (name: string) => fs.readFileSync(path.join(FIXTURE, "expected", name), "utf8");

test("aggregate's outputs on tricky rows (escapes, NaN/Infinity, odd key orders, CRLF, blank lines) are the previous build's, byte for byte", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gym-aggregate-tricky-"));
  const output = path.join(dir, "merged.jsonl");
  await aggregateShards({ inputs: [path.join(FIXTURE, "rollouts.jsonl")], output, healthCheck: true });
  expect(fs.readFileSync(output, "utf8")).toBe(expected("merged.jsonl"));
  for (const name of ["_aggregate_metrics.json", "_rollout_verdicts.jsonl"]) expect(fs.readFileSync(path.join(dir, `merged${name}`), "utf8")).toBe(expected(`merged${name}`));
  expect(fs.readFileSync(path.join(dir, "merged_quality_summary.json"), "utf8").replaceAll(output, "<merged>")).toBe(expected("merged_quality_summary.json"));
});

test("a broken line among tricky rows stops aggregate with its file:line", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gym-aggregate-tricky-"));
  const lines = fs.readFileSync(path.join(FIXTURE, "rollouts.jsonl"), "utf8").split("\n");
  lines[2] = lines[2]!.slice(0, 40);
  const shard = path.join(dir, "shard.jsonl");
  fs.writeFileSync(shard, lines.join("\n"));
  await expect(aggregateShards({ inputs: [shard], output: path.join(dir, "merged.jsonl") })).rejects.toThrow(`${shard}:3`);
});
