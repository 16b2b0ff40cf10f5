import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { GymError } from "../errors.ts";
import { noModelSeed } from "./_steps.ts";
import { loadConfigPaths } from "./load.ts";
import { resolveConfig, type ResolveConfigOptions } from "./resolve.ts";
import { toYaml } from "./yaml.ts";

const FIX = join(import.meta.dirname, "../../fixtures/config");
const ROOT = join(FIX, "root");
const POLICY = ["++policy_base_url=http://127.0.0.1:1/v1", "++policy_api_key=sk-secret", "++policy_model_name=m"];
const MCQA = "resources_servers/mcqa/configs/mcqa.yaml";
const MODEL = "responses_api_models/openai_model/configs/openai_model.yaml";

/** Runs the parse with a clean environment and no env.yaml unless the test asks for one. */
const run = (options: ResolveConfigOptions) => resolveConfig({ cwd: FIX, env: {}, ...options });

async function failure(options: ResolveConfigOptions): Promise<GymError> {
  try {
    await run(options);
  } catch (error) {
    if (error instanceof GymError) return error;
    throw error;
  }
  throw new Error("expected the parse to fail");
}

describe("config_paths chaining (spec §1.8)", () => {
  test("CLI [A, B], A includes [C], B includes [C, D]: load order A B C D, merge order C A D B", async () => {
    const loaded = await loadConfigPaths(["chain/A.yaml", "chain/B.yaml"], [{ kind: "dir", path: FIX }]);
    expect(loaded.configPaths).toEqual(["chain/A.yaml", "chain/B.yaml", "chain/C.yaml", "chain/D.yaml"]);
    expect(loaded.files.map((f) => f.entry)).toEqual(["chain/C.yaml", "chain/A.yaml", "chain/D.yaml", "chain/B.yaml"]);
    expect(loaded.duplicates).toEqual(["chain/C.yaml"]);

    const config = await run({ configPaths: ["chain/A.yaml", "chain/B.yaml"] });
    expect(config.tree.config_paths).toEqual(["chain/A.yaml", "chain/B.yaml", "chain/C.yaml", "chain/D.yaml"]);
    expect(config.tree.shared).toBe("B");
    expect(config.tree.only_c).toBe("D");
    // Keys appear in merge order: C's first, then A's, D's, B's.
    expect(Object.keys(config.tree).slice(0, 7)).toEqual(["shared", "from_c", "only_c", "config_paths", "order", "from_a", "from_d"]);
    expect(config.warnings.join("\n")).toContain("- chain/C.yaml");
    expect(config.files.map((f) => f.slice(FIX.length + 1))).toEqual(["chain/C.yaml", "chain/A.yaml", "chain/D.yaml", "chain/B.yaml"]);
  });

  test("a missing file lists every place searched", async () => {
    const error = await failure({ configPaths: ["resources_servers/nope/configs/nope.yaml"], searchDirs: [ROOT] });
    expect(error.code).toBe("E_CONFIG_MISSING_FILE");
    expect(error.message).toContain("config_paths entry 'resources_servers/nope/configs/nope.yaml' was not found. Looked in:");
    expect(error.message).toContain(`  - ${join(ROOT, "resources_servers/nope/configs/nope.yaml")}`);
    expect(error.message).toContain(`  - ${join(FIX, "resources_servers/nope/configs/nope.yaml")}`);
    expect(error.message).toContain("  - <built-in>/resources_servers/nope/configs/nope.yaml");
    expect(error.hint).toContain("--search-dir");
  });

  test("config_paths must be a list of strings", async () => {
    const error = await failure({ overrides: ["+config_paths=chain/A.yaml"] });
    expect(error.message).toContain("must be a list of paths");
    expect(error.hint).toContain("--config");
  });
});

