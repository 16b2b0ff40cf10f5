import { describe, expect, test } from "bun:test";
import { post, promptKey, readJsonFile, readJsonlFile, vectorRequest } from "../_common/testing.ts";
import createMultiStep from "./index.ts";

const dir = import.meta.dir;
const vectors = readJsonFile<{ vectors: any[] }>(dir, "_fixtures/test_vectors.json").vectors;

describe("example_multi_step: test vectors", () => {
  for (const v of vectors) {
    test(`${v.id} ${v.note ?? v.tool ?? ""}`, async () => {
      const app = createMultiStep();
      const reply = v.kind === "tool" ? await post(app, `/${v.tool}`, v.input) : await post(app, "/verify", vectorRequest(v));
      if (v.expect.http_status) {
        expect(reply.status).toBe(v.expect.http_status);
        expect(reply.body).toStartWith(`${v.expect.error.split(":")[0]}(`);
        return;
      }
      expect(reply.status).toBe(200);
      for (const [key, value] of Object.entries(v.expect)) expect(reply.body[key]).toEqual(value);
    });
  }
});

describe("example_multi_step: published rollouts", () => {
  test("5 of 5 stored rewards reproduce (expected values joined from example.jsonl by prompt)", async () => {
    const byPrompt = new Map(readJsonlFile(dir, "data/example.jsonl").map((r) => [promptKey(r.responses_create_params as any), r]));
    const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
    for (const rollout of rollouts) {
      const row = byPrompt.get(promptKey(rollout.responses_create_params as any))!;
      const reply = await post(createMultiStep(), "/verify", { ...row, response: rollout.response });
      expect(reply.status).toBe(200);
      for (const key of ["reward", "parsed_synonym_values", "accuracy", "set_overlap", "original_term_minefield_hit", "order_instruction_following_failure"]) {
        expect(reply.body[key]).toEqual(rollout[key]);
      }
    }
    expect(rollouts).toHaveLength(5);
  });
});

describe("example_multi_step: Python quirks reproduced on purpose", () => {
  const base = vectors.find((v) => v.kind === "verify")!;
  const withCall = (args: string, fields: Record<string, unknown> = {}) => {
    const request = vectorRequest(base);
    (request.response as any).output = [{ type: "function_call", name: "extract_synonym_values", arguments: args, call_id: "c1" }];
    return { ...request, ...fields };
  };
  test("the minefield label is a string, never == an int in the list", async () => {
    const reply = await post(createMultiStep(), "/verify", withCall('{"synonym_values": [533, 642]}', { minefield_label: "533" }));
    expect(reply.body.original_term_minefield_hit).toBe(false);
  });
  test("list equality is Python ==: 533.0 equals 533, and the response model coerces it to an int", async () => {
    const reply = await post(createMultiStep(), "/verify", withCall('{"synonym_values": [533.0, 642]}', { expected_synonym_values: [533, 642] }));
    expect(reply.body.accuracy).toBe(true);
    expect(reply.body.parsed_synonym_values).toEqual([533, 642]);
  });
  test("an empty expected list divides by zero: HTTP 500 ZeroDivisionError", async () => {
    const reply = await post(createMultiStep(), "/verify", withCall('{"synonym_values": []}', { expected_synonym_values: [] }));
    expect(reply.status).toBe(500);
    expect(reply.body).toBe("ZeroDivisionError('division by zero')");
  });
});
