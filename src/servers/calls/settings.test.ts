// A model server's call settings from the run's config: defaults, the ceiling, --no-adaptive, and bad values.
import { describe, expect, test } from "bun:test";
import { DEFAULT_MAX_MODEL_RETRIES, DEFAULT_MAX_MODEL_RETRY_SECONDS } from "./retry.ts";
import { modelCallSettings } from "./settings.ts";

describe("modelCallSettings", () => {
  test("defaults: 8 retries, 600 s of waiting, adaptive up to 256 (or the run's --concurrency, or the server's own cap)", () => {
    expect(modelCallSettings({}, undefined, true)).toEqual({ maxRetries: DEFAULT_MAX_MODEL_RETRIES, maxRetrySeconds: DEFAULT_MAX_MODEL_RETRY_SECONDS, adaptive: { ceiling: 256 } });
    expect([DEFAULT_MAX_MODEL_RETRIES, DEFAULT_MAX_MODEL_RETRY_SECONDS]).toEqual([8, 600]);
    expect(modelCallSettings({ num_samples_in_parallel: 64 }, 16, true).adaptive).toEqual({ ceiling: 16 });
    expect(modelCallSettings({ num_samples_in_parallel: 64, max_resident_rollout_tasks: 32 }, null, true).adaptive).toEqual({ ceiling: 32 });
  });

  test("adaptive_concurrency (--no-adaptive) wins over the server's default, either way; the +keys are read as typed", () => {
    expect(modelCallSettings({ adaptive_concurrency: false }, undefined, true).adaptive).toBe(false);
    expect(modelCallSettings({ adaptive_concurrency: "true" }, undefined, false).adaptive).toEqual({ ceiling: 256 });
    expect(modelCallSettings({}, undefined, false).adaptive).toBe(false);
    expect(modelCallSettings({ max_model_retries: "3", max_model_retry_seconds: 2.5 }, undefined, true)).toMatchObject({ maxRetries: 3, maxRetrySeconds: 2.5 });
  });

  test("a bad value is a clear config error naming the key and an example", () => {
    expect(() => modelCallSettings({ max_model_retries: 1.5 }, undefined, true)).toThrow("max_model_retries must be a whole number ≥ 0, got 1.5.");
    expect(() => modelCallSettings({ max_model_retry_seconds: "soon" }, undefined, true)).toThrow('max_model_retry_seconds must be a number ≥ 0, got "soon".');
    expect(() => modelCallSettings({ adaptive_concurrency: "maybe" }, undefined, true)).toThrow('adaptive_concurrency must be true or false, got "maybe".');
  });
});
