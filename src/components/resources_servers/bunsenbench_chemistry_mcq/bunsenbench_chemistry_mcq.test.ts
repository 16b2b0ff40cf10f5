import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { PyFloat } from "../../../metrics/pyjson.ts";
import { reverifyPublished } from "../../../testing/published-rollouts.ts";
import { fullResponse, post, readJsonFile, readJsonlFile } from "../_common/testing.ts";
import { allowedLetters } from "../mcqa/extract.ts";
import { extractBunsenAnswer, normalizeChemistryText } from "./extract.ts";
import createBunsen, { metricSegment } from "./index.ts";

const dir = import.meta.dir;
type Case = { args: any[]; expected: any };
const golden = readJsonFile<Record<string, Case[]>>(join(dir, "..", "..", "..", ".."), "fixtures/qa/golden.json");
const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
const OUTPUTS = ["reward", "extracted_answer", "no_answer", "error_mode", "source", "bct_field", "bct_subfield"];
const reply = (text: string, extra: Record<string, unknown> = {}) => fullResponse({ output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text }] }], ...extra });
const params = { input: [{ role: "user", content: "Q?" }] };
const options = [{ A: "OH-" }, { B: "H2O" }, { C: "H3O+" }, { D: "O2" }];

describe("bunsenbench_chemistry_mcq: answer reading (labelled by NeMo Gym's own app.py, scripts/qa-golden.py)", () => {
  test("extract_bunsen_answer over 96 (reply, options) pairs", () => {
    for (const { args, expected } of golden["bunsen.extract"]!) expect([args[0], extractBunsenAnswer(args[0], args[1], allowedLetters(args[1]))]).toEqual([args[0], expected]);
  });
  test("normalize_chemistry_text (html.unescape, NFKC, folds) and metric segments", () => {
    for (const { args, expected } of golden["bunsen.normalize"]!) expect(normalizeChemistryText(args[0])).toBe(expected);
    for (const { args, expected } of golden["bunsen.segment"]!) expect(metricSegment(args[0])).toBe(expected);
  });
  test("the gold letter from expected_answer (a letter, wrapped, or an option's text)", async () => {
    const app = createBunsen();
    for (const { args, expected } of golden["bunsen.expected_letter"]!) {
      const r = await post(app, "/verify", { responses_create_params: params, response: reply(""), expected_answer: args[0], options: args[1].map((o: Record<string, string>) => o) });
      expect([args[0], r.body.expected_answer]).toEqual([args[0], expected]);
    }
  });
});

describe("bunsenbench_chemistry_mcq: error modes and the response", () => {
  const verify = async (response: Record<string, unknown>, extra: Record<string, unknown> = {}) => (await post(createBunsen(), "/verify", { responses_create_params: params, response, options, expected_answer: "B", ...extra })).body;
  test("one mode per rollout: refusal part, truncation, unclosed think, refusal text, malformed choice, format violation", async () => {
    expect((await verify(reply("<choice>O2</choice>"))).error_mode).toBe("wrong_answer");
    expect((await verify(fullResponse({ output: [{ type: "message", role: "assistant", content: [{ type: "refusal", refusal: "no" }] }] }))).error_mode).toBe("refusal");
    expect((await verify(reply("thinking...", { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } }))).error_mode).toBe("early_termination");
    expect((await verify(reply("<think>still going"))).error_mode).toBe("early_termination");
    expect((await verify(reply("I'm sorry, but I can't help with that."))).error_mode).toBe("refusal");
    expect((await verify(reply("<choice>water</choice>"))).error_mode).toBe("malformed_choice");
    expect((await verify(reply("no idea"))).error_mode).toBe("format_violation");
  });
  test("choices stand in for options; metadata fills bunsen_id/source/bct_*; NeMo Gym's response keys", async () => {
    const body = await verify(reply("<choice>H2O</choice>"), { options: null, choices: ["OH-", { letter: "b", text: "H2O" }], metadata: { bunsen_id: "x:1", source: "s", bct_field: "f" }, expected_answer: "B" });
    expect([body.reward, body.extracted_answer, body.bunsen_id, body.source, body.bct_field, body.bct_subfield]).toEqual([1, "B", "x:1", "s", "f", null]);
    expect(Object.keys(body)).toEqual(["responses_create_params", "response", "reward", "expected_answer", "extracted_answer", "uuid", "bunsen_id", "choices", "no_answer", "error_mode", "source", "bct_field", "bct_subfield", "metadata"]);
  });
});

describe("bunsenbench_chemistry_mcq: error-mode metrics", () => {
  test("rollouts without error_mode fall back on reward (0.0 is falsy) and extracted_answer", () => {
    const tasks = [[{ reward: new PyFloat(0), extracted_answer: "A" }], [{ reward: new PyFloat(1), extracted_answer: "B" }], [{ reward: new PyFloat(0), extracted_answer: null }], [{ reward: 0, error_mode: "refusal" }]];
    const metrics = JSON.parse(JSON.stringify(createBunsen.definition.computeMetrics!(tasks as never, {} as never)));
    expect([metrics["error_modes/correct/count"], metrics["error_modes/wrong_answer/count"], metrics["error_modes/format_violation/count"], metrics["error_modes/refusal"]]).toEqual([1, 1, 1, 25]);
  });
});

describe("bunsenbench_chemistry_mcq: NeMo Gym's published rollouts", () => {
  test("5 of 5: reward, letter, error mode and taxonomy fields through /verify", async () => {
    const app = createBunsen();
    for (const rollout of rollouts) {
      const r = await post(app, "/verify", Object.fromEntries(Object.entries(rollout).filter(([k]) => !OUTPUTS.includes(k))));
      expect(r.status).toBe(200);
      expect(OUTPUTS.map((k) => r.body[k])).toEqual(OUTPUTS.map((k) => rollout[k]));
    }
    expect(rollouts).toHaveLength(5);
  });
  test("gym eval reverify on the binary re-scores them exactly; by_source / by_bct_subfield / error_modes metrics", async () => {
    const r = await reverifyPublished("bunsenbench_chemistry_mcq", rollouts, OUTPUTS, { force: true });
    expect(r.code).toBe(0);
    expect(r.rows.map((row) => [row._ng_task_index, row.reward, row.error_mode])).toEqual(rollouts.map((row) => [row._ng_task_index, row.reward, row.error_mode]));
    const metrics = JSON.stringify(r.metrics);
    for (const k of ["by_source/example/pass@1/accuracy", "by_bct_subfield/general/acids_bases/pass@1/accuracy", '"error_modes/correct/count":', "by_bct_field/organic/"]) expect(metrics).toContain(k);
  }, 120_000);
});
