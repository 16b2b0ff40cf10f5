import { describe, expect, test } from "bun:test";
import { fullResponse, post, promptKey, readJsonFile, readJsonlFile } from "../_common/testing.ts";
import createCounter from "./index.ts";

const dir = import.meta.dir;
const fixture = readJsonFile<{ vectors: any[]; session_script: any[] }>(dir, "_fixtures/test_vectors.json");
const verifyBody = (expected: number) => ({
  responses_create_params: { input: [{ role: "user", content: "hi", type: "message" }] },
  response: fullResponse({ output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: String(expected) }] }] }),
  expected_count: expected,
});

describe("example_session_state_mgmt: sessions", () => {
  test("the upstream HTTP session script: sessions are isolated by cookie (8 steps)", async () => {
    const app = createCounter();
    const jars: Record<string, string | undefined> = {};
    for (const step of fixture.session_script) {
      const label = step.session.split(" ")[0] as string;
      const fresh = step.session.includes("no cookie sent");
      const path = step.http.split(" ")[1] as string;
      const reply = await post(app, path, step.body ?? undefined, fresh ? undefined : jars[label]);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual(step.expect);
      // Like the Python agent: the jar is replaced by whatever each response set (original S1 cookie kept for step 8).
      if (fresh) jars[label] = reply.cookie;
    }
  });

  test("vectors: seed, increments, verify; unknown sessions score 0; seeding twice keeps the counter", async () => {
    const app = createCounter();
    const seeded = await post(app, "/seed_session", { initial_count: 3 });
    const a = seeded.cookie;
    await post(app, "/increment_counter", { count: 1 }, a);
    await post(app, "/increment_counter", { count: 2 }, a);
    const byId = Object.fromEntries(fixture.vectors.map((v) => [v.id, v]));
    expect((await post(app, "/get_counter_value", undefined, a)).body).toEqual(byId["example_session_state_mgmt/001"].expect);
    expect((await post(app, "/verify", verifyBody(6), a)).body.reward).toBe(byId["example_session_state_mgmt/002"].expect.reward);
    expect((await post(app, "/verify", verifyBody(7), a)).body.reward).toBe(byId["example_session_state_mgmt/003"].expect.reward);
    expect((await post(app, "/verify", verifyBody(0))).body.reward).toBe(byId["example_session_state_mgmt/004"].expect.reward);
    const b = (await post(app, "/get_counter_value")).cookie;
    expect((await post(app, "/verify", verifyBody(0), b)).body.reward).toBe(byId["example_session_state_mgmt/005"].expect.reward);
    await post(app, "/seed_session", { initial_count: 100 }, a);
    expect((await post(app, "/get_counter_value", undefined, a)).body).toEqual(byId["example_session_state_mgmt/006"].expect);
  });

  test("seed_session without initial_count is a 422; the verify response has only the base fields", async () => {
    const app = createCounter();
    expect((await post(app, "/seed_session", {})).status).toBe(422);
    const reply = await post(app, "/verify", verifyBody(1));
    expect(Object.keys(reply.body)).toEqual(["responses_create_params", "response", "reward"]);
  });
});

describe("example_session_state_mgmt: published rollouts", () => {
  test("5 of 5 rewards reproduce by replaying seed → tool calls → verify in one session", async () => {
    const byPrompt = new Map(readJsonlFile(dir, "data/example.jsonl").map((r) => [promptKey(r.responses_create_params as any), r]));
    const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
    const app = createCounter();
    for (const rollout of rollouts) {
      const row = byPrompt.get(promptKey(rollout.responses_create_params as any))!;
      let cookie = (await post(app, "/seed_session", row)).cookie;
      for (const item of (rollout.response as any).output) {
        if (item.type !== "function_call") continue;
        cookie = (await post(app, `/${item.name}`, JSON.parse(item.arguments), cookie)).cookie;
      }
      const reply = await post(app, "/verify", { ...row, response: rollout.response }, cookie);
      expect(reply.body.reward).toBe(rollout.reward as number);
    }
    expect(rollouts).toHaveLength(5);
  });
});
