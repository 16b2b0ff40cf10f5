import { describe, expect, test } from "bun:test";
import { post, readJsonFile, readJsonlFile, vectorRequest } from "../_common/testing.ts";
import createFormatVerification, { verifyRegex, verifyStringMatch } from "./index.ts";

const dir = import.meta.dir;
const vectors = readJsonFile<{ vectors: any[] }>(dir, "_fixtures/test_vectors.json").vectors;

describe("format_verification: test vectors", () => {
  for (const v of vectors) {
    test(`${v.id} ${v.upstream_test ?? v.note ?? ""}`, async () => {
      const reply = await post(createFormatVerification(), "/verify", vectorRequest(v));
      if (v.expect.http_status) {
        expect(reply.status).toBe(v.expect.http_status);
        const [type, message] = v.expect.error.split(/: (.*)/s);
        expect(reply.body).toBe(`${type}("${message}")`);
        return;
      }
      expect(reply.status).toBe(200);
      for (const [key, value] of Object.entries(v.expect)) expect(reply.body[key]).toEqual(value);
    });
  }
});

describe("format_verification: published rollouts", () => {
  test("5 of 5 stored rewards reproduce from the rollout rows alone (verifier echoed)", async () => {
    const app = createFormatVerification();
    const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
    for (const rollout of rollouts) {
      const { reward, match_details, ...row } = rollout;
      const reply = await post(app, "/verify", row);
      expect(reply.status).toBe(200);
      expect(reply.body.reward).toBe(reward as number);
      expect(reply.body.match_details).toEqual(match_details);
    }
    expect(rollouts).toHaveLength(5);
  });

  test("ds3_citation_format_example.jsonl (string_match rows) verifies with its own markers", async () => {
    // Expected values computed with NeMo Gym's _verify_string_match (CPython 3.11).
    const row = readJsonlFile(dir, "data/ds3_citation_format_example.jsonl")[0]!;
    const verifier = { ...(row.verifier as any), patterns: ["\\[ref:\\d+\\]"] };
    expect(verifyStringMatch("See [ref:2] and [ref:3].", verifier)).toEqual({
      reward: 0,
      details: { expected: ["[ref:2]"], missing: [], spurious: ["[ref:3]"], passed: false },
    });
    expect(verifyStringMatch("See [ref:2] and [REF:3].", verifier).reward).toBe(1);
  });
});

describe("format_verification: Python regex dialect reproduced on purpose", () => {
  test("Python `.` matches '\\r' (CRLF text keeps '\\r' on each line); a JS RegExp `.` would not", () => {
    expect(verifyRegex("- a\r\n- b\r\n", { verify_regex: ["^- .+$"] }).details.matching_lines).toBe(2);
  });
  test("Python `$` also matches before a final '\\n'", () => {
    expect(verifyStringMatch("[1]\n", { expected_markers: [], patterns: ["\\[1\\]$"] }).details.spurious).toEqual(["[1]"]);
  });
  test("inline flags at the start of a dataset pattern are honoured ((?i))", () => {
    expect(verifyRegex("TITLE: x", { verify_regex: ["(?i)^title:"] }).details.matching_lines).toBe(1);
  });
  test("Python's \\w is Unicode: 'é' is a word character, so \\bcafé\\b matches", () => {
    expect(verifyRegex("un café noir", { verify_regex: ["\\bcafé\\b"] }).details.matching_lines).toBe(1);
  });
  test("an invalid Python regex is a 500 whose body is Python's repr of re.error", async () => {
    const v = vectors[0];
    const request = vectorRequest(v);
    (request.verifier as any) = { type: "regex", verify_regex: ["(["] };
    const reply = await post(createFormatVerification(), "/verify", request);
    expect(reply.status).toBe(500);
    expect(reply.body).toMatch(/^error\('/);
  });
});
