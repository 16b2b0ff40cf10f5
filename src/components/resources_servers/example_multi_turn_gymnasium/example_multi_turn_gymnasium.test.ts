import { describe, expect, test } from "bun:test";
import { fullResponse, post, readJsonFile, readJsonlFile } from "../_common/testing.ts";
import createScripted from "./index.ts";

const dir = import.meta.dir;
const vectors = readJsonFile<{ vectors: any[] }>(dir, "_fixtures/test_vectors.json").vectors;
const params = { input: [{ role: "user", content: "What is the capital of France?", type: "message" }] };
const turn = (text: string) => fullResponse({ output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text }] }] });

describe("example_multi_turn_gymnasium: reset/step vectors", () => {
  test("session S1: reset, two follow-ups, then the graded final step", async () => {
    const app = createScripted();
    const [reset, ...steps] = vectors.filter((v) => v.session === "S1");
    const r = await post(app, "/reset", { responses_create_params: params, ...reset.input });
    expect(r.body).toEqual(reset.expect);
    let cookie = r.cookie;
    for (const step of steps) {
      const s = await post(app, "/step", { responses_create_params: params, response: turn(step.input.assistant_text), ...reset.input }, cookie);
      expect(s.body).toEqual(step.expect);
      cookie = s.cookie;
    }
  });

  test("sessions without follow-ups grade the first step (substring match, empty answer scores 0)", async () => {
    const app = createScripted();
    const metadata: Record<string, object> = { "example_multi_turn_gymnasium/005": { follow_ups: [], expected_answer: "20" }, "example_multi_turn_gymnasium/006": { follow_ups: [], expected_answer: "" } };
    for (const [id, meta] of Object.entries(metadata)) {
      const v = vectors.find((x) => x.id === id)!;
      const cookie = (await post(app, "/reset", { responses_create_params: params, ...meta })).cookie;
      const s = await post(app, "/step", { responses_create_params: params, response: turn(v.input.assistant_text), ...meta }, cookie);
      expect(s.body).toEqual(v.expect);
    }
  });

  test("a Gymnasium server has no /verify, /seed_session or /reverify_mode (404)", async () => {
    const app = createScripted();
    expect((await post(app, "/verify", {})).status).toBe(404);
    expect((await post(app, "/seed_session", {})).status).toBe(404);
    expect((await app.request("http://localhost/reverify_mode")).status).toBe(404);
  });
});

describe("example_multi_turn_gymnasium: published rollouts and metrics", () => {
  test("5 of 5 rewards reproduce: split the trajectory at user messages and step each assistant segment", async () => {
    const inputs = new Map(readJsonlFile(dir, "data/example_rollouts_materialized_inputs.jsonl").map((r) => [`${r._ng_task_index}:${r._ng_rollout_index}`, r]));
    const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
    for (const rollout of rollouts) {
      const app = createScripted();
      const { responses_create_params, ...metadata } = inputs.get(`${rollout._ng_task_index}:${rollout._ng_rollout_index}`)!;
      let cookie = (await post(app, "/reset", { responses_create_params, ...metadata })).cookie;
      const segments: object[][] = [[]];
      for (const item of (rollout.response as any).output) {
        if (item.role === "user") segments.push([]);
        else segments[segments.length - 1]!.push(item);
      }
      let total = 0;
      let last: any;
      for (const output of segments) {
        last = await post(app, "/step", { responses_create_params, response: { ...(rollout.response as object), output }, ...metadata }, cookie);
        expect(last.status).toBe(200);
        total += last.body.reward;
        cookie = last.cookie;
      }
      expect(total).toBe(rollout.reward as number);
      expect([last.body.terminated, last.body.truncated]).toEqual([rollout.terminated, rollout.truncated]);
    }
    expect(rollouts).toHaveLength(5);
  });

  test("/aggregate_metrics reproduces the published aggregate file (baseline statistics)", async () => {
    const published = readJsonFile<any[]>(dir, "_fixtures/example_rollouts_aggregate_metrics.json")[0];
    const rows = readJsonlFile(dir, "data/example_rollouts.jsonl").map(({ response, responses_create_params, ...rest }) => ({
      ...rest,
      response: { usage: (response as any).usage },
    }));
    const reply = await post(createScripted(), "/aggregate_metrics", { verify_responses: rows });
    expect(reply.status).toBe(200);
    expect(reply.body.group_level_metrics).toEqual(published.group_level_metrics);
    // 0.7 adds cross-repeat keys; every key NeMo Gym HEAD wrote must be there with the same value.
    for (const [key, value] of Object.entries(published.agent_metrics)) expect(reply.body.agent_metrics[key]).toEqual(value);
    expect(reply.body.key_metrics).toMatchObject(published.key_metrics);
  });
});
