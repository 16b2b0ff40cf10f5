import { expect, test } from "bun:test";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { profileRollouts } from "./index.ts";

const FIXTURE = path.join(import.meta.dir, "..", "..", "..", "fixtures", "stages", "tricky");
const INPUTS = path.join(FIXTURE, "rollouts_materialized_inputs.jsonl");

test("profile's outputs on tricky rows (escapes, NaN/Infinity, dumped and multi-turn prompts, CRLF, blank lines) are the previous build's, byte for byte", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gym-profile-tricky-"));
  const report = await profileRollouts({ inputs: INPUTS, rollouts: path.join(FIXTURE, "rollouts.jsonl"), outputBase: path.join(dir, "profile.jsonl") });
  for (const [file, name] of [[report.rewardProfiling, "_reward_profiling.jsonl"], [report.agentMetrics, "_agent_metrics.json"], [report.repeatLevelMetrics!, "_repeat_level_metrics.json"]] as const) {
    expect(fs.readFileSync(file, "utf8")).toBe(fs.readFileSync(path.join(FIXTURE, "expected", `profile${name}`), "utf8"));
  }
});

test("among tricky rows, a rollout of another prompt and a broken line are refused by file:line", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gym-profile-tricky-"));
  const lines = fs.readFileSync(path.join(FIXTURE, "rollouts.jsonl"), "utf8").split("\n");
  const other = path.join(dir, "other.jsonl");
  // Line 1 is task 0's rollout 0: its prompt's first item now says something else (escaped as the file spells it).
  fs.writeFileSync(other, [lines[0]!.replace("caf\u00e9", "cafe"), ...lines.slice(1)].join("\n"));
  await expect(profileRollouts({ inputs: INPUTS, rollouts: other, outputBase: path.join(dir, "o.jsonl") })).rejects.toThrow(`${other}:1 and ${INPUTS}:1`);
  const broken = path.join(dir, "broken.jsonl");
  fs.writeFileSync(broken, [...lines.slice(0, 3), lines[3]!.slice(0, 50), ...lines.slice(4)].join("\n"));
  await expect(profileRollouts({ inputs: INPUTS, rollouts: broken, outputBase: path.join(dir, "b.jsonl") })).rejects.toThrow(`${broken}:4`);
});
