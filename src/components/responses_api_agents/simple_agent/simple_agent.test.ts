import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Hono } from "hono";
import { serve, type ServedApp } from "../../../runtime/serve.ts";
import type { ServerDirectory } from "../../../servers/client.ts";
import type { ServerInstance } from "../../../servers/instances.ts";
import { ServerRegistry, type ServerCatalog } from "../../../servers/registry.ts";
import { catalog as agents } from "../index.ts";
import { catalog as models } from "../../responses_api_models/index.ts";

const FIXTURES = join(import.meta.dir, "../../../../fixtures/servers");
const rows = readFileSync(join(FIXTURES, "example_single_tool_call.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
const resources: ServerCatalog = {
  example_single_tool_call: () => import("../../resources_servers/example_single_tool_call/index.ts"),
  weather_fixture: () => import("../../../../fixtures/servers/weather-resources.ts"),
};
const catalogs = { responses_api_models: models, responses_api_agents: agents, resources_servers: resources };

/** The real example_single_tool_call server by default; `weather_fixture` also reports the session it saw. */
function instances(agentExtra: Record<string, unknown> = {}, modelExtra: Record<string, unknown> = {}, resourcesImpl = "example_single_tool_call"): ServerInstance[] {
  return [
    { name: "policy_model", serverType: "responses_api_models", implementation: "mock_model", block: { entrypoint: "app.py", model: "mock", ...modelExtra } },
    { name: "example_single_tool_call", serverType: "resources_servers", implementation: resourcesImpl, block: { entrypoint: "app.py", domain: "agent" } },
    {
      name: "example_single_tool_call_simple_agent",
      serverType: "responses_api_agents",
      implementation: "simple_agent",
      block: {
        entrypoint: "app.py",
        resources_server: { type: "resources_servers", name: "example_single_tool_call" },
        model_server: { type: "responses_api_models", name: "policy_model" },
        ...agentExtra,
      },
    },
  ];
}

const AGENT = "example_single_tool_call_simple_agent";

/** Everything over loopback HTTP: each app on its own port, and the apps reach each other by URL too. */
async function loopbackRegistry(list: ServerInstance[]): Promise<{ registry: ServerRegistry; stop: () => Promise<void> }> {
  let remote: ServerRegistry | undefined;
  const peers: ServerDirectory = { get: (name) => remote!.get(name) };
  const local = await ServerRegistry.create(list, { catalogs, peers });
  const served: ServedApp[] = [];
  const addressed: ServerInstance[] = [];
  for (const instance of list) {
    const app = await serve(local.app(instance.name)!.fetch);
    served.push(app);
    addressed.push({ ...instance, block: { ...instance.block, host: "127.0.0.1", port: app.port } });
  }
  remote = await ServerRegistry.create(addressed, { catalogs, connect: "http" });
  return { registry: remote, stop: async () => void (await Promise.all(served.map((s) => s.stop()))) };
}

/** A row without the parts that legitimately differ between runs (ids, timestamps). */
function stable(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, v) => (key === "id" || key === "created_at" || key === "call_id" ? "<varies>" : v));
}

