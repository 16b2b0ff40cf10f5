import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { rootViews } from "./components.ts";
import { toJsonSchema } from "./json-schema.ts";
import { checkManifest } from "./manifest.ts";
import { scaffoldResourcesServer, scaffoldWorkload } from "./scaffold.ts";
import { findTaskDataSchema } from "./task-data.ts";
import { listComponents } from "./views.ts";
import * as v from "valibot";

describe("env init --resources-server", () => {
  test("writes a TS server whose own test passes, found by --search-dir, with a derived task-data schema", async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "init-")));
    const { written } = scaffoldResourcesServer(cwd, "my_checker");
    expect(written.map((p) => p.slice(cwd.length + 1)).sort()).toEqual([
      "resources_servers/my_checker/README.md",
      "resources_servers/my_checker/configs/my_checker.yaml",
      "resources_servers/my_checker/data/example.jsonl",
      "resources_servers/my_checker/index.ts",
      "resources_servers/my_checker/my_checker.test.ts",
      "resources_servers/my_checker/task_data.ts",
      "resources_servers/my_checker/tests/verifier_cases.jsonl",
    ]);
    const run = spawnSync(process.execPath, ["test", "resources_servers/my_checker"], { cwd, encoding: "utf8" });
    expect(run.stderr).toContain("1 pass");
    expect(run.status).toBe(0);

    const servers = await listComponents("resources-servers", rootViews({ searchDirs: [cwd], cwd, env: {} }));
    expect(servers.json).toContainEqual({ name: "my_checker", domain: "other", description: "TODO describe what my_checker verifies" });

    const found = await findTaskDataSchema("my_checker", [cwd], cwd);
    expect(found!.schema).toMatchObject({ type: "object", required: ["expected_answer"], properties: { expected_answer: { type: "string" } } });
    // A second init leaves the existing folder alone.
    expect(scaffoldResourcesServer(cwd, "my_checker").existed).toBe(join(cwd, "resources_servers/my_checker"));
  });

  test("names must be identifiers", () => {
    expect(() => scaffoldResourcesServer(tmpdir(), "My-Server")).toThrow("Resources server name 'My-Server' is not valid");
  });
});

describe("env init --environment / --benchmark", () => {
  test("manifest-backed skeletons validate and show up as experimental entries", async () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "init-")));
    scaffoldWorkload(cwd, { kind: "benchmark", name: "my_bench", profile: "custom-gym-verifier", reuseVerifier: "mcqa", inherit: { resourcesServer: "mcqa", agent: "mcqa_simple_agent" }, reward: { range: [0, 1], higher_is_better: true } });
    scaffoldWorkload(cwd, { kind: "environment", name: "my_env", profile: "custom-gym-verifier" });
    for (const rel of ["benchmarks/my_bench/manifest.yaml", "environments/my_env/manifest.yaml"]) {
      expect(checkManifest(parse(readFileSync(join(cwd, rel), "utf8"))).problems).toEqual([]);
    }
    const catalog = await listComponents("environments", rootViews({ searchDirs: [cwd], cwd, env: {} }));
    const mine = catalog.json.filter((e) => String(e.name).startsWith("my_"));
    expect(mine.map((e) => [e.name, e.kind, e.status])).toEqual([
      ["my_bench", "benchmark", "experimental"],
      ["my_env", "environment", "experimental"],
    ]);
  });

  test("a different existing file aborts with the conflicting paths; identical files are left alone", () => {
    const cwd = realpathSync(mkdtempSync(join(tmpdir(), "init-")));
    const options = { kind: "environment" as const, name: "e1", profile: "custom-gym-verifier", reuseVerifier: "mcqa", inherit: { resourcesServer: "mcqa", agent: "mcqa_simple_agent" }, reward: { range: [0, 1] as [number, number], higher_is_better: true } };
    scaffoldWorkload(cwd, options);
    expect(scaffoldWorkload(cwd, options).written).toEqual([]);
    writeFileSync(join(cwd, "environments/e1/README.md"), "mine");
    expect(() => scaffoldWorkload(cwd, options)).toThrow(`- ${join(cwd, "environments/e1/README.md")}`);
  });
});

describe("valibot → JSON Schema", () => {
  test("objects, optional and nullable fields, integers with bounds, picklists, arrays", () => {
    const schema = v.strictObject({
      id: v.pipe(v.number(), v.integer(), v.minValue(0)),
      tags: v.optional(v.array(v.string())),
      mode: v.picklist(["a", "b"]),
      note: v.nullable(v.string()),
    });
    expect(toJsonSchema(schema as never, false)).toEqual({
      type: "object",
      properties: {
        id: { type: "integer", minimum: 0 },
        tags: { type: "array", items: { type: "string" } },
        mode: { enum: ["a", "b"] },
        note: { anyOf: [{ type: "string" }, { type: "null" }] },
      },
      required: ["id", "mode", "note"],
      additionalProperties: false,
    });
  });
});
