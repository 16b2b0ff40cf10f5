import { beforeAll, describe, expect, test } from "bun:test";
import { ensureBinary, gym } from "../testing/binary.ts";
import { catalog } from "../components/responses_api_agents/index.ts";

beforeAll(ensureBinary, 120_000);

describe("gym list agents on the compiled binary", () => {
  test("every built-in agent is listed, scicode_agent (code, no configs/) as NeMo Gym lists it: composable, no variants", async () => {
    const r = await gym(["list", "agents", "--json"]);
    expect(r.code).toBe(0);
    const agents = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(agents.map((a) => a.name)).toEqual(expect.arrayContaining(Object.keys(catalog)));
    expect(agents.find((a) => a.name === "scicode_agent")).toEqual({ name: "scicode_agent", pattern: "A (composable)", self_contained: false, variants: [], description: null });
    const table = await gym(["list", "agents"]);
    expect(table.stdout).toContain("scicode_agent\tcomposable (A)\t—\t\n");
  });

  test("inspecting scicode_agent: its path and composition, no variants line", async () => {
    const r = await gym(["list", "agents", "scicode_agent"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("path: <built-in>/responses_api_agents/scicode_agent");
    expect(r.stdout).toContain("composition: composable (A)");
    expect(r.stdout).not.toContain("variants");
  });
});
