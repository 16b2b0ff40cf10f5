import { describe, expect, test } from "bun:test";
import { changedSettings, configDigest, runSettings } from "./settings.ts";
import { concurrencyOf, runKeys } from "./setup.ts";

describe("run settings: semantic vs operational", () => {
  const servers = (temperature: number, port: number, key: string) => ({
    policy_model: { openai_base_url: "http://a/v1", openai_api_key: key, port, host: "127.0.0.1", extra_body: { temperature } },
    mcqa: { grading_mode: "strict", default_headers: { Authorization: "Bearer x", "X-Team": "a" } },
  });

  test("endpoints, keys and concurrency are operational; sampling and grading are semantic; ports are neither", () => {
    const a = runSettings({ num_samples_in_parallel: 8, limit: 10 }, servers(0.5, 1, "k1"));
    const b = runSettings({ num_samples_in_parallel: 64, limit: 10 }, servers(0.5, 2, "k2"));
    expect(changedSettings(a.semantic, b.semantic)).toEqual([]);
    expect(changedSettings(a.operational, b.operational)).toEqual(["num_samples_in_parallel", "policy_model.openai_api_key"]);
    expect(configDigest(a)).toBe(configDigest(b));
    const c = runSettings({ num_samples_in_parallel: 8, limit: 20 }, servers(0.7, 1, "k1"));
    expect(changedSettings(a.semantic, c.semantic)).toEqual(["limit", "policy_model.extra_body.temperature"]);
  });

  test("auth headers are operational, other headers semantic", () => {
    const a = runSettings({}, { m: { default_headers: { Authorization: "Bearer 1", "X-Team": "a" } } });
    const b = runSettings({}, { m: { default_headers: { Authorization: "Bearer 2", "X-Team": "b" } } });
    expect(changedSettings(a.semantic, b.semantic)).toEqual(["m.default_headers.X-Team"]);
    expect(changedSettings(a.operational, b.operational)).toEqual(["m.default_headers.Authorization"]);
  });

  test("digests only: no value is stored", () => {
    const s = runSettings({ limit: 10 }, { m: { openai_api_key: "sk-secret-value" } });
    expect(JSON.stringify(s)).not.toContain("sk-secret-value");
  });
});

describe("run keys", () => {
  test("concurrency: the smaller of the two bounds, 256 by default", () => {
    expect(concurrencyOf({})).toBe(256);
    expect(concurrencyOf({ num_samples_in_parallel: 32 })).toBe(32);
    expect(concurrencyOf({ num_samples_in_parallel: 32, max_resident_rollout_tasks: 8 })).toBe(8);
  });

  test("bad values are refused with the flag to fix", () => {
    expect(() => runKeys({ num_samples_in_parallel: 0 })).toThrow("--concurrency");
    expect(() => runKeys({ dispatch_budget_s: 60 })).toThrow("dispatch_budget_s needs a concurrency bound");
    expect(runKeys({ limit: 5, unrelated: 1, agent_name: null })).toEqual({ limit: 5 });
  });
});
