/** Direct in-process calls (objects handed over) answer exactly as the same calls sent as JSON text through app.fetch. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { serve, type ServedApp } from "../runtime/serve.ts";
import { catalog as agents } from "../components/responses_api_agents/index.ts";
import { catalog as models } from "../components/responses_api_models/index.ts";
import { catalog as resources } from "../components/resources_servers/index.ts";
import mockModel from "../components/responses_api_models/mock_model/index.ts";
import type { ServerReply } from "./client.ts";
import type { ServerInstance } from "./instances.ts";
import { ServerRegistry } from "./registry.ts";
import { SessionSigner } from "./session.ts";

const catalogs = { responses_api_models: models, responses_api_agents: agents, resources_servers: resources };
const FIXTURES = join(import.meta.dir, "../../fixtures/servers");
const toolRows = readFileSync(join(FIXTURES, "example_single_tool_call.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));

function agent(name: string, resourcesName: string, modelName: string): ServerInstance {
  return {
    name,
    serverType: "responses_api_agents",
    implementation: "simple_agent",
    block: { entrypoint: "app.py", resources_server: { type: "resources_servers", name: resourcesName }, model_server: { type: "responses_api_models", name: modelName } },
  };
}

function instances(upstream: string): ServerInstance[] {
  return [
    { name: "mock", serverType: "responses_api_models", implementation: "mock_model", block: { entrypoint: "app.py", model: "mock" } },
    { name: "broken", serverType: "responses_api_models", implementation: "mock_model", block: { entrypoint: "app.py", error_rate: 1 } },
    { name: "openai", serverType: "responses_api_models", implementation: "openai_model", block: { entrypoint: "app.py", openai_base_url: upstream, openai_api_key: "x", openai_model: "mock" } },
    { name: "mcqa", serverType: "resources_servers", implementation: "mcqa", block: { entrypoint: "app.py", grading_mode: null } },
    { name: "weather", serverType: "resources_servers", implementation: "example_single_tool_call", block: { entrypoint: "app.py" } },
    agent("mcqa_agent", "mcqa", "openai"),
    agent("weather_agent", "weather", "mock"),
    agent("broken_agent", "mcqa", "broken"),
  ];
}

const mcqaRow = {
  responses_create_params: { input: [{ role: "user", content: "Pick one.\nA: x\nB: y" }] },
  options: [{ A: "x" }, { B: "y" }],
  expected_answer: "B",
  uuid: "u-1",
  _ng_task_index: 3,
  _ng_rollout_index: 1,
  agent_ref: { name: "mcqa_agent" },
};

/** A reply without what legitimately differs between two runs: random ids and session cookie values. */
function comparable(reply: ServerReply) {
  const text = reply.text.replace(/"(resp|msg|fc|call|rs)_[0-9a-f]{16,}"/g, '"$1_<id>"').replace(/"created_at":\d+(\.\d+)?/g, '"created_at":0');
  const headers: [string, string][] = [];
  reply.headers.forEach((v, k) => headers.push([k, k === "set-cookie" ? v.replace(/=[^;]*/, "=<value>") : v]));
  return {
    status: reply.status,
    ok: reply.ok,
    text,
    headers,
    cookies: Object.keys(reply.cookies),
  };
}

