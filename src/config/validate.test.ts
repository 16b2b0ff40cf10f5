import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { validateConfig } from "./validate.ts";

const FIX = join(import.meta.dirname, "../../fixtures/config");
const ROOT = join(FIX, "root");
const MCQA = "resources_servers/mcqa/configs/mcqa.yaml";
const MODEL = "responses_api_models/openai_model/configs/openai_model.yaml";
const base = { cwd: FIX, env: {}, searchDirs: [ROOT] };

describe("validateConfig", () => {
  const files = readdirSync(join(FIX, "nemo-gym")).filter((f) => f.endsWith(".yaml"));

  test("the fixture set holds every NeMo Gym reference config", () => {
    expect(files.length).toBe(11);
  });

  for (const file of files) {
    test(`accepts NeMo Gym's ${file}`, async () => {
      const { report, error } = await validateConfig({ ...base, configPaths: [`nemo-gym/${file}`] });
      expect(error).toBeUndefined();
      expect(report.valid).toBe(true);
      expect(report.server_instances.length).toBeGreaterThanOrEqual(3);
      expect(report.server_instances.some((i) => i.server_type === "resources_servers")).toBe(true);
    });
  }

  test("undefined values are filled with placeholders and reported in ONE warning", async () => {
    const { report } = await validateConfig({ ...base, configPaths: [MCQA, MODEL] });
    expect(report.valid).toBe(true);
    expect(report.placeholders).toEqual(["policy_base_url", "policy_api_key", "policy_model_name"]);
    const listing = report.warnings.filter((w) => w.includes("placeholders"));
    expect(listing).toHaveLength(1);
    expect(listing[0]).toContain("policy_base_url, policy_api_key, policy_model_name");
  });

  test("--strict fails on them; with them set it passes", async () => {
    const strict = await validateConfig({ ...base, configPaths: [MCQA, MODEL], strict: true });
    expect(strict.report.valid).toBe(false);
    expect(strict.error?.message).toContain("policy_base_url, policy_api_key, policy_model_name");
    const set = await validateConfig({
      ...base,
      configPaths: [MCQA, MODEL],
      strict: true,
      flagValues: { policy_model_name: "m", policy_base_url: "http://127.0.0.1:1/v1", policy_api_key: "k" },
    });
    expect(set.error).toBeUndefined();
  });

  test("--strict does not stand in a model for policy_model", async () => {
    const { error } = await validateConfig({ ...base, configPaths: [MCQA], strict: true });
    expect(error?.message).toContain("references responses_api_models/'policy_model'");
  });

  test("broken configs come back invalid with the error", async () => {
    const { report, error } = await validateConfig({ ...base, configPaths: ["broken/almost-server.yaml"] });
    expect(report.valid).toBe(false);
    expect(error?.exitCode).toBe(1);
    expect(report.error?.message).toContain("almost-server");
  });
});
