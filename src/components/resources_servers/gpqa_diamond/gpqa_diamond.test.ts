import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { reverifyPublished } from "../../../testing/published-rollouts.ts";
import { fullResponse, post, readJsonFile, readJsonlFile } from "../_common/testing.ts";
import createGpqaDiamond, { gpqaLetter } from "./index.ts";

const dir = import.meta.dir;
const golden = readJsonFile<Record<string, { args: string[]; expected: string | null }[]>>(join(dir, "..", "..", "..", ".."), "fixtures/qa/golden.json");
const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
const OUTPUTS = ["reward", "extracted_answer"];
const reply = (text: string) => fullResponse({ output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text }] }] });
const params = { input: [{ role: "user", content: "Q?" }] };
const options = [{ A: "a" }, { B: "b" }, { C: "c" }, { D: "d" }];

describe("gpqa_diamond: extract_letter (labelled by NeMo Gym's own function, scripts/qa-golden.py)", () => {
  for (const { args, expected } of golden["gpqa_diamond.extract_letter"]!) {
    test(JSON.stringify(args[0]), () => expect(gpqaLetter(args[0]!)).toBe(expected));
  }
});

describe("gpqa_diamond: verify (NeMo Gym's tests/test_app.py cases)", () => {
  test("template regex first: `Final Choice: c` beats `Answer: A`", async () => {
    const body = { responses_create_params: params, response: reply("Answer: A\nFinal Choice: c"), options, expected_answer: "C", template_metadata: { output_regex: String.raw`Final Choice:\s*([A-D])` } };
    const r = await post(createGpqaDiamond(), "/verify", body);
    expect([r.body.reward, r.body.extracted_answer]).toEqual([1, "C"]);
  });
  test("`Answer: C` and `\\boxed{C}` both read; a letter outside the options is no answer", async () => {
    const app = createGpqaDiamond();
    for (const text of ["Reasoning...\nAnswer: C", "Final: \\boxed{C}"]) {
      const r = await post(app, "/verify", { responses_create_params: params, response: reply(text), options, expected_answer: "C" });
      expect([r.body.reward, r.body.extracted_answer]).toEqual([1, "C"]);
    }
    const bad = await post(app, "/verify", { responses_create_params: params, response: reply("Answer: E"), options, expected_answer: "C" });
    expect([bad.body.reward, bad.body.extracted_answer]).toEqual([0, null]);
    expect(Object.keys(bad.body)).toEqual(["responses_create_params", "response", "reward", "expected_answer", "extracted_answer"]);
  });
  test("a list of patterns is a TypeError (500), as NeMo Gym's single-pattern call raises", async () => {
    const r = await post(createGpqaDiamond(), "/verify", { responses_create_params: params, response: reply("Answer: C"), options, expected_answer: "C", template_metadata: { output_regex: ["(C)"] } });
    expect(r.status).toBe(500);
  });
  test("reverify mode is unknown (NeMo Gym pins it back from mcqa's stateless)", async () => {
    const mode = await createGpqaDiamond().request("http://localhost/reverify_mode");
    expect(await mode.json()).toBe("unknown");
  });
});

describe("gpqa_diamond: NeMo Gym's published rollouts", () => {
  test("5 of 5 rewards and letters through /verify", async () => {
    const app = createGpqaDiamond();
    for (const rollout of rollouts) {
      const r = await post(app, "/verify", Object.fromEntries(Object.entries(rollout).filter(([k]) => !OUTPUTS.includes(k))));
      expect(r.status).toBe(200);
      expect([r.body.reward, r.body.extracted_answer]).toEqual([rollout.reward, rollout.extracted_answer]);
    }
    expect(rollouts).toHaveLength(5);
  });
  test("gym eval reverify on the binary re-scores them exactly (--force: reverify mode unknown)", async () => {
    const refused = await reverifyPublished("gpqa_diamond", rollouts, OUTPUTS);
    expect(refused.code).not.toBe(0);
    const r = await reverifyPublished("gpqa_diamond", rollouts, OUTPUTS, { force: true });
    expect(r.code).toBe(0);
    expect(r.rows.map((row) => [row._ng_task_index, row.reward, row.extracted_answer])).toEqual(rollouts.map((row) => [row._ng_task_index, row.reward, row.extracted_answer]).sort((a, b) => (a[0] as number) - (b[0] as number)));
    expect(JSON.stringify(r.metrics)).toContain("pass@1/accuracy");
  }, 120_000);
});
