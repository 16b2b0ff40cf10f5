import { expect, test } from "bun:test";
import { projectTrajectory } from "./atif.ts";

// The one-tool trajectory of the ATIF spec's complete example (harbor-atif.md §4.6), abbreviated.
const atif = {
  schema_version: "ATIF-v1.7",
  session_id: "eval-2026-08-25",
  trajectory_id: "eval-2026-08-25:0:0",
  agent: { name: "hello_simple_agent", version: "1.2.3", model_name: "qwen3-8b" },
  steps: [
    { step_id: 1, source: "system", message: "You are a careful shell assistant." },
    { step_id: 2, source: "user", message: "Create hello.txt containing hello." },
    { step_id: 3, source: "agent", timestamp: "2026-08-25T10:00:01Z", model_name: "qwen3-8b", message: "", reasoning_content: "Write the file, then print it to check.", tool_calls: [{ tool_call_id: "call_1", function_name: "bash", arguments: { command: "echo hello > hello.txt && cat hello.txt" } }], observation: { results: [{ source_call_id: "call_1", content: "hello\n" }] }, llm_call_count: 1 },
    { step_id: 4, source: "agent", timestamp: "2026-08-25T10:00:03Z", model_name: "qwen3-8b", message: "Created hello.txt; it contains `hello`.", llm_call_count: 1 },
  ],
  final_metrics: { total_prompt_tokens: 490, total_completion_tokens: 43, total_cached_tokens: 200, total_steps: 4 },
};

test("the spec's one-tool trajectory projects to reasoning, call, output and answer, with its usage", () => {
  const { response, problems } = projectTrajectory(atif, "0".repeat(64));
  expect(problems).toEqual([]);
  expect(response!.output.map((i: { type: string }) => i.type)).toEqual(["reasoning", "function_call", "function_call_output", "message"]);
  expect(response!.output[1]).toMatchObject({ call_id: "call_1", name: "bash", arguments: '{"command":"echo hello > hello.txt && cat hello.txt"}', status: "completed" });
  expect(response!.output[2]).toMatchObject({ call_id: "call_1", output: "hello\n" });
  expect(response!.output[3].content[0].text).toBe("Created hello.txt; it contains `hello`.");
  expect(response!.usage).toMatchObject({ input_tokens: 490, input_tokens_details: { cached_tokens: 200 }, output_tokens: 43, total_tokens: 533 });
  expect(response!.model).toBe("qwen3-8b");
  expect(response!.created_at).toBe(Date.parse("2026-08-25T10:00:03Z") / 1000);
  // Deterministic ids: the same trajectory projects to the same items.
  expect(projectTrajectory(atif, "0".repeat(64)).response).toEqual(response);
});

test("shapes outside the bounded profile are refused with their reasons", () => {
  const bad = structuredClone(atif) as typeof atif & { steps: Record<string, unknown>[] };
  bad.steps[2]!.message = "text too";
  bad.steps[3]!.llm_call_count = 2;
  bad.steps.push({ step_id: 5, source: "user", message: "more" });
  const { problems } = projectTrajectory(bad, "0".repeat(64));
  expect(problems).toEqual([
    "step 3 has both message text and tool calls, whose order ATIF does not prove",
    "step 4 aggregates 2 LLM calls",
    "step 5: a user step after the first agent step",
  ]);
  expect(projectTrajectory({ ...atif, schema_version: "ATIF-v1.6" }, "").problems[0]).toContain("only ATIF-v1.7 is read");
});
