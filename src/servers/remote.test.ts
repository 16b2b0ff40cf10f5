import { expect, test } from "bun:test";
import { stringify } from "yaml";
import { builtinCatalogs } from "../catalog/builtins.ts";
import { launchEnvironment } from "./launch.ts";
import { serverInstancesOf } from "./instances.ts";
import { registryFromHeadServer } from "./remote.ts";

test("a registry built from a head server reaches every instance over HTTP and runs a rollout", async () => {
  const tree = {
    policy_model: { responses_api_models: { mock_model: { entrypoint: "app.py", host: "127.0.0.1", port: 0 } } },
    weather: { resources_servers: { example_single_tool_call: { entrypoint: "app.py", domain: "agent", host: "127.0.0.1", port: 0 } } },
    weather_agent: {
      responses_api_agents: {
        simple_agent: {
          entrypoint: "app.py",
          host: "127.0.0.1",
          port: 0,
          resources_server: { type: "resources_servers", name: "weather" },
          model_server: { type: "responses_api_models", name: "policy_model" },
        },
      },
    },
    policy_base_url: "${oc.env:NOT_USED,}",
  };
  // Ports are picked by the OS here, so the served config must carry the real ones, as `env start` writes them.
  const first = await launchEnvironment({ instances: serverInstancesOf(tree), configYaml: "{}", headServer: { port: 0 }, registry: { builtins: await builtinCatalogs() } });
  const ports = Object.fromEntries(first.instances.map((i) => [i.process_name, i.port]));
  await first.stop();
  for (const [name, port] of Object.entries(ports)) {
    const entry = (tree as any)[name];
    const impl = Object.values(Object.values(entry)[0] as object)[0] as { port: number };
    impl.port = Number(port);
  }
  const env = await launchEnvironment({ instances: serverInstancesOf(tree), configYaml: stringify(tree), headServer: { port: 0 }, registry: { builtins: await builtinCatalogs() } });
  try {
    const registry = await registryFromHeadServer(env.headUrl);
    expect(registry.instances.map((i) => [i.name, registry.get(i.name).kind])).toEqual([
      ["policy_model", "http"],
      ["weather", "http"],
      ["weather_agent", "http"],
    ]);
    const row = { responses_create_params: { input: "weather in sf?", tools: [{ type: "function", name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } }, strict: true }] } };
    const result = await registry.get("weather_agent").call<any>("/run", row);
    expect(result.body.reward).toBe(1);
  } finally {
    await env.stop();
  }
});

test("a head server that does not answer is a GymError naming it", async () => {
  const error = await registryFromHeadServer("http://127.0.0.1:9").catch((e) => e);
  expect(error).toMatchObject({ code: "E_SERVER" });
  expect(error.message).toContain("http://127.0.0.1:9");
});
