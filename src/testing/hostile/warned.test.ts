/** Inputs that are accepted under a documented rule, each with a warning naming the file and the count: never silently. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym } from "../binary.ts";
import { baseRun, type BaseRun } from "../hostile-base.ts";

let base: BaseRun;
let dir: string;
const at = (...parts: string[]) => join(dir, ...parts);

beforeAll(async () => {
  base = await baseRun();
  dir = fs.mkdtempSync(join(tmpdir(), "gym-warned-"));
  fs.writeFileSync(at("r_materialized_inputs.jsonl"), base.inputs);
}, 60_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The rollouts with line 2's reward spelled `value` (undefined: the key removed). */
function withReward(name: string, value: string | undefined): string {
  const rows = base.rollouts.trim().split("\n");
  rows[1] = value === undefined ? rows[1]!.replace(/"reward":[^,]*,/, "") : rows[1]!.replace(/"reward":[^,]*/, `"reward":${value}`);
  fs.writeFileSync(at(name), `${rows.join("\n")}\n`);
  return at(name);
}

describe("rewards NeMo Gym's statistics take as no value, or as a non-finite value (metrics.md §1.4)", () => {
  const cases: [string, string | undefined, RegExp][] = [
    ["null", "null", /reward is null \(left out of the reward statistics/],
    ["missing", undefined, /reward is missing \(left out of the reward statistics/],
    ["NaN", "NaN", /reward is NaN \(left out of the reward statistics/],
    ["Infinity", "Infinity", /reward is Infinity \(kept as a value.*not finite/],
    ["-Infinity", "-Infinity", /reward is -Infinity \(kept as a value.*not finite/],
  ];
  for (const [label, value, warning] of cases) {
    test(`a ${label} reward: aggregate and profile warn, naming the file and the count`, async () => {
      const file = withReward(`${label}.jsonl`, value);
      const agg = await gym(["eval", "aggregate", "--input", file, "-o", at(`${label}_agg`, "m.jsonl")]);
      expect(agg.code).toBe(0);
      expect(agg.stderr).toMatch(new RegExp(`Warning: .*${label}\\.jsonl: 1 row\\(s\\) where ${warning.source}`));
      const prof = await gym(["eval", "profile", "--inputs", at("r_materialized_inputs.jsonl"), "--rollouts", file, "--output", at(`${label}_prof`, "p.jsonl")]);
      expect(prof.code).toBe(0);
      expect(prof.stderr).toMatch(new RegExp(`Warning: .*${label}\\.jsonl: 1 row\\(s\\) where ${warning.source}`));
    });
  }

  test("an Infinity reward is kept as NeMo Gym keeps it: mean and max are not finite (null), min is the finite one", async () => {
    const file = withReward("inf-values.jsonl", "Infinity");
    expect((await gym(["eval", "aggregate", "--input", file, "-o", at("inf_values", "m.jsonl")])).code).toBe(0);
    const [entry] = JSON.parse(fs.readFileSync(at("inf_values", "m_aggregate_metrics.json"), "utf8")) as { agent_metrics: Record<string, unknown> }[];
    expect(entry!.agent_metrics["mean/reward"]).toBeNull();
    expect(entry!.agent_metrics["max/reward"]).toBeNull();
    expect(typeof entry!.agent_metrics["min/reward"]).toBe("number");
  });
});

describe("gym dataset collate reads blank lines as NeMo Gym does", () => {
  test("blank lines in the middle and at the end are skipped: every row is collated and counted", async () => {
    const rows = base.dataset.trim().split("\n");
    fs.mkdirSync(at("col"));
    fs.writeFileSync(at("col", "d.jsonl"), `${rows[0]}\n\n${rows.slice(1).join("\n")}\n   \n\n`);
    fs.writeFileSync(
      at("col", "c.yaml"),
      "mcqa:\n  resources_servers:\n    mcqa: {entrypoint: app.py, domain: knowledge}\nmcqa_simple_agent:\n  responses_api_agents:\n    simple_agent:\n      entrypoint: app.py\n      resources_server: {type: resources_servers, name: mcqa}\n      model_server: {type: responses_api_models, name: policy_model}\n      datasets:\n      - {name: example, type: example, jsonl_fpath: d.jsonl}\n",
    );
    const result = await gym(["dataset", "collate", "--config", "c.yaml", "--mode", "example_validation", "--output-dir", "out"], { cwd: at("col") });
    expect(result.stderr).not.toContain("Error");
    expect(result.code).toBe(0);
    expect(fs.readFileSync(at("col", "out", "example.jsonl"), "utf8").trim().split("\n")).toHaveLength(rows.length);
    expect(JSON.parse(fs.readFileSync(at("col", "out", "example_metrics.json"), "utf8"))["Number of examples"]).toBe(rows.length);
  });
});
