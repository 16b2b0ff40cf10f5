import { describe, expect, test } from "bun:test";
import { fullResponse, post, promptKey, readJsonlFile } from "../_common/testing.ts";
import createServer from "./index.ts";

const dir = import.meta.dir;

function response(text: string) {
  return fullResponse({ output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text }] }] });
}

function request(ids: string[], kwargs: unknown[], text: string, extra: Record<string, unknown> = {}) {
  return {
    id: 1,
    responses_create_params: { input: [{ role: "user", content: "prompt" }] },
    response: response(text),
    verifier_metadata: { instruction_id_list: ids, prompt: "prompt", kwargs, ...extra },
  };
}

describe("instruction_following: NeMo Gym's published rollouts", () => {
  test("example_rollouts.jsonl re-scores exactly (reward and every per-instruction verdict)", async () => {
    const rows = new Map(readJsonlFile(dir, "data/example.jsonl").map((r) => [promptKey(r.responses_create_params as any), r]));
    const app = createServer();
    const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
    expect(rollouts).toHaveLength(5);
    for (const rollout of rollouts) {
      const row = rows.get(promptKey(rollout.responses_create_params as any))!;
      const reply = await post(app, "/verify", { ...row, response: rollout.response });
      expect(reply.status).toBe(200);
      expect([reply.body.reward, reply.body.follow_instruction_list]).toEqual([rollout.reward, rollout.follow_instruction_list]);
    }
  });
});

describe("instruction_following: NeMo Gym's tests/test_app.py", () => {
  const cases: [string, string[], unknown[], string, string, number, boolean[]][] = [
    ["title positive", ["detectable_format:title"], [{}], "<<My Title>>\n\nThis is the content of my response.", "binary", 1, [true]],
    ["title negative", ["detectable_format:title"], [{}], "This response has no title.", "binary", 0, [false]],
    ["no comma positive", ["punctuation:no_comma"], [{}], "Hello world without commas at all", "binary", 1, [true]],
    ["no comma negative", ["punctuation:no_comma"], [{}], "Hello, world with commas", "binary", 0, [false]],
    ["word count positive", ["length_constraints:number_words"], [{ num_words: 6, relation: "at least" }], "This response has exactly six words.", "binary", 1, [true]],
    ["word count negative", ["length_constraints:number_words"], [{ num_words: 10, relation: "at least" }], "Too short.", "binary", 0, [false]],
    ["multiple positive", ["detectable_format:title", "punctuation:no_comma"], [{}, {}], "<<My Great Title>>\n\nThis is a response without any commas at all.", "binary", 1, [true, true]],
    ["multiple negative", ["detectable_format:title", "punctuation:no_comma"], [{}, {}], "<<My Great Title>>\n\nThis response has commas, which should fail.", "binary", 0, [true, false]],
    ["fraction half", ["detectable_format:title", "punctuation:no_comma"], [{}, {}], "<<My Great Title>>\n\n with a comma here, okay.", "fraction", 0.5, [true, false]],
  ];
  for (const [name, ids, kwargs, text, mode, reward, list] of cases) {
    test(name, async () => {
      const reply = await post(createServer(), "/verify", request(ids, kwargs, text, { grading_mode: mode }));
      expect(reply.status).toBe(200);
      expect([reply.body.reward, reply.body.follow_instruction_list, reply.body.follow_all_instructions]).toEqual([reward, list, list.every(Boolean)]);
    });
  }

  test("legacy top-level fields are migrated; explicit verifier_metadata wins", async () => {
    const legacy = await post(createServer(), "/verify", {
      id: 1,
      instruction_id_list: ["detectable_format:title", "punctuation:no_comma"],
      prompt: "p",
      kwargs: [{}, {}],
      grading_mode: "fraction",
      responses_create_params: { input: [] },
      response: response("<<My Great Title>>\n\n with a comma here, okay."),
    });
    expect([legacy.status, legacy.body.reward, legacy.body.verifier_metadata.grading_mode]).toEqual([200, 0.5, "fraction"]);
    const both = await post(createServer(), "/verify", {
      ...request(["detectable_format:title"], [{}], "<<My Title>>\n\nbody"),
      instruction_id_list: ["punctuation:no_comma"],
      kwargs: [{}],
    });
    expect([both.body.reward, both.body.verifier_metadata.instruction_id_list]).toEqual([1, ["detectable_format:title"]]);
  });

  test("the response: NeMo Gym's fields, then the loose scores", async () => {
    const reply = await post(createServer(), "/verify", request(["detectable_format:title"], [null], "<<T>>"));
    expect(Object.keys(reply.body)).toEqual([
      "responses_create_params",
      "response",
      "reward",
      "follow_all_instructions",
      "follow_instruction_list",
      "verifier_metadata",
      "reward_loose",
      "follow_all_instructions_loose",
      "follow_instruction_list_loose",
    ]);
  });
});

describe("instruction_following: loose scoring", () => {
  test("a first line that breaks the rule is forgiven by loose, not by strict", async () => {
    const reply = await post(createServer(), "/verify", request(["punctuation:no_comma"], [{}], "Sure, here it is:\nNo commas in this line"));
    expect([reply.body.follow_instruction_list, reply.body.follow_instruction_list_loose, reply.body.reward, reply.body.reward_loose]).toEqual([[false], [true], 0, 1]);
  });
  test("asterisks stripped: markdown bold around a title-less answer still has no title", async () => {
    const reply = await post(createServer(), "/verify", request(["startend:quotation"], [{}], '**"Quoted answer"**'));
    expect([reply.body.follow_instruction_list, reply.body.follow_instruction_list_loose]).toEqual([[false], [true]]);
  });
});

describe("instruction_following: bad rows are 422s naming the field", () => {
  test("unknown instruction id", async () => {
    const reply = await post(createServer(), "/verify", request(["detectable_format:titel"], [{}], "x"));
    expect(reply.status).toBe(422);
    expect(reply.body.detail[0].loc).toEqual(["body", "verifier_metadata", "instruction_id_list", 0]);
    expect(reply.body.detail[0].msg).toContain("Unknown instruction id 'detectable_format:titel'");
  });
  test("kwargs of the wrong type", async () => {
    const reply = await post(createServer(), "/verify", request(["length_constraints:number_words"], [{ num_words: "many", relation: "at least" }], "x"));
    expect(reply.status).toBe(422);
    expect(reply.body.detail[0].loc).toEqual(["body", "verifier_metadata", "kwargs", 0, "num_words"]);
    expect(reply.body.detail[0].msg).toContain("Input should be an integer");
  });
  test("missing instruction_id_list", async () => {
    const body = request([], [], "x");
    delete (body.verifier_metadata as any).instruction_id_list;
    const reply = await post(createServer(), "/verify", body);
    expect(reply.status).toBe(422);
    expect(reply.body.detail[0].loc).toEqual(["body", "verifier_metadata", "instruction_id_list"]);
    expect(reply.body.detail[0].msg).toContain("verifier_metadata is missing required fields: ['instruction_id_list']");
  });
  test("a required kwarg left to upstream's random draw", async () => {
    const reply = await post(createServer(), "/verify", request(["length_constraints:number_words"], [{ relation: "at least" }], "x"));
    expect(reply.status).toBe(422);
    expect(reply.body.detail[0].loc).toEqual(["body", "verifier_metadata", "kwargs", 0, "num_words"]);
  });
});
