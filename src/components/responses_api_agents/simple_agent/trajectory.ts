/**
 * The rollout trajectory simple_agent records when observability is on (`+observability_enabled=true`): NeMo Gym's
 * `ng_trajectory` v1.0 — the root invocation and its conversation, one turn per model call, each model call with its
 * request, response, timing and token counts, each tool call with its timing and output, and the gaps.
 */
import type { JsonObject, Response } from "../../../protocol/responses.ts";

export interface ModelRef {
  type: string;
  name: string;
}

const now = () => Date.now() / 1000;

/** Builds one rollout's `ng_trajectory` as the agent loop runs. */
export class TrajectoryRecorder {
  private readonly turns: JsonObject[] = [];
  private readonly modelCalls: JsonObject[] = [];
  private readonly toolCalls: JsonObject[] = [];
  private readonly gaps: JsonObject[] = [];
  private readonly refs: JsonObject[] = [];
  status: "completed" | "incomplete" = "completed";

  constructor(
    private readonly model: ModelRef,
    private rolloutId: string,
  ) {}

  /** Times one model call; `done` records it and its turn. */
  modelCall(request: JsonObject): { done(response: Response, step: number): void } {
    const startedAt = now();
    const started = performance.now();
    return {
      done: (response, step) => {
        const id = `${this.rolloutId}:mc:${step}`;
        const usage = (response.usage ?? null) as JsonObject | null;
        const details = (key: string, field: string) => ((usage?.[key] as JsonObject | undefined)?.[field] ?? null) as number | null;
        const calls = response.output.some((item) => item.type === "function_call");
        const incomplete = (response.incomplete_details as JsonObject | null)?.reason as string | undefined;
        this.modelCalls.push({
          model_call_id: id,
          started_at: startedAt,
          completed_at: Math.max(startedAt, now()),
          duration_ms: performance.now() - started,
          request,
          response: response as unknown as JsonObject,
          response_metadata: { response_id: response.id ?? null, model_ref: this.model as unknown as JsonObject, model: (response.model as string) ?? null, dialect: "responses", status_code: 200, response_status: (response.status as string) ?? null, finish_reason: incomplete ?? (calls ? "tool_calls" : "stop"), error_category: null, latency_ttft_ms: null },
          token_stats: usage
            ? { prompt_tokens: (usage.input_tokens as number) ?? null, completion_tokens: (usage.output_tokens as number) ?? null, reasoning_tokens: details("output_tokens_details", "reasoning_tokens"), total_tokens: (usage.total_tokens as number) ?? null, cached_tokens: details("input_tokens_details", "cached_tokens") }
            : { prompt_tokens: null, completion_tokens: null, reasoning_tokens: null, total_tokens: null, cached_tokens: null },
        });
        const ref = { model_call_id: id, model_ref: this.model as unknown as JsonObject, response_id: response.id ?? null };
        this.refs.push(ref);
        const reasoning = response.output.filter((item) => item.type === "reasoning");
        this.turns.push({
          invocation_id: "root",
          task_id: "unknown",
          rollout_id: this.rolloutId,
          turn_no: step,
          timestamp: startedAt,
          question: request.input as JsonObject[],
          answer: response.output.filter((item) => item.type !== "reasoning") as unknown as JsonObject[],
          reasoning_content: reasoning.length ? (reasoning as unknown as JsonObject[]) : null,
          resolved: null,
          step_count: this.toolCalls.length,
          model_calls: [ref],
        });
      },
    };
  }

  /** Times one tool call; `done` records its status and model-visible output. */
  toolCall(callId: string, name: string): { done(output: string, error?: string): void } {
    const startedAt = now();
    const started = performance.now();
    return {
      done: (output, error) => {
        this.toolCalls.push({ kind: "tool_call", invocation_id: "root", tool_call_id: callId, sandbox_id: null, tool_name: name, started_at: startedAt, completed_at: Math.max(startedAt, now()), duration_ms: performance.now() - started, timing_source: "executor", status: error ? "failed" : "completed", error_type: error ?? null, output });
        const turn = this.turns.at(-1);
        if (turn) turn.step_count = this.toolCalls.length;
      },
    };
  }

  /** The finished record: `conversation` is the prompt plus every item the episode added. */
  record(conversation: JsonObject[]): JsonObject {
    return {
      schema_version: "1.0",
      task_id: "unknown",
      rollout_id: this.rolloutId,
      invocations: [{ kind: "agent_invocation", invocation_id: "root", parent_invocation_id: null, spawned_by_tool_call_id: null, status: this.status, duration_ms: null, error_type: null, model_calls: this.refs, conversation }],
      turns: this.turns,
      model_calls: this.modelCalls,
      tool_calls: this.toolCalls,
      gaps: this.gaps,
    };
  }
}

/** The task id NeMo Gym gives a trajectory: the row's task_id, problem_id, instance_id or _ng_task_index. */
export function trajectoryTaskId(row: JsonObject): string {
  for (const key of ["task_id", "problem_id", "instance_id", "_ng_task_index"]) if (row[key] !== undefined && row[key] !== null) return String(row[key]);
  return "unknown";
}

/** Stamps the row's identity on a trajectory and records whether the verifier said the task was resolved. */
export function finishTrajectory(trajectory: JsonObject, row: JsonObject, rolloutId: string, verified: JsonObject | undefined): JsonObject {
  const taskId = trajectoryTaskId(row);
  const turns = (trajectory.turns as JsonObject[]).map((turn): JsonObject => ({ ...turn, task_id: taskId, rollout_id: rolloutId }));
  const gaps = [...(trajectory.gaps as JsonObject[])];
  const resolved = verified?.resolved;
  if (typeof resolved === "boolean" && turns.length) turns[turns.length - 1]!.resolved = resolved;
  else gaps.push({ code: "resolution_unavailable", invocation_id: "root", detail: null });
  return { ...trajectory, task_id: taskId, rollout_id: rolloutId, turns, gaps };
}
