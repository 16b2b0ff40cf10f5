import { describe, expect, test } from "bun:test";
import { post, readJsonFile, readJsonlFile, vectorRequest } from "../_common/testing.ts";
import createMultiReward from "./index.ts";

const dir = import.meta.dir;
const vectors = readJsonFile<{ vectors: any[] }>(dir, "_fixtures/test_vectors.json").vectors;

describe("example_tool_call_multireward: test vectors", () => {
  for (const v of vectors) {
    test(`${v.id} ${v.upstream_test ?? v.note ?? ""}`, async () => {
      const app = createMultiReward();
      const reply = v.kind === "tool" ? await post(app, `/${v.tool}`, v.input) : await post(app, "/verify", vectorRequest(v));
      expect(reply.status).toBe(200);
      for (const [key, value] of Object.entries(v.expect)) expect(reply.body[key]).toEqual(value);
    });
  }
});

describe("example_tool_call_multireward: published rollouts", () => {
  test("5 of 5 stored rewards and components reproduce (expected_call from example.jsonl line _ng_task_index)", async () => {
    const dataset = readJsonlFile(dir, "data/example.jsonl");
    const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
    for (const rollout of rollouts) {
      const row = dataset[rollout._ng_task_index as number]!;
      const reply = await post(createMultiReward(), "/verify", { ...row, response: rollout.response });
      expect(reply.status).toBe(200);
      for (const key of ["reward", "reward_components", "correctness", "schema_valid", "format", "predicted_calls"]) expect(reply.body[key]).toEqual(rollout[key]);
    }
    expect(rollouts.map((r) => r.reward)).toEqual([2, 2, 2, 2, 2]);
  });

  test("component floats print as Python floats (1.0), as the metrics need", async () => {
    const v = vectors.find((x) => x.kind === "verify")!;
    const res = await createMultiReward().request("http://localhost/verify", { method: "POST", body: JSON.stringify(vectorRequest(v)) });
    expect(await res.text()).toContain('"reward_components":{"correctness":1.0,"schema_valid":1.0,"format":1.0},"correctness":1.0');
  });
});

describe("example_tool_call_multireward: Python equality reproduced on purpose", () => {
  const v = vectors.find((x) => x.id === "example_tool_call_multireward/017")!;
  test("true == 1 (the vector): a boolean argument matches an expected 1", async () => {
    expect((await post(createMultiReward(), "/verify", vectorRequest(v))).body.correctness).toBe(1);
  });
  test("an expected null matches a missing argument (dict.get returns None)", async () => {
    const request = vectorRequest(v);
    (request.expected_call as any) = { name: (request.expected_call as any).name, arguments: { absent: null } };
    expect((await post(createMultiReward(), "/verify", request)).body.correctness).toBe(1);
  });
  test("'1' != 1: strings are never coerced", async () => {
    const request = vectorRequest(v);
    const call = (request.response as any).output.find((o: any) => o.type === "function_call");
    const args = JSON.parse(call.arguments);
    const [k] = Object.keys((request.expected_call as any).arguments);
    call.arguments = JSON.stringify({ ...args, [k!]: String((request.expected_call as any).arguments[k!]) });
    expect((await post(createMultiReward(), "/verify", request)).body.correctness).toBe(0);
  });
});
