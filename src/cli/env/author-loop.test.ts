/** The environment author's loop on the compiled binary, outside any checkout: init → validate → test → eval run → publish. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym } from "../../testing/binary.ts";

let dir: string;
const inDir = (args: string[]) => gym(args, { cwd: dir, env: { NEMO_GYM_EXTRA_ROOTS: "" } });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "gym-author-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the author's loop of a scaffolded environment", () => {
  test("init, validate, test, run and publish, as the seed writes them", async () => {
    expect((await inDir(["env", "init", "--environment", "my_eval"])).code).toBe(0);

    const validated = await inDir(["env", "validate", "my_eval", "--json"]);
    expect(validated.code).toBe(0);
    const report = JSON.parse(validated.stdout);
    expect(report).toMatchObject({ name: "my_eval", kind: "environment", declared_profile: "custom-gym-verifier", inferred_profile: "custom-gym-verifier", synchronized_fields: [] });
    expect(report.datasets).toEqual([expect.objectContaining({ name: "example", type: "example", rows: 1 })]);

    const tested = await inDir(["env", "test", "my_eval", "--json"]);
    expect(tested.code).toBe(0);
    expect(JSON.parse(tested.stdout).cases.map((c: { kind: string; observed_rewards: number[] }) => [c.kind, c.observed_rewards])).toEqual([["full_reward", [1]], ["zero_reward", [0]], ["malformed", []]]);

    // The server's own TypeScript test runs inside the binary (no Bun installed), with gym/server-sdk provided.
    const own = await inDir(["env", "test", "--resources-server", "my_eval", "--search-dir", "."]);
    expect(own.stderr + own.stdout).toContain("1 pass");
    expect(own.code).toBe(0);

    const run = await inDir(["eval", "run", "--environment", "my_eval", "--search-dir", ".", "--model-type", "mock_model", "-o", "results/my_eval.jsonl"]);
    expect(run.stderr).not.toContain("unexpected failure");
    expect(run.code).toBe(0);

    const refused = await inDir(["env", "publish", "my_eval"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("Replace scaffold placeholders before publishing: description, authors, licensing");

    const manifest = join(dir, "environments/my_eval/manifest.yaml");
    writeFileSync(manifest, readFileSync(manifest, "utf8").replace("TODO describe my_eval", "Capital cities, exact match").replace("TODO your name", "Ada Lovelace").replace("licensing: unknown", "licensing: Apache-2.0"));
    const published = await inDir(["env", "publish", "my_eval", "--kind", "environment", "--json"]);
    expect(published.code).toBe(0);
    expect(JSON.parse(published.stdout)).toEqual({ name: "my_eval", version: "0.1.0", kind: "environment", status: "experimental", manifest_path: manifest, verifier_cases: 3 });
  });

  test("a stale mirror is refused, then --sync rewrites only that field, keeping comments", async () => {
    const manifest = join(dir, "environments/my_eval/manifest.yaml");
    const before = readFileSync(manifest, "utf8");
    writeFileSync(manifest, `# kept comment\n${before.replace("agent_server: simple_agent", "agent_server: gymnasium_agent")}`);
    const stale = await inDir(["env", "validate", "my_eval"]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('agent_server: manifest="gymnasium_agent", config="simple_agent"');
    expect(stale.stderr).toContain("gym env validate --sync my_eval");
    const synced = await inDir(["env", "validate", "--sync", "my_eval", "--json"]);
    expect(synced.code).toBe(0);
    expect(JSON.parse(synced.stdout).synchronized_fields).toEqual(["agent_server"]);
    expect(readFileSync(manifest, "utf8")).toBe(`# kept comment\n${before}`);
  });

  test("a fixture whose expectation is wrong fails, and --update-expected rewrites it", async () => {
    const cases = join(dir, "resources_servers/my_eval/tests/verifier_cases.jsonl");
    const original = readFileSync(cases, "utf8");
    writeFileSync(cases, original.replace('"text":"Paris"', '"text":"Lyon"'));
    const wrong = await inDir(["env", "test", "my_eval"]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("Full-reward case 'exact_answer' does not pin the upper endpoint: expected 1, observed 0");
    writeFileSync(cases, original.replace('{"expected_reward":0,', '{"expected_reward":0.5,'));
    expect((await inDir(["env", "test", "my_eval"])).stderr).toContain("Case 'wrong_answer' reward mismatch: expected 0.5, observed 0");
    expect((await inDir(["env", "test", "--update-expected", "my_eval"])).code).toBe(0);
    expect(readFileSync(cases, "utf8")).toContain('"expected_reward":0,"kind":"zero_reward"');
  });

  test("a syntax error in the server names its file, line and column, and shows the line", async () => {
    const index = join(dir, "resources_servers/my_eval/index.ts");
    const text = readFileSync(index, "utf8");
    const lines = text.split("\n");
    const at = lines.findIndex((l) => l.includes("const answer ="));
    lines[at] = lines[at]!.replace("const answer =", "const answer = =");
    writeFileSync(index, lines.join("\n"));
    try {
      const broken = await inDir(["env", "test", "my_eval"]);
      expect(broken.code).toBe(1);
      expect(broken.stderr).toContain(`${index}:${at + 1}:`);
      expect(broken.stderr).toContain("const answer = =");
      expect(broken.stderr).not.toContain("unexpected failure");
    } finally {
      writeFileSync(index, text);
    }
  });

  test("a server that throws at import, or exports the wrong shape, says which", async () => {
    const index = join(dir, "resources_servers/my_eval/index.ts");
    const text = readFileSync(index, "utf8");
    try {
      writeFileSync(index, `throw new Error("no API key configured");\n`);
      const thrown = await inDir(["env", "test", "my_eval"]);
      expect(thrown.stderr).toContain(`Loading ${index} failed: Error: no API key configured`);
      writeFileSync(index, "export default 42;\n");
      const shape = await inDir(["env", "test", "my_eval"]);
      expect(shape.stderr).toContain("must `export default defineResourcesServer({ … })` (or a factory function), but it has a default export of type number");
    } finally {
      writeFileSync(index, text);
    }
  });
});

describe("the seed's other author commands", () => {
  test("env validate agrees with eval run on a bad server block", async () => {
    const bad = await inDir(["env", "validate", "--resources-server", "mcqa", "++mcqa.resources_servers.mcqa.grading_mode=bogus"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Invalid config for resources server 'mcqa' at mcqa.resources_servers.mcqa.grading_mode");
    expect(bad.stdout).not.toContain("valid");
  });

  test("env validate of a built-in environment and benchmark, and an unknown name", async () => {
    expect((await inDir(["env", "validate", "--environment", "example_mcqa"])).code).toBe(0);
    expect((await inDir(["env", "validate", "--benchmark", "gpqa"])).code).toBe(0);
    const unknown = await inDir(["env", "validate", "no_such_eval"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No manifest-backed workload named 'no_such_eval'");
  });

  test("env schema answers for every built-in with task data (the seed's example_multi_step among them)", async () => {
    const schema = await inDir(["env", "schema", "--resources-server", "example_multi_step"]);
    expect(schema.code).toBe(0);
    expect(JSON.parse(schema.stdout)).toMatchObject({ title: "example_multi_step task data", type: "object", properties: { expected_synonym_values: { type: "array", items: { type: "integer" } } } });
    for (const name of ["mcqa", "string_match", "equivalence_rule", "format_verification", "circle_click", "example_session_state_mgmt", "example_tool_call_multireward"]) {
      const r = await inDir(["env", "schema", "--resources-server", name]);
      expect([name, r.code]).toEqual([name, 0]);
    }
    const none = await inDir(["env", "schema", "--resources-server", "example_multi_turn_gymnasium"]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("does not export a task-data schema");
  });

  test("env packages lists what a built-in runs on; env test needs a target; dev test outside a checkout says so", async () => {
    const packages = await inDir(["env", "packages", "--resources-server", "example_single_tool_call", "--json"]);
    expect(packages.code).toBe(0);
    expect(JSON.parse(packages.stdout).packages.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(["hono", "valibot", "yaml"]));
    const missing = await inDir(["env", "packages", "--resources-server", "no_such_server"]);
    expect(missing.code).toBe(1);
    const bare = await inDir(["env", "test"]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain("--all");
    const dev = await inDir(["dev", "test"]);
    expect(dev.code).toBe(1);
    expect(dev.stderr).toContain("ships with gym's source, not with the binary");
  });
});
