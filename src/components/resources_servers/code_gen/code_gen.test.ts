import { describe, expect, test } from "bun:test";
import { detectSandbox } from "../../../sandbox/index.ts";
import { fullResponse, post, promptKey, readJsonlFile } from "../_common/testing.ts";
import { extractCode, hasReasoningFormatViolation } from "./extract.ts";
import createCodeGen from "./index.ts";

const dir = import.meta.dir;
const config = { num_processes: 2, unit_test_timeout_secs: 10, debug: false };
const hasBwrap = (await detectSandbox()).kind === "bwrap";
if (!hasBwrap) console.warn("skip: code_gen sandbox tests because bubblewrap is not available (apt-get install bubblewrap)");
const sandboxed = hasBwrap ? test : test.skip;

const withoutTimes = (metadata: any) => {
  if (!metadata) return metadata;
  const { ["execution time"]: _, ...rest } = metadata;
  return rest;
};

function answer(text: string, reasoning?: string) {
  const output: any[] = [{ type: "message", role: "assistant", content: [{ type: "output_text", text }] }];
  if (reasoning !== undefined) output.unshift({ type: "reasoning", summary: [{ type: "summary_text", text: reasoning }] });
  return fullResponse({ output });
}

const params = { input: [{ role: "user", content: "solve" }] };
const stdioTests = { unit_tests: { inputs: ["1 2\n", "3 4\n"], outputs: ["3\n", "7\n"], fn_name: null } };

describe("code_gen: extraction and format", () => {
  test("the code between the last two fence lines; fewer than two fences is empty", () => {
    expect(extractCode("a\n```python\nx = 1\n```\ntext\n```\ny = 2\n```")).toBe("y = 2");
    expect(extractCode("```python\nx = 1")).toBe("");
    expect(extractCode("```python\n```")).toBe("");
  });
  test("<think> in the answer, or two in the reasoning, is a violation", () => {
    expect(hasReasoningFormatViolation(answer("<think>x</think>```\n```"))).toBe(true);
    expect(hasReasoningFormatViolation(answer("ok", "<think>a</think>"))).toBe(false);
    expect(hasReasoningFormatViolation(answer("ok", "<think>a<think>b"))).toBe(true);
  });
});

describe("code_gen: NeMo Gym's published rollouts", () => {
  sandboxed("example_rollouts.jsonl: every reward, result and metadata re-scores exactly", async () => {
    const rows = new Map(readJsonlFile(dir, "data/example.jsonl").map((row) => [promptKey(row.responses_create_params as any), row]));
    const app = createCodeGen(config);
    const rollouts = readJsonlFile(dir, "data/example_rollouts.jsonl");
    expect(rollouts).toHaveLength(5);
    const replies = await Promise.all(
      rollouts.map((rollout) => post(app, "/verify", { ...rows.get(promptKey(rollout.responses_create_params as any))!, response: rollout.response })),
    );
    replies.forEach((reply, i) => {
      const stored = rollouts[i]! as any;
      expect(reply.status).toBe(200);
      expect([reply.body.reward, reply.body.result]).toEqual([stored.reward, stored.result]);
      expect(withoutTimes(reply.body.metadata)).toEqual(withoutTimes(stored.metadata));
      expect(reply.body.extracted_model_code).toBe(stored.extracted_model_code);
    });
  }, 120_000);
});

describe("code_gen: grading", () => {
  sandboxed("stdin/stdout: all tests pass → 1; Decimal comparison accepts 3.0 for 3", async () => {
    const app = createCodeGen(config);
    const good = await post(app, "/verify", { responses_create_params: params, response: answer("```python\na, b = map(int, input().split())\nprint(float(a + b))\n```"), verifier_metadata: stdioTests });
    expect([good.body.reward, good.body.result]).toEqual([1, [true, true]]);
    expect(Object.keys(good.body)).toEqual(["responses_create_params", "response", "reward", "extracted_model_output", "extracted_model_code", "result", "metadata", "unit_tests_time_taken", "reasoning_format_violation_rate", "difficulty"]);
    const wrong = await post(app, "/verify", { responses_create_params: params, response: answer("```python\nprint(3)\n```"), verifier_metadata: stdioTests });
    expect([wrong.body.reward, wrong.body.result, wrong.body.metadata.error_message]).toEqual([0, [true, -2], "Wrong answer at output_line_idx=0: 3 != 7"]);
  }, 60_000);

  sandboxed("call-based: tuples count as lists, floats compare within numpy's allclose", async () => {
    const app = createCodeGen(config);
    const tests = { unit_tests: { inputs: ["[1, 2]", "[0.1, 0.2]"], outputs: ["[2, 1]", "0.30000001"], fn_name: "f" } };
    const code = "```python\nclass Solution:\n    def f(self, xs):\n        return tuple(reversed(xs)) if isinstance(xs[0], int) else sum(xs)\n```";
    const reply = await post(app, "/verify", { responses_create_params: params, response: answer(code), verifier_metadata: tests });
    expect([reply.body.reward, reply.body.result]).toEqual([1, [true, true]]);
  }, 60_000);

  sandboxed("a runtime error is -4 with its traceback; a syntax error is NeMo Gym's 'Error during testing'", async () => {
    const app = createCodeGen(config);
    const crash = await post(app, "/verify", { responses_create_params: params, response: answer("```python\nraise ValueError('boom')\n```"), verifier_metadata: stdioTests });
    expect([crash.body.result, crash.body.metadata.error_message, crash.body.metadata.error]).toEqual([[-4], "Runtime Error", "ValueError('boom')"]);
    const syntax = await post(app, "/verify", { responses_create_params: params, response: answer("```python\ndef (:\n```"), verifier_metadata: stdioTests });
    expect(syntax.body.result).toEqual([-4]);
    expect(syntax.body.metadata.error_message).toStartWith("Error during testing: ");
  }, 60_000);

  sandboxed("a format violation scores reasoning_format_penalty even when the tests pass", async () => {
    const app = createCodeGen({ ...config, reasoning_format_penalty: -1 });
    const code = "</think>```python\na, b = map(int, input().split())\nprint(a + b)\n```";
    const reply = await post(app, "/verify", { responses_create_params: params, response: answer(code), verifier_metadata: stdioTests });
    expect([reply.body.reward, reply.body.result, reply.body.reasoning_format_violation_rate]).toEqual([-1, [true, true], 1]);
  }, 60_000);

  test("no text or no fenced code scores 0 without running anything", async () => {
    const app = createCodeGen(config);
    const empty = await post(app, "/verify", { responses_create_params: params, response: answer("  "), verifier_metadata: { ...stdioTests, difficulty: "easy" } });
    expect([empty.body.reward, empty.body.extracted_model_output, empty.body.difficulty]).toEqual([0, null, "easy"]);
    const prose = await post(app, "/verify", { responses_create_params: params, response: answer("no code"), verifier_metadata: stdioTests });
    expect([prose.body.reward, prose.body.extracted_model_output, prose.body.result]).toEqual([0, "no code", null]);
  });
});
