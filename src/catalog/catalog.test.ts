import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { rootViews } from "./components.ts";
import { fuzzyMatches } from "./fuzzy.ts";
import { renderTable } from "./table.ts";
import { inspectComponent, inspectionText, listComponents } from "./views.ts";

// A user root in NeMo Gym's folder layout, surfaced beside the built-ins (what --search-dir does).
let userRoot: string;
const files: Record<string, string> = {
  "resources_servers/my_verifier/configs/my_verifier.yaml": `my_verifier:
  resources_servers:
    my_verifier:
      entrypoint: app.py
      domain: math
      description: Checks arithmetic answers exactly
my_verifier_simple_agent:
  responses_api_agents:
    simple_agent:
      entrypoint: app.py
      resources_server: {type: resources_servers, name: my_verifier}
      model_server: {type: responses_api_models, name: policy_model}
      datasets:
      - {name: example, type: example, jsonl_fpath: resources_servers/my_verifier/data/example.jsonl}
`,
  "resources_servers/my_verifier/configs/judge_only.yaml": `judge_model:\n  responses_api_models:\n    openai_model: {entrypoint: app.py}\n`,
  // Shadows the built-in string_match config: the user root comes first.
  "resources_servers/string_match/configs/string_match.yaml": `string_match:\n  resources_servers:\n    string_match: {entrypoint: app.py, domain: knowledge, description: My own string_match}\n`,
  // A benchmark chained to the user's own server config: resolving it must search the user root too.
  "benchmarks/chained/config.yaml": `config_paths:\n  - resources_servers/my_verifier/configs/my_verifier.yaml\nchained_agent:
  _inherit_from: my_verifier_simple_agent
  responses_api_agents:
    simple_agent:
      datasets:
      - {name: chained, type: benchmark, jsonl_fpath: benchmarks/chained/data/c.jsonl, prepare_script: benchmarks/chained/prepare.ts}
`,
  "responses_api_models/my_model/configs/my_model.yaml": `policy_model:\n  responses_api_models:\n    my_model: {entrypoint: app.py}\n`,
  "responses_api_models/my_model/configs/fast.yaml": `policy_model:\n  responses_api_models:\n    my_model: {entrypoint: app.py}\n`,
  "responses_api_agents/framework_agent/configs/framework_agent.yaml": `framework_agent:\n  responses_api_agents:\n    framework_agent: {entrypoint: app.py, agent_framework: x, description: Brings its own loop}\n`,
  "benchmarks/my_bench/config.yaml": `my_bench_agent:
  responses_api_agents:
    simple_agent:
      entrypoint: app.py
      description: A user benchmark
      domain: math
      datasets:
      - {name: my_bench, type: benchmark, jsonl_fpath: benchmarks/my_bench/data/b.jsonl, prepare_script: benchmarks/my_bench/prepare.ts}
`,
  "benchmarks/my_bench/prompts/p.yaml": `user: "{question}"\n`,
  "environments/legacy_env/config.yaml": `legacy_env_agent:\n  responses_api_agents:\n    simple_agent: {entrypoint: app.py, domain: games, description: An old-style environment}\n`,
  "environments/bad_manifest/manifest.yaml": `name: bad_manifest\nkind: environment\n`,
  "environments/bad_manifest/config.yaml": `x_agent:\n  responses_api_agents:\n    simple_agent: {entrypoint: app.py}\n`,
};

beforeAll(() => {
  userRoot = realpathSync(mkdtempSync(join(tmpdir(), "catalog-")));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(userRoot, rel)), { recursive: true });
    writeFileSync(join(userRoot, rel), text);
  }
});

const views = () => rootViews({ searchDirs: [userRoot], cwd: userRoot, env: {} });