describe("env.yaml and precedence (CLI > env.yaml > config files)", () => {
  const withEnv = (options: ResolveConfigOptions) => resolveConfig({ cwd: join(FIX, "env-root"), searchDirs: [FIX, ROOT], env: {}, ...options });

  test("env.yaml from the first root that has one sits above files and below the CLI", async () => {
    const fromEnv = await withEnv({ configPaths: ["chain/A.yaml"] });
    expect(fromEnv.tree.shared).toBe("from-env");
    expect(fromEnv.files.at(-1)).toBe(join(FIX, "env-root/env.yaml"));
    const fromCli = await withEnv({ configPaths: ["chain/A.yaml"], overrides: ["++shared=cli"] });
    expect(fromCli.tree.shared).toBe("cli");
  });

  test("config_paths can interpolate a list from env.yaml; oc.env defaults and values", async () => {
    const config = await withEnv({ overrides: ["+config_paths=${my_paths}"], seed: noModelSeed(false) });
    expect(config.tree.config_paths).toEqual([MCQA]);
    expect(config.serverInstances.map((i) => i.name)).toEqual(["mcqa", "mcqa_simple_agent", "policy_model"]);
    expect(config.resolve()).toMatchObject({ policy_base_url: "http://127.0.0.1:8000/v1", policy_api_key: "sk-from-env-default", policy_model_name: "env-model" });
    const withVar = await resolveConfig({ cwd: join(FIX, "env-root"), searchDirs: [ROOT], env: { GYM_TEST_API_KEY: "from-shell" }, configPaths: [MCQA, MODEL] });
    expect(withVar.serverInstances[2]!.config).toMatchObject({ openai_base_url: "http://127.0.0.1:8000/v1", openai_api_key: "from-shell", openai_model: "env-model" });
  });

  test("a config given on the command line replaces env.yaml's config_paths (lists replace)", async () => {
    const config = await withEnv({ configPaths: ["chain/C.yaml"] });
    expect(config.tree.config_paths).toEqual(["chain/C.yaml"]);
  });
});

