import { describe, expect, test } from "bun:test";
import { fullResponse, post, readJsonFile, readJsonlFile, vectorRequest } from "../_common/testing.ts";
import createCircleClick, { pointInCircle } from "./index.ts";

const dir = import.meta.dir;
const vectors = readJsonFile<{ vectors: any[] }>(dir, "_fixtures/test_vectors.json").vectors;

describe("circle_click: test vectors", () => {
  for (const v of vectors) {
    test(`${v.id} ${v.upstream_test ?? v.note ?? ""}`, async () => {
      if (v.kind === "unit") {
        expect(pointInCircle(v.args[0], v.args[1], v.args[2])).toBe(v.expect.return);
        return;
      }
      const app = createCircleClick();
      const reply = v.kind === "tool" ? await post(app, `/${v.tool}`, v.input) : await post(app, "/verify", vectorRequest(v));
      expect(reply.status).toBe(200);
      for (const [key, value] of Object.entries(v.expect)) expect(reply.body[key]).toEqual(value);
    });
  }
});

describe("circle_click: published rollouts", () => {
  test("5 of 5 stored rewards reproduce from the materialized inputs", async () => {
    const inputs = new Map(readJsonlFile(dir, "data/example_rollouts_materialized_inputs.jsonl").map((r) => [`${r._ng_task_index}:${r._ng_rollout_index}`, r]));
    const app = createCircleClick();
    const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
    for (const rollout of rollouts) {
      const input = inputs.get(`${rollout._ng_task_index}:${rollout._ng_rollout_index}`)!;
      const reply = await post(app, "/verify", { ...input, response: rollout.response });
      expect(reply.status).toBe(200);
      for (const key of ["reward", "clicked_x", "clicked_y", "hit"]) expect(reply.body[key]).toEqual(rollout[key]);
    }
    expect(rollouts.map((r) => r.reward)).toEqual([1, 1, 0, 0, 0]);
  });
});

describe("circle_click: Python quirks reproduced on purpose", () => {
  const request = (args: string, circles = [{ x: 100, y: 100, radius: 10, color: "red" }]) => ({
    responses_create_params: { input: "click the red circle" },
    circles,
    target_color: "red",
    response: fullResponse({ output: [{ type: "function_call", name: "click", arguments: args, call_id: "c1" }] }),
  });

  test("int() of a negative float truncates toward zero (-0.5 → 0), not down", async () => {
    const reply = await post(createCircleClick(), "/verify", request('{"x": -0.5, "y": 100}', [{ x: 0, y: 100, radius: 0, color: "red" }]));
    expect(reply.body).toMatchObject({ clicked_x: 0, clicked_y: 100, hit: true, reward: 1 });
  });
  test("int(True) is 1: a boolean coordinate is accepted", async () => {
    const reply = await post(createCircleClick(), "/verify", request('{"x": true, "y": 1}', [{ x: 1, y: 1, radius: 0, color: "red" }]));
    expect(reply.body).toMatchObject({ clicked_x: 1, clicked_y: 1, hit: true });
  });
  test("int(' 1_00 ') is 100: whitespace and digit underscores are accepted in strings", async () => {
    const reply = await post(createCircleClick(), "/verify", request('{"x": " 1_00 ", "y": "100"}'));
    expect(reply.body).toMatchObject({ clicked_x: 100, clicked_y: 100, hit: true });
  });
  test("json.loads accepts NaN: int(nan) is a ValueError, swallowed → no click", async () => {
    const reply = await post(createCircleClick(), "/verify", request('{"x": NaN, "y": 1}'));
    expect(reply.body).toMatchObject({ clicked_x: null, clicked_y: null, reward: 0 });
  });
  test("int(Infinity) is an OverflowError NeMo Gym does not catch: HTTP 500", async () => {
    const reply = await post(createCircleClick(), "/verify", request('{"x": Infinity, "y": 1}'));
    expect(reply.status).toBe(500);
    expect(reply.body).toBe("OverflowError('cannot convert float infinity to integer')");
  });
  test("colour equality is Python ==: a colour 1 matches target_color only if equal (no coercion of '1')", async () => {
    const body = { ...request('{"x": 100, "y": 100}', [{ x: 100, y: 100, radius: 5, color: 1 as any }]), target_color: "1" };
    const reply = await post(createCircleClick(), "/verify", body);
    expect(reply.body.hit).toBe(false);
  });
});
