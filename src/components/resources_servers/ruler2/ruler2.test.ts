import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gym } from "../../../testing/binary.ts";
import { fullResponse, post, readJsonlFile } from "../_common/testing.ts";
import { defaultParse, extractLetter, MATCH_TYPES, softMatch } from "./grade.ts";
import createRuler2, { SUBTASKS } from "./index.ts";

const dir = import.meta.dir;
const published = readJsonlFile(dir, "data/example_rollouts.jsonl");
/**
 * The published rows carry Chat Completions usage (`prompt_tokens`, …), which NeMo Gym's own NeMoGymResponse model
 * refuses with a 422 at 07d6b0d, as ours does (pinned below). Re-scoring needs that usage in the Responses shape; the
 * grade reads nothing of it.
 */
const rollouts: Record<string, any>[] = published.map((row: Record<string, any>) => {
  const u = row.response.usage;
  const usage = { input_tokens: u.prompt_tokens, input_tokens_details: { cached_tokens: 0 }, output_tokens: u.completion_tokens, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: u.total_tokens };
  return { ...row, response: { ...row.response, usage } };
});
const OUTPUTS = ["reward", "predicted_answer", "extracted_answer"];
const work = mkdtempSync(join(tmpdir(), "gym-ruler2-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const reply = (text: string) => fullResponse({ output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text }] }] });

// Values from NeMo Gym's app.py functions under CPython 3.11, `editdistance.eval` stood in for by a plain Levenshtein
// distance over the word lists (the package is not installable here).
describe("ruler2: the grades", () => {
  test("soft match: max(substring, 1 - WER), lower-cased; an empty reference is a substring", () => {
    const cases: [string, string, number][] = [["the number is 123 456", "123 456 789", 0], ["nothing here", "alpha beta gamma delta", 0], ["x", "", 1], ["Alpha BETA", "alpha beta", 1], ["one two three four", "one too three for five", 0.4]];
    for (const [pred, ref, score] of cases) expect(softMatch(pred, ref)).toBe(score);
  });
  test("match types: all (mean), part (max, Document N: blocks cut), 2steps (last paragraph); no references: 0", () => {
    expect(MATCH_TYPES.all!("a b c", ["a b", "c d", "e"])).toBe(0.3333333333333333);
    expect(MATCH_TYPES.part!("Document 1: foo\nbar\n\nanswer: Paris", ["foo", "paris"])).toBe(1);
    expect(MATCH_TYPES.part!("Document 1: foo\nbar\n\nanswer: x", ["foo bar"])).toBe(0);
    expect(MATCH_TYPES["2steps"]!("first 42\n\nsecond 7", ["42", "7"])).toBe(0.5);
    expect(MATCH_TYPES.all!("x", [])).toBe(0);
  });
  test("the multiple-choice letter: final-answer line, boxed, tail capital, Answer: fallback, full-width glyphs", () => {
    const texts = ["The final answer is C.", "blah \\boxed{B} more", "\\boxed{\\text{(D)}}", "Answer: b", "**Answer:** c", "The final answer is (A) or maybe B", "\\boxed{Ｃ}", "no letter here", "The final answer is x\nThe final answer is  D ", "\\boxed{ab} Answer: E", "}\\boxed{A}", "\\boxed{unclosed"];
    expect(texts.map(extractLetter)).toEqual(["C", "B", "D", "B", "C", "B", "C", null, "D", "E", "A", null]);
    expect(["  a\x01b\tc \n", "\x00x\x1f"].map(defaultParse)).toEqual(["a\nb\nc", "x"]);
  });
  test("an unknown match_type is a 500 (ValueError), as in NeMo Gym", async () => {
    const r = await post(createRuler2(), "/verify", { responses_create_params: { input: "q" }, response: reply("x"), expected_answer: ["x"], match_type: "fuzzy" });
    expect(r.status).toBe(500);
  });
  test("the suite mean appears only when all 12 sub-tasks are present", async () => {
    const { default: factory } = await import("./index.ts");
    const metrics = factory.definition.computeMetrics!;
    const tasks = (names: string[]) => names.map((task, i) => [{ reward: i % 2, task }, { reward: 1, task }]);
    const full = metrics(tasks(SUBTASKS), {} as never) as Record<string, unknown>;
    expect(Number(full["ruler2_suite_avg/pass@1[avg-of-2]/accuracy"])).toBe(75);
    const partial = metrics(tasks(SUBTASKS.slice(1)), {} as never) as Record<string, unknown>;
    expect(Object.keys(partial).some((k) => k.startsWith("ruler2_suite_avg/"))).toBe(false);
  });
});

describe("ruler2: NeMo Gym's published rollouts", () => {
  test("as published, every row is a 422 on response.usage (NeMo Gym's current model refuses it too)", async () => {
    for (const row of published) {
      const r = await post(createRuler2(), "/verify", Object.fromEntries(Object.entries(row).filter(([k]) => !OUTPUTS.includes(k))));
      expect(r.status).toBe(422);
      expect(r.body.detail.map((d: any) => d.loc.join("."))).toContain("body.response.usage.input_tokens");
    }
  });
  test("5 of 5 rows reproduce through /verify (usage in the Responses shape): reward, predicted and extracted answers, in NeMo Gym's key order", async () => {
    const app = createRuler2();
    for (const rollout of rollouts) {
      const r = await post(app, "/verify", Object.fromEntries(Object.entries(rollout).filter(([k]) => !OUTPUTS.includes(k))));
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(["responses_create_params", "response", "reward", "eval_type", "match_type", "task", "length", "predicted_answer", "extracted_answer"]);
      for (const key of [...OUTPUTS, "eval_type", "match_type", "task", "length"]) expect(r.body[key]).toEqual(rollout[key]);
    }
    expect(rollouts).toHaveLength(5);
  });
  test("gym eval reverify on the binary re-scores them exactly (reverify mode unknown, as NeMo Gym: --force)", async () => {
    const stamped: Record<string, any>[] = rollouts.map((r, i) => ({ ...r, _ng_task_index: i, _ng_rollout_index: 0 }));
    writeFileSync(join(work, "rollouts_materialized_inputs.jsonl"), `${stamped.map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).filter(([k]) => !OUTPUTS.includes(k) && k !== "response")))).join("\n")}\n`);
    writeFileSync(join(work, "rollouts.jsonl"), `${stamped.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const r = await gym(["eval", "reverify", "--resources-server", "ruler2", "--inputs", join(work, "rollouts_materialized_inputs.jsonl"), "--rollouts", join(work, "rollouts.jsonl"), "-o", join(work, "reverified.jsonl"), "--force"]);
    expect(r.stderr).not.toContain("Error");
    expect(r.code).toBe(0);
    const got = readFileSync(join(work, "unsafe_reverified.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(got.map((row) => OUTPUTS.map((k) => row[k]))).toEqual(stamped.map((row) => OUTPUTS.map((k) => row[k])));
    const metrics = JSON.parse(readFileSync(join(work, "unsafe_reverified_aggregate_metrics.json"), "utf8"));
    expect(JSON.stringify(metrics)).toContain("mk_niah_basic/pass@1/accuracy");
  }, 120_000);
});
