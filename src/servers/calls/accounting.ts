/**
 * Cost accounting, the last layer of the model-call path: the usage of every completed model call (policy and
 * judges alike, each in-process model server's upstream answer), summed by model for the run in this process.
 * Rows keep usage too, but not always (a rollout that failed after several calls, a judge server that keeps no
 * `judge_evaluations`): these counters are what was really spent, and a budget reads both.
 */
import { tokensOf, type Tokens } from "../../protocol/usage.ts";

/** One model's calls and tokens so far. */
export interface ModelUsage extends Tokens {
  calls: number;
}

const byModel = new Map<string, ModelUsage>();

/** Records a completed call's answer (its `usage` and `model`, when it has them) and returns the answer unchanged. */
export function recordModelCall<T>(answer: T): T {
  const body = answer as { usage?: unknown; model?: unknown } | null;
  const tokens = body !== null && typeof body === "object" ? tokensOf(body.usage) : undefined;
  if (!tokens) return answer;
  const model = typeof body!.model === "string" && body!.model !== "" ? body!.model : "unknown";
  let entry = byModel.get(model);
  if (!entry) byModel.set(model, (entry = { calls: 0, input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_tokens: 0 }));
  entry.calls++;
  entry.input_tokens += tokens.input_tokens;
  entry.cached_input_tokens += tokens.cached_input_tokens;
  entry.output_tokens += tokens.output_tokens;
  entry.reasoning_tokens += tokens.reasoning_tokens;
  return answer;
}

/** A copy of the counters (take one before a run and subtract it after, as the budget does). */
export function modelCallUsage(): Map<string, ModelUsage> {
  return new Map([...byModel].map(([model, usage]) => [model, { ...usage }]));
}

/** What was spent between two snapshots, by model. */
export function usageSince(before: Map<string, ModelUsage>, now = modelCallUsage()): Map<string, ModelUsage> {
  const out = new Map<string, ModelUsage>();
  for (const [model, n] of now) {
    const b = before.get(model);
    const d = { calls: n.calls - (b?.calls ?? 0), input_tokens: n.input_tokens - (b?.input_tokens ?? 0), cached_input_tokens: n.cached_input_tokens - (b?.cached_input_tokens ?? 0), output_tokens: n.output_tokens - (b?.output_tokens ?? 0), reasoning_tokens: n.reasoning_tokens - (b?.reasoning_tokens ?? 0) };
    if (d.calls > 0) out.set(model, d);
  }
  return out;
}