describe("direct in-process calls answer as JSON text through app.fetch does", () => {
  let upstream: ServedApp;
  let direct: ServerRegistry;
  let text: ServerRegistry;
  beforeAll(async () => {
    upstream = await serve((await mockModel({ model: "mock" }, {} as never)).fetch);
    direct = await ServerRegistry.create(instances(`${upstream.url}/v1`), { catalogs });
    text = await ServerRegistry.create(instances(`${upstream.url}/v1`), { catalogs, directCalls: false });
  });
  afterAll(() => upstream.stop());

  const calls: [string, string, string, unknown, Record<string, string>?][] = [
    ["mcqa agent /run", "mcqa_agent", "/run", mcqaRow],
    ["mcqa agent /run with the caller's cookies (passed on to /seed_session)", "mcqa_agent", "/run", mcqaRow, { MCQAResourcesServer___mcqa: "forged.sig", other: "1" }],
    ["tool-calling agent /run with the caller's cookies", "weather_agent", "/run", { ...toolRows[0], _ng_task_index: 0, _ng_rollout_index: 0 }, { theirs: "x" }],
    ["tool-calling agent /run (cookies kept across seed, tool, verify)", "weather_agent", "/run", { ...toolRows[0], _ng_task_index: 0, _ng_rollout_index: 0 }],
    ["agent /v1/responses forwards the model and resources cookies", "weather_agent", "/v1/responses", toolRows[0].responses_create_params],
    ["invalid responses_create_params: 422 at /run", "mcqa_agent", "/run", { responses_create_params: { input: "hi", bogus: 1 } }],
    ["a row that is not an object", "mcqa_agent", "/run", [1, 2]],
    ["a failing model: doubly wrapped 500", "broken_agent", "/run", mcqaRow],
    ["openai_model /v1/responses", "openai", "/v1/responses", { input: "Answer A or B" }],
    ["openai_model 422", "openai", "/v1/responses", { input: 5 }],
    ["mcqa /seed_session", "mcqa", "/seed_session", { anything: [1, { x: null }] }],
    ["mcqa /seed_session with a rollout prefix", "mcqa", "/ng-rollout/3-1/seed_session", {}],
    ["mcqa /seed_session with a bare string", "mcqa", "/seed_session", "text"],
    ["mcqa /verify missing response: 422", "mcqa", "/verify", { responses_create_params: { input: "x" } }],
    ["mcqa /verify with a forged session cookie", "mcqa", "/verify", { responses_create_params: { input: "x" } }, { MCQAResourcesServer___mcqa: "forged.sig" }],
  ];
  for (const [label, server, path, body, cookies] of calls) {
    test(label, async () => {
      const [a, b] = [await direct.get(server).post(path, body, { cookies }), await text.get(server).post(path, body, { cookies })];
      expect(comparable(a)).toEqual(comparable(b));
    });
  }

  test("mcqa /verify: Python floats in the text, numbers in the parsed body; raw text bodies as reverify sends them", async () => {
    const run = (await text.get("mcqa_agent").call<Record<string, unknown>>("/run", mcqaRow)).body;
    const verifyBody = { responses_create_params: run.responses_create_params, response: run.response, options: mcqaRow.options, expected_answer: "B" };
    for (const options of [{ json: verifyBody }, { body: JSON.stringify(verifyBody), headers: { "content-type": "application/json" } }]) {
      const [a, b] = [await direct.get("mcqa").request("/verify", { method: "POST", ...options }), await text.get("mcqa").request("/verify", { method: "POST", ...options })];
      expect(comparable(a)).toEqual(comparable(b));
      expect(a.text).toContain('"reward":');
      expect(a.json()).toEqual(b.json());
    }
  });

  test("a session cookie is sealed only when someone reads it, with the session as it was at answer time", async () => {
    const original = SessionSigner.prototype.sealJson;
    const sealed: string[] = [];
    SessionSigner.prototype.sealJson = function (json: string) {
      sealed.push(json);
      return original.call(this, json);
    };
    try {
      const reply = await direct.get("mcqa").post("/seed_session", {});
      expect(reply.ok).toBe(true);
      expect(sealed).toEqual([]);
      const value = reply.cookies.MCQAResourcesServer___mcqa!;
      expect(sealed).toHaveLength(1);
      expect(JSON.parse(sealed[0]!)).toEqual({ session_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      expect(reply.headers.get("set-cookie")).toContain(value);
      expect(sealed).toHaveLength(1);
      // The cookie carries a session the server opens again.
      const again = await direct.get("mcqa").post("/seed_session", {}, { cookies: reply.cookies });
      expect(again.cookies.MCQAResourcesServer___mcqa).toBe(value);
    } finally {
      SessionSigner.prototype.sealJson = original;
    }
  });

  test("a rollout seals only the cookies someone reads; sessions still carry across seed, tool calls and verify", async () => {
    const original = SessionSigner.prototype.sealJson;
    let seals = 0;
    SessionSigner.prototype.sealJson = function (json: string) {
      // The upstream mock (served over HTTP in this process) seals its own; count the in-process servers'.
      if (this.cookieName !== "MockModel___mock_model") seals++;
      return original.call(this, json);
    };
    try {
      const run = await direct.get("mcqa_agent").post("/run", mcqaRow);
      expect(run.json<{ reward: number }>().reward).toBeGreaterThanOrEqual(0);
      // seed, the agent's own /v1/responses, the model and verify each set a session cookie; none was read.
      expect(seals).toBe(0);
      expect(Object.keys(run.cookies)).toEqual(["SimpleAgent___mcqa_agent"]);
      expect(run.cookies.SimpleAgent___mcqa_agent).toMatch(/^[\w-]+\.[\w-]{27}$/);
      expect(seals).toBe(1);
      // A tool-calling rollout through the same lazy jars gives the rows sealed cookies would give.
      const tool = { ...toolRows[0], _ng_task_index: 0, _ng_rollout_index: 0 };
      expect(comparable(await direct.get("weather_agent").post("/run", tool))).toEqual(comparable(await text.get("weather_agent").post("/run", tool)));
      // The agent's /v1/responses answer forwards cookies that open on their servers as sealed values would.
      const episode = await direct.get("weather_agent").call("/v1/responses", toolRows[0].responses_create_params);
      const cookies = { ...episode.cookies };
      expect(Object.keys(cookies).sort()).toEqual(["SimpleWeatherResourcesServer___weather", "MockModel___mock", "SimpleAgent___weather_agent"].sort());
      const reseeded = await text.get("weather").post("/seed_session", {}, { cookies });
      expect(reseeded.cookies.ExampleSingleToolCallResourcesServer___weather).toBe(cookies.ExampleSingleToolCallResourcesServer___weather);
    } finally {
      SessionSigner.prototype.sealJson = original;
    }
  });

  test("the direct path is the one taken (no app.fetch) for JSON routes of built-in servers", async () => {
    const app = direct.app("mcqa")!;
    const original = app.fetch;
    let fetched = 0;
    app.fetch = (...args: Parameters<typeof original>) => {
      fetched++;
      return original(...args);
    };
    try {
      await direct.get("mcqa").post("/seed_session", {});
      expect(fetched).toBe(0);
      await direct.get("mcqa").get("/reverify_mode");
      expect(fetched).toBe(1);
    } finally {
      app.fetch = original;
    }
  });
});
