/** The seed's examples that broke or misled a new user (issue 25), each run on the compiled binary as the documents write it. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym, gymBinary, repoRoot, run } from "../binary.ts";

let dir: string;
const at = (...parts: string[]) => join(dir, ...parts);
const write = (name: string, text: string) => (fs.mkdirSync(join(at(name), ".."), { recursive: true }), fs.writeFileSync(at(name), text));

beforeAll(() => {
  dir = fs.mkdtempSync(join(tmpdir(), "gym-seed-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("gym env test --all", () => {
  test("skips files beside the servers (LICENSE), and the tests it runs start gym as gym, not as Bun (no BUN_BE_BUN leak)", async () => {
    write("et/resources_servers/LICENSE", "Apache License 2.0\n");
    write("et/resources_servers/README.md", "servers\n");
    write(
      "et/resources_servers/probe/probe.test.ts",
      `import { expect, test } from "bun:test";
test("a test that starts gym", async () => {
  expect(process.env.BUN_BE_BUN).toBeUndefined();
  const proc = Bun.spawn([${JSON.stringify(gymBinary)}, "--version"], { stdout: "pipe" });
  expect(await new Response(proc.stdout).text()).toStartWith("gym ");
});
`,
    );
    // The checkout's Bun (node_modules/.bin) is on PATH, as in a clone after npm install.
    const result = await run([gymBinary, "env", "test", "--all", "--search-dir", at("et")], { cwd: at("et"), env: { PATH: `${join(repoRoot, "node_modules", ".bin")}:${process.env.PATH}` } });
    const shown = `${result.stdout}\n${result.stderr}`;
    expect(shown).not.toContain("ENOTDIR");
    expect(shown).toContain("1 pass");
    expect(result.code).toBe(0);
  });
});

describe("gym env init --reuse-verifier writes a scaffold that gym env validate accepts", () => {
  const init = (cwd: string, ...args: string[]) => run([gymBinary, "env", "init", ...args], { cwd });
  const validate = (cwd: string, name: string) => run([gymBinary, "env", "validate", name], { cwd });

  test("a benchmark over the built-in mcqa: one dataset-bearing agent (mcqa's own is inherited), valid once prepared", async () => {
    fs.mkdirSync(at("reuse-mcqa"));
    const cwd = at("reuse-mcqa");
    const made = await init(cwd, "--benchmark", "my_benchmark", "--reuse-verifier", "mcqa", "--reward-range", "0", "1", "--higher-is-better");
    expect(made.code).toBe(0);
    expect(made.stderr).toContain("gym eval prepare --benchmark my_benchmark");
    expect((await run([gymBinary, "eval", "prepare", "--benchmark", "my_benchmark", "--search-dir", "."], { cwd })).code).toBe(0);
    const checked = await validate(cwd, "my_benchmark");
    expect(checked.stderr + checked.stdout).toContain("is valid");
    expect(checked.code).toBe(0);
    expect(checked.stdout + checked.stderr).toContain("my_benchmark_resources_server (resources_servers/mcqa)");
  });

  test("an environment and a benchmark over a local server (gym env init --resources-server): its instance names resolve", async () => {
    fs.mkdirSync(at("reuse-local"));
    const cwd = at("reuse-local");
    expect((await init(cwd, "--resources-server", "my_server")).code).toBe(0);
    expect((await init(cwd, "--environment", "my_env", "--reuse-verifier", "my_server", "--reward-range", "0", "1", "--higher-is-better")).code).toBe(0);
    const env = await validate(cwd, "my_env");
    expect(env.stderr).not.toContain("Error");
    expect(env.code).toBe(0);
    expect((await init(cwd, "--benchmark", "my_bench", "--reuse-verifier", "my_server", "--reward-range", "0", "1", "--lower-is-better")).code).toBe(0);
    // Before the prepare step, the missing data file names the step that writes it.
    const early = await validate(cwd, "my_bench");
    expect(early.code).toBe(1);
    expect(early.stderr).toContain("gym eval prepare --benchmark my_bench");
    expect((await run([gymBinary, "eval", "prepare", "--benchmark", "my_bench", "--search-dir", "."], { cwd })).code).toBe(0);
    const bench = await validate(cwd, "my_bench");
    expect(bench.stderr).not.toContain("Error");
    expect(bench.code).toBe(0);
  });
});

describe("gym env resolve with a server field its server refuses", () => {
  test("prints the config and warns with the field to fix (env validate refuses the same field)", async () => {
    write("badfield/c.yaml", "my_server:\n  resources_servers:\n    mcqa:\n      entrypoint: app.py\n      domain: knowledge\n      grading_mode: not_a_mode\n");
    const resolved = await gym(["env", "resolve", "--config", at("badfield", "c.yaml"), "++policy_base_url=http://127.0.0.1:9/v1", "++policy_api_key=x", "++policy_model_name=m"]);
    expect(resolved.code).toBe(0);
    expect(resolved.stdout).toContain("grading_mode: not_a_mode");
    expect(resolved.stderr).toMatch(/Warning: Invalid config for resources server 'my_server' at my_server\.resources_servers\.mcqa\.grading_mode/);
    const validated = await gym(["env", "validate", "--config", at("badfield", "c.yaml")]);
    expect(validated.code).toBe(1);
    expect(validated.stderr).toContain("grading_mode");
  });
});

describe("a NeMo Gym name this build does not ship", () => {
  test("a benchmark, an environment and a sandbox provider are named as NeMo Gym's, with the release that has them", async () => {
    const bench = await gym(["eval", "run", "--benchmark", "swebench/verified/opencode", "-o", at("nope", "r.jsonl")]);
    expect(bench.code).toBe(2);
    expect(bench.stderr).toContain("'swebench/verified/opencode' is NeMo Gym's benchmark, not part of this build (NeMo Gym has it since its last release: main at");
    expect(bench.stderr).not.toContain("does not exist");
    const env = await gym(["env", "validate", "--environment", "calendar"]);
    expect(env.stderr).toContain("'calendar' is NeMo Gym's environment, not part of this build (NeMo Gym v0.4.0 and later have it)");
    const sandbox = await gym(["dataset", "validate", at("nope"), "--sandbox", "opensandbox"]);
    expect(sandbox.stderr).toContain("--sandbox opensandbox: 'opensandbox' is NeMo Gym's sandbox provider, not part of this build");
    // A name NeMo Gym does not have either still "does not exist".
    const unknown = await gym(["env", "validate", "--benchmark", "no_such_benchmark"]);
    expect(unknown.stderr).toContain("does not exist");
    expect(fs.existsSync(at("nope"))).toBe(false);
  });
});

describe("unreachable hosts are named with their own settings", () => {
  const gitlab = { GITLAB_URL: "http://127.0.0.1:9", GITLAB_PROJECT_ID: "1", GITLAB_TOKEN: "x" };

  test("a Harbor pull names HARBOR_REGISTRY_URL, not the Hugging Face settings", async () => {
    const result = await gym(["dataset", "pull", "harbor:hello-world@1.0"], { cwd: dir, env: { HARBOR_REGISTRY_URL: "http://127.0.0.1:9/registry.json", GYM_CACHE_DIR: at("harbor-cache") } });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("HARBOR_REGISTRY_URL (now http://127.0.0.1:9/registry.json)");
    expect(result.stderr).not.toContain("HF_ENDPOINT");
    expect(result.stderr).not.toContain("env prefetch");
  });

  test("GitLab upload and download say GitLab is unreachable and name GITLAB_URL", async () => {
    write("gl/d.jsonl", '{"a": 1}\n');
    const up = await gym(["dataset", "upload", "--storage", "gitlab", "--input", at("gl", "d.jsonl"), "--name", "d", "--revision", "1"], { env: gitlab });
    expect(up.code).not.toBe(0);
    expect(up.stderr).toContain("GitLab at http://127.0.0.1:9 is unreachable");
    expect(up.stderr).not.toContain("permissions");
    const down = await gym(["dataset", "download", "--storage", "gitlab", "--name", "d", "--revision", "1", "--artifact", "d.jsonl", "-o", at("gl", "out.jsonl")], { env: gitlab });
    expect(down.code).not.toBe(0);
    expect(down.stderr).toContain("Check GITLAB_URL (now http://127.0.0.1:9)");
    expect(down.stderr).not.toContain("HF_ENDPOINT");
  });
});

describe("the submit and suite YAML formats, discoverable from the binary", () => {
  test("gym eval submit --example prints an annotated config that --dry-run accepts; --help describes its sections", async () => {
    const example = await gym(["eval", "submit", "--example"]);
    expect(example.code).toBe(0);
    expect(example.stdout).toContain("# ");
    write("submit/submit.yaml", example.stdout);
    const dry = await gym(["eval", "submit", "--config", at("submit", "submit.yaml"), "--dry-run"], { env: { HF_TOKEN: "x" } });
    expect(dry.stderr).not.toContain("Error");
    expect(dry.code).toBe(0);
    const help = await gym(["eval", "submit", "--help"]);
    expect(help.stdout).toContain("--example");
    expect(help.stdout).toContain("compute.cluster");
  });

  test("gym eval compare-suite --example prints an annotated suite that compare-suite reads; --help shows its layout", async () => {
    const example = await gym(["eval", "compare-suite", "--example"]);
    expect(example.code).toBe(0);
    write("suite/suite.yaml", example.stdout);
    const runs = ["runs/base/mcqa/rollouts.jsonl", "runs/cand/mcqa/rollouts.jsonl", "runs/base/math/r1.jsonl", "runs/base/math/r2.jsonl", "runs/cand/math/rollouts.jsonl"];
    const metrics = JSON.stringify([{ agent_ref: { name: "a" }, agent_metrics: { "mean/reward": 0.5, "pass@1/accuracy": 50, "mean/error_rate": 0.1 }, key_metrics: {}, group_level_metrics: [] }]);
    for (const r of runs) {
      write(`suite/${r}`, "");
      write(`suite/${r.replace(/\.jsonl$/, "_aggregate_metrics.json")}`, metrics);
    }
    const compared = await gym(["eval", "compare-suite", "--suite", at("suite", "suite.yaml"), "--json"]);
    expect(compared.stderr).not.toContain("Error");
    expect(compared.code).toBe(0);
    expect(JSON.parse(compared.stdout).cells).toHaveLength(2);
    const help = await gym(["eval", "compare-suite", "--help"]);
    expect(help.stdout).toContain("The suite YAML:");
    expect(help.stdout).toContain("--example");
  });
});