describe("simple_agent on example_single_tool_call (mock_model)", () => {
  const stops: (() => Promise<void>)[] = [];
  afterAll(async () => void (await Promise.all(stops.map((s) => s()))));

  test("/run: seed, get_weather tool call with the session's cookies, final answer, verify", async () => {
    const registry = await ServerRegistry.create(instances(), { catalogs });
    const reply = await registry.get(AGENT).post("/run", { ...rows[0], _ng_task_index: 0, _ng_rollout_index: 0 });
    expect(reply.status).toBe(200);
    const row = reply.json<any>();
    expect(Object.keys(row)).toEqual(["responses_create_params", "response", "reward"]);
    expect(row.reward).toBe(1);
    const types = row.response.output.map((item: any) => item.type);
    expect(types).toEqual(["function_call", "function_call_output", "message"]);
    expect(row.response.output[1]).toMatchObject({ output: '{"city":"San Francisco","weather_description":"The weather in San Francisco is cold."}', id: null, status: null });
    expect(row.response.output[2].content[0].text).toContain("The weather in San Francisco is cold.");
    expect(Object.keys(row.responses_create_params)).toHaveLength(23);
    expect(row.response.usage.total_tokens).toBeGreaterThan(0);
  });

  test("the resources session survives seed → tool call → verify (cookie replaced after each call, §2.6)", async () => {
    const registry = await ServerRegistry.create(instances({}, {}, "weather_fixture"), { catalogs });
    const row = (await registry.get(AGENT).call<any>("/run", rows[0])).body;
    expect(Object.keys(row)).toEqual(["responses_create_params", "response", "reward", "seeded", "cities"]);
    expect([row.seeded, row.cities]).toEqual([true, ["San Francisco"]]);
  });

  test("the same rollouts all in-process and all over loopback HTTP give the same rows (apart from ids)", async () => {
    const inProcess = await ServerRegistry.create(instances(), { catalogs });
    const loopback = await loopbackRegistry(instances());
    stops.push(loopback.stop);
    expect(loopback.registry.get(AGENT).kind).toBe("http");
    for (const [i, input] of rows.entries()) {
      const body = { ...input, _ng_task_index: i, _ng_rollout_index: 0 };
      const a = (await inProcess.get(AGENT).call("/run", body)).body;
      const b = (await loopback.registry.get(AGENT).call("/run", body)).body;
      expect(stable(b)).toEqual(stable(a));
      expect((a as any).response.output.length).toBe(3);
    }
  });

  test("max_steps caps model calls: the rollout ends on the tool output", async () => {
    const registry = await ServerRegistry.create(instances({ max_steps: 1 }), { catalogs });
    const row = (await registry.get(AGENT).call<any>("/run", rows[0])).body;
    expect(row.response.output.map((item: any) => item.type)).toEqual(["function_call", "function_call_output"]);
  });

  test("skip_verification: row keys, reward and flag", async () => {
    const registry = await ServerRegistry.create(instances({ skip_verification: true, skip_verification_reward: 0.5 }), { catalogs });
    const row = (await registry.get(AGENT).call<any>("/run", { ...rows[0], _ng_task_index: 7 })).body;
    expect(Object.keys(row)).toEqual(["responses_create_params", "response", "reward", "_ng_task_index", "verification_skipped"]);
    expect(row.reward).toBe(0.5);
  });

  test("a strictly invalid responses_create_params is a 422 at /run", async () => {
    const registry = await ServerRegistry.create(instances(), { catalogs });
    const reply = await registry.get(AGENT).post("/run", { responses_create_params: { input: "x", tempreature: 1 } });
    expect(reply.status).toBe(422);
    expect(reply.json<any>().detail[0]).toMatchObject({ type: "extra_forbidden", loc: ["body", "responses_create_params", "tempreature"] });
  });

  test("a failing model makes /run fail with the doubly wrapped 500 of §2.4", async () => {
    const registry = await ServerRegistry.create(instances({}, { error_rate: 1 }), { catalogs });
    const reply = await registry.get(AGENT).post("/run", rows[0]);
    expect(reply.status).toBe(500);
    const message = reply.json<string>();
    expect(message.startsWith(`Hit an exception in SimpleAgent___${AGENT} calling an inner server: b'"Hit an exception in SimpleAgent___${AGENT} calling an inner server:`)).toBe(true);
    expect(message).toContain("injected server error");
    expect(reply.cookies).toEqual({});
  });

  test("unparseable tool arguments become a Python-style error tool output; unknown tools get the 404 text", async () => {
    let turn = 0;
    const scripted = new Hono().post("/v1/responses", (c) => {
      turn++;
      const output =
        turn === 1
          ? [
              { type: "function_call", call_id: "c1", name: "get_weather", arguments: "{bad" },
              { type: "function_call", call_id: "c2", name: "no_such_tool", arguments: "{}" },
            ]
          : [{ id: "m", type: "message", role: "assistant", content: [{ type: "output_text", text: "done", annotations: [] }] }];
      return c.json({ id: `r${turn}`, created_at: 1, model: "s", object: "response", output, parallel_tool_calls: true, tool_choice: "auto", tools: [] });
    });
    const scriptedCatalog = { ...catalogs, responses_api_models: { mock_model: async () => ({ default: () => scripted }) } };
    const registry = await ServerRegistry.create(instances(), { catalogs: scriptedCatalog });
    const row = (await registry.get(AGENT).call<any>("/run", rows[0])).body;
    const outputs = row.response.output.filter((i: any) => i.type === "function_call_output").map((i: any) => i.output);
    expect(outputs[0]).toStartWith('{"error": "Invalid tool call arguments: JSONDecodeError(');
    expect(outputs[1]).toBe('{"detail":"Not Found"}');
    expect(row.response.usage).toBeNull();
  });

  test("/aggregate_metrics is proxied to the resources server", async () => {
    const registry = await ServerRegistry.create(instances(), { catalogs });
    const result = await registry.get(AGENT).call<any>("/aggregate_metrics", { verify_responses: [{ reward: 1, _ng_task_index: 0, _ng_rollout_index: 0 }] });
    expect(result.body.agent_metrics["mean/reward"]).toBe(1);
  });
});
