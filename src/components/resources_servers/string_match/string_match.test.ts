import { describe, expect, test } from "bun:test";
import { post, readJsonFile, readJsonlFile, vectorRequest } from "../_common/testing.ts";
import createStringMatch, { answersMatch, extractAnswer, gradeStringMatch } from "./index.ts";

const dir = import.meta.dir;
const vectors = readJsonFile<{ vectors: any[] }>(dir, "_fixtures/test_vectors.json").vectors;
const units: Record<string, (...args: any[]) => unknown> = {
  _grade_string_match: gradeStringMatch,
  _answers_match: answersMatch,
  _extract_answer: extractAnswer,
};

describe("string_match: test vectors", () => {
  for (const v of vectors) {
    test(`${v.id} ${v.upstream_test ?? v.note ?? ""}`, async () => {
      if (v.kind === "unit") {
        expect(units[v.function]!(...v.args)).toEqual(v.expect.return);
        return;
      }
      const reply = await post(createStringMatch(), "/verify", vectorRequest(v));
      expect(reply.status).toBe(200);
      for (const [key, value] of Object.entries(v.expect)) expect(reply.body[key]).toEqual(value);
    });
  }
});

describe("string_match: published rollouts", () => {
  test("5 of 5 stored rewards reproduce (rows joined to example.jsonl on _ng_task_index)", async () => {
    const dataset = readJsonlFile(dir, "data/example.jsonl");
    const app = createStringMatch();
    const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
    for (const rollout of rollouts) {
      const row = dataset[rollout._ng_task_index as number]!;
      const reply = await post(app, "/verify", { ...row, response: rollout.response });
      expect(reply.body.reward).toBe(rollout.reward as number);
      expect(reply.body.extracted_answer).toBe(rollout.extracted_answer as string);
    }
    expect(rollouts).toHaveLength(5);
  });
});

describe("string_match: Python quirks reproduced on purpose", () => {
  test("str(float(x)): '1e3' and '1000' are equal because both print as 1000.0", () => {
    expect(gradeStringMatch("1000", "1e3")).toBe(1);
  });
  test("float() accepts underscores between digits: '1_000' == '1000'", () => {
    expect(gradeStringMatch("1000", "1_000")).toBe(1);
  });
  test("Python strip() removes \\x1c..\\x1f (JavaScript trim() does not)", () => {
    expect(answersMatch("\x1fblue\x1c", "blue", true)).toBe(1);
  });
  test("Python splitlines() also breaks on \\x1e and \\x85", () => {
    expect(extractAnswer("first\x1esecond\x85third", "last_line")).toBe("third");
  });
  test("\\d in Python matches Arabic-Indic digits, so the thousands rule applies to them", () => {
    expect(gradeStringMatch("١٢٣٤", "١,٢٣٤")).toBe(1);
  });
  test("state names are plain substring replacements: 'oregon' becomes 'OR', so it equals 'or'", () => {
    // Values checked against NeMo Gym's _grade_string_match under CPython 3.11.
    expect(gradeStringMatch("oregon", "or")).toBe(1);
    expect(gradeStringMatch("Oregon and Ohio", "OR, OH")).toBe(0);
  });
  test("a NaN on either side never scores (Python max(0.0, nan) is 0.0)", () => {
    expect(gradeStringMatch("nan", "5")).toBe(0);
  });
  test("missing expected_answer is a 422", async () => {
    const reply = await post(createStringMatch(), "/verify", { responses_create_params: { input: "hi" }, response: {} });
    expect(reply.status).toBe(422);
    expect(reply.body.detail.map((d: any) => d.loc.join("."))).toContain("body.expected_answer");
  });
});

describe("string_match: unicodedata.normalize('NFKC') before comparing (values from CPython 3.11)", () => {
  test("full-width digits, ligatures and Roman numerals fold to ASCII", () => {
    expect(gradeStringMatch("12", "１２")).toBe(1);
    expect(gradeStringMatch("fine", "ﬁne")).toBe(1);
    expect(gradeStringMatch("xii", "Ⅻ")).toBe(1);
  });
});
