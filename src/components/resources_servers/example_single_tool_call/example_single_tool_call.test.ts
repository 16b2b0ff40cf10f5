import { describe, expect, test } from "bun:test";
import { post, promptKey, readJsonFile, readJsonlFile, vectorRequest } from "../_common/testing.ts";
import createWeather from "./index.ts";

const dir = import.meta.dir;
const vectors = readJsonFile<{ vectors: any[] }>(dir, "_fixtures/test_vectors.json").vectors;

describe("example_single_tool_call", () => {
  for (const v of vectors) {
    test(`${v.id} ${v.kind} ${v.tool ?? ""}`, async () => {
      const app = createWeather();
      const reply = v.kind === "tool" ? await post(app, `/${v.tool}`, v.input) : await post(app, "/verify", vectorRequest(v));
      expect(reply.status).toBe(200);
      for (const [key, value] of Object.entries(v.expect)) expect(reply.body[key]).toEqual(value);
      if (v.kind === "verify") expect(Object.keys(reply.body)).toEqual(["responses_create_params", "response", "reward"]);
    });
  }

  test("published rollouts: 5 of 5 rewards (constant 1.0) reproduce", async () => {
    // These old rows store `tool_choice: null` / `parallel_tool_calls: null`, which HEAD's strict params model
    // rejects (422), so the verify body is the dataset row (joined by prompt) + the stored response, as reverify builds it.
    const byPrompt = new Map(readJsonlFile(dir, "data/example.jsonl").map((r) => [promptKey(r.responses_create_params as any), r]));
    const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
    for (const rollout of rollouts) {
      const row = byPrompt.get(promptKey(rollout.responses_create_params as any))!;
      const reply = await post(createWeather(), "/verify", { ...row, response: rollout.response });
      expect(reply.body.reward).toBe(rollout.reward as number);
    }
    expect(rollouts).toHaveLength(5);
    const stored = rollouts[0]!;
    expect((await post(createWeather(), "/verify", { responses_create_params: stored.responses_create_params, response: stored.response })).status).toBe(422);
  });

  test("a tool call without `city` is FastAPI's 422", async () => {
    const reply = await post(createWeather(), "/get_weather", {});
    expect(reply.status).toBe(422);
    expect(reply.body.detail).toEqual([{ type: "missing", loc: ["body", "city"], msg: "Field required", input: {} }]);
  });

  test("the session cookie is named after the Python class and instance, and re-issued on every response", async () => {
    const app = createWeather({}, { name: "example_single_tool_call" });
    const first = await post(app, "/get_weather", { city: "Oslo" });
    expect(first.cookie).toStartWith("SimpleWeatherResourcesServer___example_single_tool_call=");
    const second = await post(app, "/get_weather", { city: "Oslo" }, first.cookie);
    expect(second.cookie).toBeDefined();
    const missing = await post(app, "/nope", {}, first.cookie);
    expect(missing.status).toBe(404);
    expect(missing.cookie).toBeDefined();
  });

  test("an /ng-rollout/<id>/ prefix is stripped before routing", async () => {
    const reply = await post(createWeather(), "/ng-rollout/3-1/get_weather", { city: "Rome" });
    expect(reply.body.weather_description).toBe("The weather in Rome is cold.");
    expect((await post(createWeather(), "/ng-rollout/.bad/get_weather", { city: "Rome" })).status).toBe(404);
  });
});