describe("the parse end to end", () => {
  test("mcqa + openai_model: server instances, offline ports, reserved defaults, resolved blocks", async () => {
    const config = await run({ configPaths: [MCQA, MODEL], searchDirs: [ROOT], overrides: POLICY });
    expect(config.serverInstances.map(({ name, serverType, implementation }) => ({ name, serverType, implementation }))).toEqual([
      { name: "mcqa", serverType: "resources_servers", implementation: "mcqa" },
      { name: "mcqa_simple_agent", serverType: "responses_api_agents", implementation: "simple_agent" },
      { name: "policy_model", serverType: "responses_api_models", implementation: "openai_model" },
    ]);
    const model = config.serverInstances[2]!;
    expect(model.block).toMatchObject({ openai_base_url: "${policy_base_url}", host: "127.0.0.1", port: -1 });
    expect(model.config).toMatchObject({ openai_base_url: "http://127.0.0.1:1/v1", openai_model: "m", drop_input_reasoning_items: "False" });
    expect(config.tree).toMatchObject({
      use_absolute_ip: false, port_range_low: 10001, port_range_high: 20000, head_server: { host: "127.0.0.1", port: 11000 },
      disallowed_ports: [11000], allow_openai_version_skew: false, skip_venv_if_present: false, dry_run: false,
      model_endpoint_readiness_timeout_seconds: 600, results_dir: join(FIX, "results"), cache_dir: join(FIX, "cache"),
      uv_cache_dir: join(FIX, "cache/uv"), uv_venv_dir: FIX,
    });
    expect(config.tree.config_paths).toEqual([MCQA, MODEL]);
    // Deterministic: the same inputs print the same YAML.
    const again = await run({ configPaths: [MCQA, MODEL], searchDirs: [ROOT], overrides: POLICY });
    expect(toYaml(again.resolve({ masked: true }))).toBe(toYaml(config.resolve({ masked: true })));
    expect(toYaml(config.resolve({ masked: true }))).not.toContain("sk-secret");
  });

  test("run mode assigns free ports avoiding the head port and declared ports; default_host and skip_verification", async () => {
    const picked: number[][] = [];
    const config = await run({
      configPaths: [MCQA, "responses_api_models/openai_model/configs/openai_model_fast.yaml"],
      searchDirs: [ROOT],
      overrides: [...POLICY, "+default_host=0.0.0.0", "+skip_verification=true"],
      mode: "run",
      findPort: async (low, high, disallowed) => {
        picked.push([...disallowed]);
        return low + picked.length;
      },
    });
    expect(picked).toEqual([[11000], [11000, 10002]]);
    expect(config.tree.disallowed_ports).toEqual([11000, 10002, 10003, 12345]);
    expect(config.serverInstances.map((i) => [i.block.host, i.block.port])).toEqual([["0.0.0.0", 10002], ["0.0.0.0", 10003], ["0.0.0.0", 12345]]);
    expect(config.serverInstances[1]!.block.skip_verification).toBe(true);
    expect(config.serverInstances[0]!.block.skip_verification).toBeUndefined();
  });

  test("plain key=value replaces an existing key; ~key deletes; a later ??? in a file does not wipe", async () => {
    const config = await run({
      configPaths: [MCQA, MODEL],
      searchDirs: [ROOT],
      overrides: [...POLICY, "mcqa.resources_servers.mcqa.grading_mode=strict", "~mcqa_simple_agent.responses_api_agents.simple_agent.datasets"],
    });
    expect(config.serverInstances[0]!.block.grading_mode).toBe("strict");
    expect(config.serverInstances[1]!.block.datasets).toBeUndefined();
    const error = await failure({ configPaths: [MCQA, MODEL], searchDirs: [ROOT], overrides: [...POLICY, "mcqa.resources_servers.mcqa.grading_mod=x"] });
    expect(error.message).toContain("Could not override 'mcqa.resources_servers.mcqa.grading_mod'");
    expect(error.hint).toContain("did you mean 'mcqa.resources_servers.mcqa.grading_mode'");
  });

  test("??? values are collected and reported together, with their file", async () => {
    const error = await failure({ configPaths: ["broken/mandatory.yaml"] });
    expect(error.code).toBe("E_CONFIG_MANDATORY");
    expect(error.message).toBe(
      [
        "2 required config value(s) are unset (still '???') after merging:",
        `  - agent.responses_api_agents.simple_agent.resources_server.name (from ${join(FIX, "broken/mandatory.yaml")})`,
        `  - agent.responses_api_agents.simple_agent.tags[1] (from ${join(FIX, "broken/mandatory.yaml")})`,
      ].join("\n"),
    );
    expect(error.hint).toContain("++agent.responses_api_agents.simple_agent.resources_server.name=<value>");
  });

  test("a ??? filled on the command line passes (simple_agent harness + mcqa)", async () => {
    const config = await run({
      configPaths: [MCQA, MODEL, "responses_api_agents/simple_agent/configs/simple_agent.yaml"],
      searchDirs: [ROOT],
      overrides: [...POLICY, "++simple_agent.responses_api_agents.simple_agent.resources_server.name=mcqa"],
    });
    expect(config.serverInstances.map((i) => i.name)).toContain("simple_agent");
  });

  test("benchmark isolation: _inherit_from consumes the generic instances", async () => {
    const config = await run({ configPaths: ["benchmarks/aime24/config.yaml", MODEL], searchDirs: [ROOT], overrides: POLICY });
    expect(config.serverInstances.map((i) => i.name)).toEqual(["aime24_math_with_judge_resources_server", "aime24_math_with_judge_simple_agent", "policy_model"]);
    const agent = config.serverInstances[1]!.config;
    expect(agent.resources_server).toEqual({ type: "resources_servers", name: "aime24_math_with_judge_resources_server" });
    expect((agent.datasets as unknown[]).length).toBe(1);
  });

  test("references: a wrong name gets a did-you-mean; a missing model lists what exists", async () => {
    const typo = await failure({ configPaths: [MCQA, MODEL], searchDirs: [ROOT], overrides: [...POLICY, "++mcqa_simple_agent.responses_api_agents.simple_agent.resources_server.name=mcqaa"] });
    expect(typo.message).toContain("In server instance 'mcqa_simple_agent'");
    expect(typo.message).toContain("field 'resources_server' references resources_servers/'mcqaa', which is not defined in the merged config.\nDid you mean: 'mcqa'?");
    const none = await failure({ configPaths: [MCQA], searchDirs: [ROOT] });
    expect(none.message).toContain("references responses_api_models/'policy_model'");
    expect(none.message).toContain("Available responses_api_models: (none)");
  });

  test("dummy-model folding: the no-model seed merges under the real implementation", async () => {
    const config = await run({ configPaths: [MODEL], searchDirs: [ROOT], seed: noModelSeed() });
    const models = (config.tree.policy_model as { responses_api_models: Record<string, unknown> }).responses_api_models;
    expect(Object.keys(models)).toEqual(["openai_model"]);
    expect(config.serverInstances[0]!.config.openai_base_url).toBe("");
  });

  test("almost-servers abort, or are skipped with a warning when error_on_almost_servers=false", async () => {
    const error = await failure({ configPaths: ["broken/almost-server.yaml"] });
    expect(error.message).toContain("Found 1 almost-server(s) with validation errors.");
    expect(error.message).toContain("  - bad_agent -> responses_api_agents -> simple_agent -> datasets -> 0 -> license: Must be one of: 'Apache 2.0', 'MIT'");
    expect(error.hint).toContain("error_on_almost_servers=false");
    const skipped = await run({ configPaths: ["broken/almost-server.yaml"], overrides: ["+error_on_almost_servers=false"] });
    expect(skipped.serverInstances).toEqual([]);
    expect(skipped.almostServers.map((a) => a.name)).toEqual(["bad_agent"]);
    expect(skipped.warnings.join("\n")).toContain("Almost-server 'bad_agent'");
  });
});

