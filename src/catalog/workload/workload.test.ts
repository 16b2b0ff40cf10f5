import { describe, expect, test } from "bun:test";
import { inferProfile, mirrorDifferences, type Composition } from "./composition.ts";
import { parseFixture } from "./fixture.ts";

const composition: Composition = {
  resources_server: "my_eval",
  agent_server: "simple_agent",
  model_server: "policy_model",
  datasets: [{ name: "example", type: "example", jsonl_fpath: "environments/my_eval/data/example.jsonl" }],
  rollout_driver: null,
  grading_mode: null,
};

describe("manifest mirrors", () => {
  test("key order does not matter; a changed or missing field is reported with the config's value", () => {
    const manifest = { ...composition, datasets: [{ jsonl_fpath: "environments/my_eval/data/example.jsonl", type: "example", name: "example" }] };
    expect(mirrorDifferences(manifest, composition)).toEqual({});
    expect(mirrorDifferences({ ...manifest, agent_server: "gymnasium_agent", grading_mode: "strict" }, composition)).toEqual({ agent_server: "simple_agent", grading_mode: null });
  });

  test("the profile follows NeMo Gym's rule for what can be inferred", () => {
    expect(inferProfile(composition)[0]).toBe("custom-gym-verifier");
    expect(inferProfile({ ...composition, rollout_driver: "pkg.mod:run" })[0]).toBe("external-rollout-driver");
    expect(inferProfile({ ...composition, agent_server: "gymnasium_agent" })[0]).toBe("unknown");
  });
});

describe("verifier fixture cases", () => {
  const ok = '{"name":"a","kind":"full_reward","request":{},"expected_reward":1}';
  test("each kind needs its expectation; unknown keys and empty files are refused with file and line", () => {
    expect(parseFixture(`${ok}\n\n`, "f.jsonl")).toHaveLength(1);
    expect(() => parseFixture('{"name":"m","kind":"malformed","request":{},"expected_reward":0}', "f.jsonl")).toThrow("f.jsonl:1: a malformed case requires expected_error");
    expect(() => parseFixture(`${ok}\n{"name":"b","kind":"zero_reward","request":{},"expected_reward":0,"extra":1}`, "f.jsonl")).toThrow("f.jsonl:2: unknown key(s) extra");
    expect(() => parseFixture('{"name":"c","kind":"sometimes","request":{}}', "f.jsonl")).toThrow("'kind' must be one of");
    expect(() => parseFixture("\n", "f.jsonl")).toThrow("contains no cases");
  });
});