describe("listings", () => {
  test("resources servers: built-ins and the user's, user shadows built-in, judge-only configs skipped", async () => {
    const listing = await listComponents("resources-servers", views());
    const names = listing.json.map((s) => s.name);
    expect(names).toContain("my_verifier");
    expect(names).toContain("string_match");
    expect(names).not.toContain("my_verifier/judge_only");
    expect(listing.json.find((s) => s.name === "string_match")).toEqual({ name: "string_match", domain: "knowledge", description: "My own string_match" });
    expect(listing.title).toBe(`Available resources servers in NeMo Gym (${names.length})`);
  });

  test("models: dir, or dir/flavor when the stem differs", async () => {
    const listing = await listComponents("models", views());
    expect(listing.json).toContainEqual({ name: "my_model", model: "my_model", model_group: "my_model" });
    expect(listing.json).toContainEqual({ name: "my_model/fast", model: "my_model/fast", model_group: "my_model" });
  });

  test("agents: composable vs self-contained, variants", async () => {
    const listing = await listComponents("agents", views());
    expect(listing.json.find((a) => a.name === "framework_agent")).toEqual({ name: "framework_agent", pattern: "B (self-contained)", self_contained: true, variants: ["framework_agent"], description: "Brings its own loop" });
    expect(listing.json.find((a) => a.name === "simple_agent")).toMatchObject({ pattern: "A (composable)", self_contained: false });
  });

  test("catalog: manifests, legacy configs, benchmarks and workloads; invalid manifests skipped; paths absolute", async () => {
    const listing = await listComponents("environments", views());
    const byName = new Map(listing.json.map((e) => [e.name as string, e]));
    expect(byName.get("example_mcqa")).toMatchObject({ kind: "environment", status: "experimental", lifecycle: "active", version: "0.1.0" });
    expect(byName.get("legacy_env")).toMatchObject({
      kind: "environment",
      status: "no-manifest",
      domain: "games",
      path: join(userRoot, "environments/legacy_env"),
      config_path: join(userRoot, "environments/legacy_env/config.yaml"),
      manifest_path: null,
    });
    expect(byName.get("bad_manifest")).toMatchObject({ status: "no-manifest" });
    expect(byName.get("my_bench")).toMatchObject({ kind: "benchmark", domain: "math", description: "A user benchmark" });
    // Metadata of a chained benchmark comes from the resolved config (the user's server block).
    expect(byName.get("chained")).toMatchObject({ kind: "benchmark", domain: "math", description: "Checks arithmetic answers exactly" });
    expect(byName.get("resources_servers/my_verifier")).toMatchObject({ kind: "environment", domain: "math" });
    expect(byName.has("my_bench/prompts/p")).toBe(false);
    const names = [...byName.keys()];
    expect(names).toEqual([...names].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)));
    expect(listing.title).toMatch(/^Available environments and benchmarks \(\d+; manifests 1\/\d+\)$/);
  });

  test("benchmarks view and filters", async () => {
    const benchmarks = await listComponents("benchmarks", views());
    expect(benchmarks.json.every((e) => e.kind === "benchmark")).toBe(true);
    expect(benchmarks.json.map((e) => e.name)).toEqual(expect.arrayContaining(["arithmetic", "gpqa", "my_bench"]));
    const warnings: string[] = [];
    const math = await listComponents("environments", views(), { filters: { domain: "math" }, warn: (l) => warnings.push(l) });
    expect(math.json.map((e) => e.name)).toEqual(["aime24", "aime24-x", "aime25", "aime25-x", "aime26", "answer-judge", "apex_shortlist", "chained", "gsm8k", "hendrycks_math", "hmmt_feb25", "hmmt_nov25", "imo_answerbench", "imo_gradingbench", "imo_proofbench", "math-500", "my_bench", "physics", "polymath", "proof-arena-judge", "proof_bench_judge", "resources_servers/imo_gradingbench", "resources_servers/imo_proofbench_judge", "resources_servers/math_proof_judgement", "resources_servers/math_with_autograder", "resources_servers/math_with_code", "resources_servers/math_with_judge", "resources_servers/math_with_judge/dapo17k", "resources_servers/math_with_judge/math_stack_overflow", "resources_servers/math_with_judge/math_with_judge_opencode_agent", "resources_servers/my_verifier", "resources_servers/physics_judge", "resources_servers/polymath", "resources_servers/proof_genselect", "resources_servers/proof_judge", "resources_servers/proof_verification"]);
  });
});

describe("search", () => {
  test("NeMo Gym's fuzzy rule: substring, or a close match on the field or its tokens (cutoff 0.7)", () => {
    expect(fuzzyMatches("MATH", "my_math_env")).toBe(true);
    expect(fuzzyMatches("arithmatic", "arithmetic")).toBe(true);
    expect(fuzzyMatches("verfier", "my_verifier")).toBe(true); // token "verifier"
    expect(fuzzyMatches("calendar", "my_verifier", "math")).toBe(false);
  });

  test("search scopes: catalog by default, a type when given", async () => {
    const catalog = await listComponents("environments", views(), { query: "arithmatic" });
    expect(catalog.json.map((e) => e.name)).toContain("arithmetic");
    expect(catalog.title).toMatch(/^Catalog entries matching 'arithmatic' \(/);
    const models = await listComponents("models", views(), { query: "fast" });
    expect(models.json.map((m) => m.name)).toEqual(["my_model/fast"]);
    const none = await listComponents("agents", views(), { query: "zzzz" });
    expect(none.rows).toEqual([]);
    expect(none.empty).toBe("No agents match 'zzzz'.");
  });
});

describe("inspect", () => {
  test("resources server view with Value line and usage", async () => {
    const i = await inspectComponent("resources-servers", "mcqa", views());
    expect(i.type).toBe("resources server");
    expect(i.description).toBe("Multi-choice question answering problems\nValue: Improve benchmarks like MMLU / GPQA / HLE");
    expect(i.usage_example).toBe("gym env start --resources-server mcqa --model-type vllm_model");
    const text = inspectionText(i);
    expect(text.startsWith("The mcqa resources server (domain: knowledge)\n\n")).toBe(true);
    expect(text).toContain("\n\nDetails:\nconfig: ");
  });

  test("benchmark view shows the agent instance, repeats and prepare script", async () => {
    const i = await inspectComponent("benchmarks", "gpqa", views());
    expect(i.details).toMatchObject({ "agent instance": "gpqa_mcqa_simple_agent", "num repeats": "8", "prepare script": "benchmarks/gpqa/prepare.ts" });
    expect(i.usage_example).toBe("gym env start --benchmark gpqa --model-type vllm_model");
  });

  test("unknown names get a did-you-mean; a name of the other kind says so (exit 1)", async () => {
    await expect(inspectComponent("models", "my_modle", views())).rejects.toMatchObject({ message: "Unknown model 'my_modle'. Did you mean `my_model`?", exitCode: 1 });
    await expect(inspectComponent("benchmarks", "legacy_env", views())).rejects.toMatchObject({ message: "'legacy_env' is an environment, not a benchmark.", exitCode: 1 });
  });
});

describe("tables", () => {
  const rows = [["arithmetic", "a rather long description that will not fit in a narrow terminal at all"]];
  test("off a TTY: header and tab-separated rows, nothing cut", () => {
    expect(renderTable("T", ["Name", "Description"], rows, { tty: false })).toBe(`Name\tDescription\narithmetic\t${rows[0]![1]}\n`);
  });
  test("on a TTY: fitted to the width, long cells cut with an ellipsis", () => {
    const text = renderTable("T", ["Name", "Description"], rows, { tty: true, width: 40 });
    for (const line of text.split("\n")) expect(line.length).toBeLessThanOrEqual(40);
    expect(text).toContain("…");
  });
});
