import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { fullResponse, post, promptKey, readJsonlFile } from "../_common/testing.ts";
import { agreementById, type RecordedRow } from "../_instructions/agreement.ts";
import { looseVariants } from "../_instructions/score.ts";
import createServer, { IFBENCH_REGISTRY } from "./index.ts";

const dir = import.meta.dir;
const fixtures = join(dir, "../../../../fixtures/instructions");

function request(ids: string[], kwargs: unknown[], text: string, grading_mode = "fraction") {
  return {
    id: 1,
    instruction_id_list: ids,
    prompt: "p",
    kwargs,
    grading_mode,
    responses_create_params: { input: [] },
    response: fullResponse({ output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text }] }] }),
  };
}

describe("ifbench: NeMo Gym's published rollouts", () => {
  test("example_rollouts.jsonl re-scores exactly", async () => {
    const rows = new Map(readJsonlFile(dir, "data/example.jsonl").map((r) => [promptKey(r.responses_create_params as any), r]));
    const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
    expect(rollouts).toHaveLength(5);
    for (const rollout of rollouts) {
      const row = rows.get(promptKey(rollout.responses_create_params as any))!;
      const reply = await post(createServer(), "/verify", { ...row, response: rollout.response });
      expect(reply.status).toBe(200);
      expect([reply.body.reward, reply.body.follow_instruction_list]).toEqual([rollout.reward, rollout.follow_instruction_list]);
    }
  });
});

describe("ifbench: IFBench's own recorded verdicts (eval/eval_results_{strict,loose}.jsonl, 294 responses)", () => {
  const rows = readJsonlFile(fixtures, "ifbench_eval_results.jsonl") as unknown as RecordedRow[];
  const agreement = agreementById(IFBENCH_REGISTRY, rows, true);
  // The only disagreements: nltk's perceptron tagger calls sentence-initial imperatives ("Conceive", "Build") NNP
  // where wink-pos-tagger says VB; one syllable count differs between syllapy and the syllable package.
  const known: Record<string, [number, number, number]> = { "words:start_verb": [6, 3, 3], "words:odd_even_syllables": [9, 9, 8] };
  test("57 instruction ids; 332 of 335 strict and 331 of 335 loose verdicts agree", () => {
    expect(agreement).toHaveLength(57);
    const total = agreement.reduce((t, a) => [t[0]! + a.cases, t[1]! + a.strict, t[2]! + a.loose], [0, 0, 0]);
    expect(total).toEqual([335, 332, 331]);
  });
  for (const a of agreement) {
    test(`${a.id}: ${a.strict}/${a.cases} strict, ${a.loose}/${a.cases} loose`, () => {
      expect([a.cases, a.strict, a.loose]).toEqual(known[a.id] ?? [a.cases, a.cases, a.cases]);
    });
  }
});

describe("ifbench: NeMo Gym's tests/test_app.py", () => {
  test("count:numbers, fraction and binary grading, blank responses", async () => {
    const app = createServer();
    const r1 = await post(app, "/verify", request(["count:numbers"], [{ N: 2 }], "The values are 42 and 7."));
    expect([r1.body.reward, r1.body.follow_instruction_list]).toEqual([1, [true]]);
    const r2 = await post(app, "/verify", request(["count:numbers"], [{ N: 2 }], "There are no digits here at all."));
    expect(r2.body.reward).toBe(0);
    const r3 = await post(app, "/verify", request(["count:numbers", "words:start_verb"], [{ N: 1 }, {}], "The answer is 42."));
    expect([r3.body.reward, r3.body.follow_all_instructions]).toEqual([0.5, false]);
    const r4 = await post(app, "/verify", request(["count:numbers", "words:start_verb"], [{ N: 1 }, {}], "The answer is 42.", "binary"));
    expect(r4.body.reward).toBe(0);
    const r5 = await post(app, "/verify", request(["count:numbers", "words:start_verb"], [{ N: 3 }, {}], "   "));
    expect([r5.body.follow_instruction_list, r5.body.follow_instruction_list_loose, r5.body.reward_loose]).toEqual([[false, false], [false, false], 0]);
  });
  test("loose rescues a strict failure; fraction loose", async () => {
    const text = "Reference values: 100 200 300\nThe answer is 42 and 7.";
    const r = await post(createServer(), "/verify", request(["count:numbers", "count:numbers"], [{ N: 2 }, { N: 99 }], text));
    expect([r.body.follow_instruction_list, r.body.follow_instruction_list_loose, r.body.reward, r.body.reward_loose]).toEqual([[false, false], [true, false], 0, 0.5]);
  });
  test("loose variants: 8, the response first", () => {
    const v = looseVariants("intro\n*body*\noutro");
    expect(v).toHaveLength(8);
    expect(v[0]).toBe("intro\n*body*\noutro");
    expect(v).toEqual(expect.arrayContaining(["intro\nbody\noutro", "*body*\noutro", "intro\n*body*", "*body*"]));
  });
  test("the response echoes the row's fields in NeMo Gym's order", async () => {
    const r = await post(createServer(), "/verify", request(["count:numbers"], [{ N: 2 }], "Use 1 and 2."));
    expect(Object.keys(r.body)).toEqual([
      "responses_create_params", "response", "reward", "follow_all_instructions", "follow_instruction_list",
      "follow_all_instructions_loose", "follow_instruction_list_loose", "reward_loose", "kwargs", "instruction_id_list", "prompt", "grading_mode",
    ]);
    expect([r.body.prompt, r.body.grading_mode]).toEqual(["p", "fraction"]);
  });
});

describe("ifbench: bad rows are 422s naming the field", () => {
  test("unknown instruction id (NeMo Gym scores it False; we refuse the row)", async () => {
    const r = await post(createServer(), "/verify", request(["totally:unknown_instruction"], [{}], "x"));
    expect([r.status, r.body.detail[0].loc]).toEqual([422, ["body", "instruction_id_list", 0]]);
  });
  test("wrong-typed kwargs", async () => {
    const r = await post(createServer(), "/verify", request(["count:numbers"], [{ N: "two" }], "x"));
    expect([r.status, r.body.detail[0].loc]).toEqual([422, ["body", "kwargs", 0, "N"]]);
  });
  test("missing instruction_id_list", async () => {
    const body: any = request([], [], "x");
    delete body.instruction_id_list;
    const r = await post(createServer(), "/verify", body);
    expect([r.status, r.body.detail[0].loc, r.body.detail[0].msg]).toEqual([422, ["body", "instruction_id_list"], "Field required"]);
  });
});
