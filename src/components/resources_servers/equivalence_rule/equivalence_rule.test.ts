import { describe, expect, test } from "bun:test";
import { post, readJsonFile, readJsonlFile, vectorRequest } from "../_common/testing.ts";
import { sequenceRatio } from "../../../text/difflib.ts";
import createEquivalenceRule, { grade, gradeExact, gradeSeqMatch, gradeWeightedSeqMatch, normalize } from "./index.ts";

const dir = import.meta.dir;
const vectors = readJsonFile<{ vectors: any[] }>(dir, "_fixtures/test_vectors.json").vectors;
const units: Record<string, (...args: any[]) => unknown> = {
  _normalize: normalize,
  _grade_exact: gradeExact,
  _grade_seq_match: gradeSeqMatch,
  _grade_weighted_seq_match: gradeWeightedSeqMatch,
  _grade: grade,
};

describe("equivalence_rule: test vectors", () => {
  for (const v of vectors) {
    test(`${v.id} ${v.upstream_test ?? v.note ?? ""}`, async () => {
      if (v.kind === "unit") {
        expect(units[v.function]!(...v.args)).toBe(v.expect.return);
        return;
      }
      const reply = await post(createEquivalenceRule(v.server_config ?? {}), "/verify", vectorRequest(v));
      expect(reply.status).toBe(200);
      for (const [key, value] of Object.entries(v.expect)) expect(reply.body[key]).toEqual(value);
    });
  }
});

describe("equivalence_rule: published rollouts (config lc.yaml: grading_rule exact)", () => {
  test("5 of 5 stored rewards reproduce from the rollout rows alone", async () => {
    const app = createEquivalenceRule({ grading_rule: "exact" });
    const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
    const got: unknown[] = [];
    for (const rollout of rollouts) {
      const { reward, equivalence_score, ...row } = rollout;
      const reply = await post(app, "/verify", row);
      expect(reply.status).toBe(200);
      got.push(reply.body.reward);
    }
    expect(got).toEqual(rollouts.map((r) => r.reward));
    expect(got).toEqual([1, 0, 0, 0, 0]);
  });

  test("extra row fields are echoed after the declared ones (extra=allow)", async () => {
    const [rollout] = readJsonlFile(dir, "data/example_rollouts.jsonl");
    const { reward, equivalence_score, ...row } = rollout!;
    const reply = await post(createEquivalenceRule(), "/verify", row);
    expect(Object.keys(reply.body)).toEqual([
      "responses_create_params", "response", "reward", "equivalence_score",
      "expected_answer", "agent_ref", "question", "dataset", "source", "hashid", "context_length",
    ]);
  });
});

describe("equivalence_rule: Python quirks reproduced on purpose", () => {
  test("difflib's autojunk: answers of 200+ characters ignore popular characters while matching", () => {
    // Checked against CPython's difflib: 0.2333… with autojunk (the default), 0.6766… without.
    const v = vectors.find((x) => x.id === "equivalence_rule/031");
    const response = v.request.response.output[0].content[0].text;
    const answer = v.request.fields.expected_answer;
    expect(gradeSeqMatch(response, answer)).toBe(0.23333333333333334);
    expect(sequenceRatio(normalize(response), normalize(answer), false)).toBe(0.6766666666666666);
  });
  test("Python's \\s includes \\x1c-\\x1f and \\x85: they collapse to one space", () => {
    expect(normalize("a\x1c\x85b")).toBe("a b");
  });
  test("lengths are code points: an emoji counts once in the 10-character prefix", () => {
    // CPython: SequenceMatcher ratio over code points, so this is exactly 1.0.
    expect(gradeWeightedSeqMatch("😀bcdefghijk", "😀bcdefghijk")).toBe(1);
    expect(gradeSeqMatch("😀a", "😀b")).toBe(0.5);
  });
});
