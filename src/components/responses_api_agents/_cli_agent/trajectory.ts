/**
 * A CLI rollout's record from its captured model calls: the Responses-shaped `response` of the rollout row (each
 * call's reasoning, text and tool calls in order, each tool call followed by the result the CLI sent back, usage
 * summed) and the ATIF v1.7 trajectory (the instruction as the user step, one agent step per model call with its
 * tool calls, their results as observations and its tokens as metrics).
 */
import type { JsonObject, Response, ResponseUsage } from "../../../protocol/responses.ts";
import type { CapturedCall } from "./capture.ts";

const resultOf = (calls: CapturedCall[], from: number, id: string): string | null => {
  for (const call of calls.slice(from + 1)) if (call.toolResults.has(id)) return call.toolResults.get(id)!;
  return null;
};

/** The rollout's response: every call's output, tool results interleaved, the total usage. */
export function rolloutResponse(calls: CapturedCall[], usage: ResponseUsage | null, model: string): Response {
  const output: JsonObject[] = [];
  calls.forEach((call, i) => {
    if (call.reasoning) output.push({ id: `rs_${i + 1}`, type: "reasoning", summary: [{ type: "summary_text", text: call.reasoning }] });
    for (const tool of call.toolCalls) {
      output.push({ type: "function_call", id: tool.id, call_id: tool.id, name: tool.name, arguments: tool.arguments, status: "completed" });
      const result = resultOf(calls, i, tool.id);
      if (result !== null) output.push({ type: "function_call_output", call_id: tool.id, output: result });
    }
    if (call.text) output.push({ id: `msg_${i + 1}`, type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: call.text, annotations: [] }] });
  });
  if (!output.some((o) => o.type === "message")) output.push({ id: `msg_${calls.length + 1}`, type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "", annotations: [] }] });
  return {
    id: `resp_${crypto.randomUUID().replace(/-/g, "")}`,
    created_at: Math.floor(Date.now() / 1000),
    model: calls.find((c) => c.model)?.model ?? model,
    object: "response",
    output,
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
    status: "completed",
    usage: usage ?? undefined,
  } as unknown as Response;
}

const parseArgs = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return { raw: text };
  }
};

/** The ATIF document of the rollout. */
export function atifDocument(o: { instruction: string; calls: CapturedCall[]; sessionId: string; trajectoryId: string; agentName: string; agentVersion: string; extra?: JsonObject }): JsonObject {
  const steps: JsonObject[] = [{ step_id: 1, source: "user", message: o.instruction }];
  o.calls.forEach((call, i) => {
    const step: JsonObject = { step_id: steps.length + 1, source: "agent", timestamp: call.startedAt.toISOString(), message: call.error ? `[model call failed: ${call.error.slice(0, 300)}]` : call.text, llm_call_count: 1 };
    if (call.model) step.model_name = call.model;
    if (call.reasoning) step.reasoning_content = call.reasoning;
    if (call.toolCalls.length) {
      step.tool_calls = call.toolCalls.map((t) => ({ tool_call_id: t.id, function_name: t.name, arguments: parseArgs(t.arguments) }));
      const results = call.toolCalls.flatMap((t) => {
        const content = resultOf(o.calls, i, t.id);
        return content === null ? [] : [{ source_call_id: t.id, content }];
      });
      if (results.length) step.observation = { results };
    }
    if (call.usage) {
      step.metrics = { prompt_tokens: call.usage.input_tokens, completion_tokens: call.usage.output_tokens };
      if (call.usage.input_tokens_details?.cached_tokens != null) (step.metrics as JsonObject).cached_tokens = call.usage.input_tokens_details.cached_tokens;
    }
    steps.push(step);
  });
  const final: JsonObject = { total_steps: steps.length };
  if (o.calls.length && o.calls.every((c) => c.usage)) {
    final.total_prompt_tokens = o.calls.reduce((t, c) => t + c.usage!.input_tokens, 0);
    final.total_completion_tokens = o.calls.reduce((t, c) => t + c.usage!.output_tokens, 0);
  }
  const models = new Set(o.calls.map((c) => c.model).filter(Boolean));
  return {
    schema_version: "ATIF-v1.7",
    session_id: o.sessionId,
    trajectory_id: o.trajectoryId,
    agent: { name: o.agentName, version: o.agentVersion, ...(models.size === 1 ? { model_name: [...models][0] } : {}) },
    steps,
    final_metrics: final,
    ...(o.extra ? { extra: o.extra } : {}),
  };
}
