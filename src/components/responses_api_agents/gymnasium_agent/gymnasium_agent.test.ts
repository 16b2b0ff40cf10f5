import { describe, expect, test } from "bun:test";
import { createGymApp, readJson } from "../../../servers/gym-app.ts";
import type { ServerInstance } from "../../../servers/instances.ts";
import { ServerRegistry, type ServerFactory } from "../../../servers/registry.ts";
import { sessionCookieName } from "../../../servers/session.ts";
import { catalog as models } from "../../responses_api_models/index.ts";
import { catalog as agents } from "../index.ts";

/** A two-step Gymnasium-style environment: each step pays 0.5, the second one terminates. */
const counterEnv: ServerFactory = (block) => {
  const app = createGymApp({ cookieName: sessionCookieName("CounterEnv", String(block.name)) });
  const steps = new Map<string, number>();
  app.post("/reset", (c) => {
    steps.set(c.get("session").session_id, 0);
    return c.json({ observation: "Round 1: say something.", info: {} });
  });
  app.post("/step", async (c) => {
    const body = await readJson<any>(c);
    const id = c.get("session").session_id;
    const n = (steps.get(id) ?? 99) + 1;
    steps.set(id, n);
    const said = body.response.output.at(-1).content[0].text as string;
    return c.json({ observation: `Round ${n + 1}: you said ${said.length} chars.`, reward: 0.5, terminated: n >= 2, truncated: false, info: { step: n } });
  });
  return app;
};

const instances = (maxSteps?: number): ServerInstance[] => [
  { name: "policy_model", serverType: "responses_api_models", implementation: "mock_model", block: { entrypoint: "app.py" } },
  { name: "env", serverType: "resources_servers", implementation: "counter_env", block: { entrypoint: "app.py", domain: "games" } },
  {
    name: "gym_agent",
    serverType: "responses_api_agents",
    implementation: "gymnasium_agent",
    block: { entrypoint: "app.py", resources_server: { type: "resources_servers", name: "env" }, model_server: { type: "responses_api_models", name: "policy_model" }, max_steps: maxSteps },
  },
];
const catalogs = { responses_api_models: models, responses_api_agents: agents, resources_servers: { counter_env: async () => ({ default: counterEnv }) } };

describe("gymnasium_agent", () => {
  test("reset → turns → steps until terminated; rewards summed; observations become user messages", async () => {
    const registry = await ServerRegistry.create(instances(), { catalogs });
    const row = (await registry.get("gym_agent").call<any>("/run", { responses_create_params: { input: "Play." }, _ng_task_index: 0 })).body;
    expect(Object.keys(row)).toEqual(["responses_create_params", "response", "reward", "terminated", "truncated", "info"]);
    expect([row.reward, row.terminated, row.truncated, row.info]).toEqual([1, true, false, { step: 2 }]);
    expect(row.response.output.map((i: any) => i.type)).toEqual(["message", "message", "message"]);
    expect(row.response.output[1]).toMatchObject({ role: "user", content: expect.stringContaining("Round 2") });
    expect(row.responses_create_params.input.at(-1)).toMatchObject({ role: "user", content: "Round 1: say something." });
  });

  test("an episode cut by max_steps is reported truncated", async () => {
    const registry = await ServerRegistry.create(instances(1), { catalogs });
    const row = (await registry.get("gym_agent").call<any>("/run", { responses_create_params: { input: "Play." } })).body;
    expect([row.reward, row.terminated, row.truncated]).toEqual([0.5, false, true]);
  });
});
