import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ServerInstance } from "../../../servers/instances.ts";
import { ServerRegistry, type ServerCatalog } from "../../../servers/registry.ts";
import { catalog as agents } from "../index.ts";
import { catalog as models } from "../../responses_api_models/index.ts";

const FIXTURES = join(import.meta.dir, "../../../../fixtures/servers");
const weatherRows = readFileSync(join(FIXTURES, "example_single_tool_call.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
const resources: ServerCatalog = { weather_fixture: () => import("../../../../fixtures/servers/weather-resources.ts") };
const catalogs = { responses_api_models: models, responses_api_agents: agents, resources_servers: resources };
const AGENT = "env_tool_simulation_agent";

function instances(agentExtra: Record<string, unknown> = {}): ServerInstance[] {
  return [
    { name: "policy_model", serverType: "responses_api_models", implementation: "mock_model", block: { entrypoint: "app.py", model: "mock" } },
    { name: "env", serverType: "resources_servers", implementation: "weather_fixture", block: { entrypoint: "app.py", domain: "agent" } },
    {
      name: AGENT,
      serverType: "responses_api_agents",
      implementation: "tool_simulation_agent",
      block: { entrypoint: "app.py", resources_server: { type: "resources_servers", name: "env" }, model_server: { type: "responses_api_models", name: "policy_model" }, ...agentExtra },
    },
  ];
}

describe("tool_simulation_agent (mock_model)", () => {
  test("one model call, its tool call returned unrun and verified; no session is seeded", async () => {
    const registry = await ServerRegistry.create(instances(), { catalogs });
    const row = (await registry.get(AGENT).call<any>("/run", weatherRows[0])).body;
    expect(row.response.output.map((i: any) => i.type)).toEqual(["function_call"]);
    expect(Object.keys(row).slice(0, 3)).toEqual(["responses_create_params", "response", "reward"]);
    // weather-resources marks a seeded session; this agent never calls /seed_session.
    expect(row.seeded).toBe(false);
  });
  test("skip_verification: the reward given, verification_skipped", async () => {
    const registry = await ServerRegistry.create(instances({ skip_verification: true, skip_verification_reward: 0.25 }), { catalogs });
    const row = (await registry.get(AGENT).call<any>("/run", weatherRows[0])).body;
    expect([row.reward, row.verification_skipped]).toEqual([0.25, true]);
  });
});
