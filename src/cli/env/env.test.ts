import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { parseYaml } from "../../config/yaml.ts";

const REPO = join(import.meta.dirname, "../../..");
const FIX = "fixtures/config";
const POLICY = ["++policy_api_key=sk-secret", "++policy_base_url=http://127.0.0.1:1/v1", "++policy_model_name=m"];

function gym(...args: string[]) {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" };
  delete env.NEMO_GYM_EXTRA_ROOTS;
  const result = spawnSync(process.execPath, ["src/main.ts", ...args], { cwd: REPO, env, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("gym env resolve", () => {
  test("prints the merged config as YAML with secrets masked", () => {
    const { code, stdout, stderr } = gym("env", "resolve", "--config", `${FIX}/nemo-gym/mcqa.yaml`, "--config", `${FIX}/upstream/openai_model.yaml`, ...POLICY);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).not.toContain("sk-secret");
    const tree = parseYaml(stdout, "stdout") as Record<string, any>;
    expect(tree.policy_api_key).toBe("****");
    expect(tree.policy_model.responses_api_models.openai_model).toMatchObject({ openai_api_key: "****", openai_base_url: "http://127.0.0.1:1/v1", openai_model: "m", port: -1 });
    expect(tree.config_paths).toEqual([`${FIX}/nemo-gym/mcqa.yaml`, `${FIX}/upstream/openai_model.yaml`]);
  });

  test("without a model config the agent's policy_model reference fails, and the secret is not printed", () => {
    const { code, stdout, stderr } = gym("env", "resolve", "--config", `${FIX}/nemo-gym/mcqa.yaml`, ...POLICY);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain("field 'model_server' references responses_api_models/'policy_model'");
    expect(stderr + stdout).not.toContain("sk-secret");
  });

  test("YAML syntax error: exit 1 naming the file and line", () => {
    const { code, stderr } = gym("env", "resolve", "--config", `${FIX}/broken/syntax.yaml`);
    expect(code).toBe(1);
    expect(stderr).toMatch(/Error: Malformed YAML in '.*fixtures\/config\/broken\/syntax\.yaml' at line \d+, column \d+/);
  });

  test("unknown _inherit_from target: exit 1 naming the file and key path", () => {
    const { code, stderr } = gym("env", "resolve", "--config", `${FIX}/broken/unknown-inherit.yaml`);
    expect(code).toBe(1);
    expect(stderr).toContain("'bench_server' (from ");
    expect(stderr).toContain("broken/unknown-inherit.yaml) inherits or copies 'base_servr'");
  });

  test("undefined ${x}: exit 1 naming the file and key path", () => {
    const { code, stderr } = gym("env", "resolve", "--config", `${FIX}/broken/undefined-interp.yaml`);
    expect(code).toBe(1);
    expect(stderr).toContain("Config value 'my_server.resources_servers.mcqa.judge_url' (from ");
    expect(stderr).toContain("references 'x', which is not set after merging.");
  });

  test("override errors exit 1; an unresolvable selector is a usage error (exit 2)", () => {
    expect(gym("env", "resolve", "+tags=a,b").code).toBe(1);
    const selector = gym("env", "resolve", "--search-dir", `${FIX}/root`, "--resources-server", "mcqaa");
    expect(selector.code).toBe(2);
    expect(selector.stderr).toContain("Did you mean `mcqa`?");
  });
});

describe("gym env validate", () => {
  for (const file of readdirSync(join(REPO, FIX, "nemo-gym")).filter((f) => f.endsWith(".yaml"))) {
    test(`accepts ${file} (exit 0)`, () => {
      const { code, stdout } = gym("env", "validate", "--config", `${FIX}/nemo-gym/${file}`);
      expect(code).toBe(0);
      expect(stdout).toStartWith("✓ Config is valid:");
    });
  }

  test("placeholders: one warning on stderr; --strict fails with exit 1", () => {
    const args = ["env", "validate", "--search-dir", `${FIX}/root`, "--resources-server", "mcqa", "--model-type", "openai_model"];
    const loose = gym(...args);
    expect(loose.code).toBe(0);
    expect(loose.stderr.split("\n").filter((l) => l.startsWith("Warning:") && l.includes("placeholders"))).toHaveLength(1);
    const strict = gym(...args, "--strict");
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain("--strict: 3 value(s) a run needs are not defined: policy_base_url, policy_api_key, policy_model_name");
    expect(gym(...args, "--strict", "-m", "m", "--model-url", "http://127.0.0.1:1/v1", "--model-api-key", "k").code).toBe(0);
  });

  test("--json prints one report document", () => {
    const ok = gym("env", "validate", "--json", "--config", `${FIX}/nemo-gym/mcqa.yaml`);
    expect(ok.code).toBe(0);
    const report = JSON.parse(ok.stdout);
    expect(report).toMatchObject({ valid: true, strict: false, placeholders: [] });
    expect(report.server_instances.map((i: { name: string }) => i.name)).toEqual(["mcqa", "mcqa_simple_agent", "policy_model"]);
    const bad = gym("env", "validate", "--json", "--config", `${FIX}/broken/mandatory.yaml`);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ valid: false, error: { code: "E_CONFIG_MANDATORY" } });
  });
});
