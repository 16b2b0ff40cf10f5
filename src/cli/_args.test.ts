import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { resolveConfig } from "../config/index.ts";
import { configOptions } from "./_args.ts";

const FIX = join(import.meta.dirname, "../../fixtures/config");
const ROOT = join(FIX, "root");

describe("configOptions", () => {
  test("--config values, then selectors, then typed +config_paths, folded into one list; model flags become policy_* values", async () => {
    const rawArgs = ["--config", "a.yaml", "--search-dir", ROOT, "--resources-server", "mcqa", "--config=b.yaml", "-m", "m", "--model-url", "http://u/v1"];
    const args = { "resources-server": "mcqa", model: "m", "model-url": "http://u/v1" };
    const options = await configOptions(args, rawArgs, ["+config_paths=[c.yaml,d.yaml]", "++x=1"], { cwd: FIX, env: {}, flagValues: { verbose: true } });
    expect(options.configPaths).toEqual(["a.yaml", "b.yaml", join(ROOT, "resources_servers/mcqa/configs/mcqa.yaml"), "c.yaml", "d.yaml"]);
    expect(options.overrides).toEqual(["++x=1"]);
    expect(options.searchDirs).toEqual([ROOT]);
    expect(options.flagValues).toEqual({ policy_model_name: "m", policy_base_url: "http://u/v1", verbose: true });
  });

  test("flag values act like +key=value: a later + on the same key conflicts, ++ replaces", async () => {
    const base = { cwd: FIX, env: {}, searchDirs: [ROOT], configPaths: ["resources_servers/mcqa/configs/mcqa.yaml"], flagValues: { policy_model_name: "from-flag" } };
    await expect(resolveConfig({ ...base, overrides: ["+policy_model_name=x"] })).rejects.toThrow(/already set it/);
    const config = await resolveConfig({ ...base, overrides: ["++policy_model_name=x", "+error_on_almost_servers=false"], seed: { policy_model: { responses_api_models: { dummy_model: { entrypoint: "app.py" } } } } });
    expect(config.tree.policy_model_name).toBe("x");
  });
});
