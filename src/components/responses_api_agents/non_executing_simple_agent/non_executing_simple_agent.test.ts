import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ServerInstance } from "../../../servers/instances.ts";
import { ServerRegistry, type ServerCatalog } from "../../../servers/registry.ts";
import { writeMcqaDataset } from "../../../testing/datasets.ts";
import { catalog as agents } from "../index.ts";
import { catalog as models } from "../../responses_api_models/index.ts";
import { tmpdir } from "node:os";

const FIXTURES = join(import.meta.dir, "../../../../fixtures/servers");
const weatherRows = readFileSync(join(FIXTURES, "example_single_tool_call.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
const resources: ServerCatalog = {
  mcqa: () => import("../../resources_servers/mcqa/index.ts"),
  weather_fixture: () => import("../../../../fixtures/servers/weather-resources.ts"),
};
const catalogs = { responses_api_models: models, responses_api_agents: agents, resources_servers: resources };
const AGENT = "env_non_executing_simple_agent";

function instances(resourcesImpl: string, agentExtra: Record<string, unknown> = {}): ServerInstance[] {
  return [
    { name: "policy_model", serverType: "responses_api_models", implementation: "mock_model", block: { entrypoint: "app.py", model: "mock" } },
    { name: "env", serverType: "resources_servers", implementation: resourcesImpl, block: { entrypoint: "app.py", domain: "knowledge" } },
    {
      name: AGENT,
      serverType: "responses_api_agents",
      implementation: "non_executing_simple_agent",
      block: { entrypoint: "app.py", resources_server: { type: "resources_servers", name: "env" }, model_server: { type: "responses_api_models", name: "policy_model" }, ...agentExtra },
    },
  ];
}

describe("non_executing_simple_agent (mock_model)", () => {
  test("mcqa: one model call, its answer verified", async () => {
    const path = join(tmpdir(), `gym-nesa-${process.pid}.jsonl`);
    writeMcqaDataset(path, 4);
    const tasks = readFileSync(path, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    const registry = await ServerRegistry.create(instances("mcqa"), { catalogs });
    const rewards: number[] = [];
    for (const task of tasks) {
      const row = (await registry.get(AGENT).call<any>("/run", task)).body;
      expect(Object.keys(row).slice(0, 3)).toEqual(["responses_create_params", "response", "reward"]);
      expect(row.response.output.map((i: any) => i.type)).toEqual(["message"]);
      const letter = /\\boxed\{([A-D])\}/.exec(row.response.output[0].content[0].text)?.[1];
      rewards.push(row.reward);
      expect(row.reward).toBe(letter === task.expected_answer ? 1 : 0);
    }
    expect(rewards).toHaveLength(4);
  });

  test("a tool call is returned, not run; the seeded session reaches /verify", async () => {
    const registry = await ServerRegistry.create(instances("weather_fixture"), { catalogs });
    const row = (await registry.get(AGENT).call<any>("/run", weatherRows[0])).body;
    // simple_agent would have produced function_call, function_call_output, message.
    expect(row.response.output.map((i: any) => i.type)).toEqual(["function_call"]);
    expect(row.response.output[0].name).toBe("get_weather");
    expect([row.seeded, row.cities]).toEqual([true, []]);
    expect(row.response.usage.total_tokens).toBeGreaterThan(0);
  });

  test("skip_verification returns the configured reward; /aggregate_metrics is the resources server's", async () => {
    const skipping = await ServerRegistry.create(instances("weather_fixture", { skip_verification: true, skip_verification_reward: 0.5 }), { catalogs });
    const row = (await skipping.get(AGENT).call<any>("/run", weatherRows[0])).body;
    expect([row.reward, row.verification_skipped]).toEqual([0.5, true]);
    const registry = await ServerRegistry.create(instances("weather_fixture"), { catalogs });
    const metrics = (await registry.get(AGENT).call<any>("/aggregate_metrics", { verify_responses: [{}, {}] })).body;
    expect(metrics.agent_metrics).toEqual({ "mean/reward": 1.0, count: 2 });
  });
});