describe("errors name the file, the key path and the fix", () => {
  test("YAML syntax error with line and column", async () => {
    const error = await failure({ configPaths: ["broken/syntax.yaml"] });
    expect(error.code).toBe("E_CONFIG_SYNTAX");
    expect(error.message).toMatch(new RegExp(`^Malformed YAML in '${join(FIX, "broken/syntax.yaml")}' at line \\d+, column \\d+: `));
  });

  test("unknown _inherit_from target", async () => {
    const error = await failure({ configPaths: ["broken/unknown-inherit.yaml"] });
    expect(error.code).toBe("E_CONFIG_INHERIT");
    expect(error.message).toBe(`'bench_server' (from ${join(FIX, "broken/unknown-inherit.yaml")}) inherits or copies 'base_servr', which does not exist in the merged config (path ["base_servr"]). Did you mean 'base_server'?`);
  });

  test("undefined ${x} in a server block", async () => {
    const error = await failure({ configPaths: ["broken/undefined-interp.yaml"] });
    expect(error.code).toBe("E_CONFIG_INTERPOLATION");
    expect(error.message).toBe(`Config value 'my_server.resources_servers.mcqa.judge_url' (from ${join(FIX, "broken/undefined-interp.yaml")}) references 'x', which is not set after merging.`);
    expect(error.hint).toContain("++x=<value>");
  });

  test("several undefined values are listed in one error", async () => {
    const error = await failure({ configPaths: [MCQA, MODEL], searchDirs: [ROOT] });
    expect(error.message).toContain("3 config value(s) reference something that is not set after merging:");
    expect(error.message).toContain("policy_model.responses_api_models.openai_model.openai_api_key");
    expect(error.hint).toContain("++policy_base_url=<value>");
  });

  test("placeholders mode fills undefined values instead", async () => {
    const config = await run({ configPaths: [MCQA, MODEL], searchDirs: [ROOT], placeholders: true, overrides: ["++policy_model_name=m"] });
    expect(config.placeholders.map((p) => p.name)).toEqual(["policy_base_url", "policy_api_key"]);
    expect(config.serverInstances[2]!.config.openai_base_url).toBe("__unset_for_validate__");
  });
});
