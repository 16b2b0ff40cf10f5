/**
 * One rollout's `ng_trajectory` (v1.0) as an ATIF v1.7 trajectory, NeMo Gym's strict profile
 * `ng-trajectory-to-atif-v1`: a trajectory that cannot be represented completely is refused with every reason.
 */
type Row = Record<string, any>;

export interface AtifContext {
  sessionId: string;
  agentName: string;
  agentVersion: string;
  exporterVersion: string;
  taskIndex: number;
  rolloutIndex: number;
}

const TRAINING_KEYS = ["prompt_token_ids", "generation_token_ids", "generation_log_probs", "routed_experts"];
const BAD_FINISH = new Set(["length", "max_tokens", "max_output_tokens", "content_filter"]);
/** Gaps that lose no part of the conversation (ours: the verifier did not say `resolved`), so they do not block an export. */
const HARMLESS_GAPS = new Set(["resolution_unavailable"]);

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, (ms) => (ms === ".000Z" ? "Z" : ms));
const isObject = (v: unknown): v is Row => !!v && typeof v === "object" && !Array.isArray(v);

/** Text of a message's content (a string, or input/output text parts); undefined when a part is not text. */
function textOf(content: unknown, problems: string[], where: string): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return void problems.push(`${where}: content is neither text nor a list of parts`);
  const texts: string[] = [];
  for (const part of content) {
    if (!isObject(part) || !["input_text", "output_text", "text"].includes(part.type)) return void problems.push(`${where}: a non-text content part (${part?.type}) cannot be exported`);
    if ((Array.isArray(part.annotations) && part.annotations.length) || (Array.isArray(part.logprobs) && part.logprobs.length)) problems.push(`${where}: annotations or logprobs on text cannot be exported`);
    texts.push(String(part.text ?? ""));
  }
  return texts.join("");
}

/** Converts one trajectory; returns the ATIF document or the reasons it cannot be exported. */
export function toAtif(trajectory: unknown, ctx: AtifContext): { atif?: Row; problems: string[] } {
  const problems: string[] = [];
  if (!isObject(trajectory)) return { problems: ["the row has no ng_trajectory (run with +observability_enabled=true to record one)"] };
  const t = trajectory;
  if (t.schema_version !== "1.0") problems.push(`ng_trajectory schema_version is ${JSON.stringify(t.schema_version)}, not "1.0"`);
  const gaps = (Array.isArray(t.gaps) ? t.gaps : []).filter((g: Row) => !HARMLESS_GAPS.has(g?.code));
  if (gaps.length) problems.push(`the trajectory has gaps (${gaps.map((g: Row) => g.code).join(", ")})`);
  const invocations: Row[] = Array.isArray(t.invocations) ? t.invocations : [];
  const roots = invocations.filter((i) => !i.parent_invocation_id);
  if (roots.length !== 1 || invocations.length !== 1) problems.push(`expected exactly one root invocation and no subagents, found ${invocations.length} invocation(s)`);
  const root = roots[0] ?? {};
  if (root.status !== "completed" || root.error_type) problems.push(`the invocation is ${root.status ?? "of unknown status"}${root.error_type ? ` (${root.error_type})` : ""}, not completed`);
  const calls = new Map<string, Row>((Array.isArray(t.model_calls) ? t.model_calls : []).map((c: Row) => [String(c.model_call_id), c]));
  const conversation: Row[] = Array.isArray(root.conversation) ? root.conversation : [];
  const outputs = new Map<string, Row>(conversation.filter((i) => i.type === "function_call_output").map((i) => [String(i.call_id), i]));
  const toolTiming = new Map<string, Row>((Array.isArray(t.tool_calls) ? t.tool_calls : []).map((c: Row) => [String(c.tool_call_id), c]));

  const steps: Row[] = [];
  let firstAgentItem = conversation.findIndex((i) => i.type !== undefined && i.type !== "message" ? true : i.role === "assistant");
  if (firstAgentItem < 0) firstAgentItem = conversation.length;
  conversation.forEach((item, i) => {
    for (const key of TRAINING_KEYS) if (key in item) problems.push(`conversation[${i}] carries training metadata (${key})`);
    const role = item.role;
    if (role === "developer") problems.push(`conversation[${i}] is a developer message, which ATIF cannot hold`);
    if ((role === "system" || role === "user") && (item.type === undefined || item.type === "message")) {
      if (i > firstAgentItem) return void problems.push(`conversation[${i}]: a ${role} message after agent output cannot be exported`);
      steps.push({ step_id: steps.length + 1, source: role, message: textOf(item.content, problems, `conversation[${i}]`) ?? "" });
    }
  });

  const used = new Set<string>();
  const seenCalls = new Set<string>();
  let allMetrics = true;
  let allCached = true;
  const totals = { prompt: 0, completion: 0, cached: 0 };
  const models = new Set<string>();
  const turns: Row[] = [...(Array.isArray(t.turns) ? t.turns : [])].sort((a, b) => a.turn_no - b.turn_no);
  for (const turn of turns) {
    const where = `turn ${turn.turn_no}`;
    const refs: Row[] = Array.isArray(turn.model_calls) ? turn.model_calls : [];
    if (refs.length !== 1) problems.push(`${where} has ${refs.length} model calls, not exactly one`);
    const call = calls.get(String(refs[0]?.model_call_id));
    if (!call) {
      problems.push(`${where}: its model call ${refs[0]?.model_call_id ?? "(none)"} was not captured`);
      continue;
    }
    used.add(String(call.model_call_id));
    const meta: Row = call.response_metadata ?? {};
    if (typeof meta.status_code === "number" && (meta.status_code < 200 || meta.status_code >= 300)) problems.push(`${where}: the model call answered ${meta.status_code}`);
    if (BAD_FINISH.has(meta.finish_reason)) problems.push(`${where}: the model call stopped with finish reason '${meta.finish_reason}'`);
    const step: Row = { step_id: steps.length + 1, source: "agent", timestamp: iso(Number(turn.timestamp)) };
    if (typeof meta.model === "string") {
      step.model_name = meta.model;
      models.add(meta.model);
    }
    const reasoning: Row[] = Array.isArray(turn.reasoning_content) ? turn.reasoning_content : [];
    const segments = reasoning.flatMap((r) => (Array.isArray(r.summary) ? r.summary : []).map((s: Row) => String(s.text ?? "")));
    if (reasoning.some((r) => r.encrypted_content)) problems.push(`${where}: encrypted reasoning cannot be exported`);
    if (segments.length > 1) problems.push(`${where}: reasoning in ${segments.length} segments cannot be exported`);
    const answer: Row[] = Array.isArray(turn.answer) ? turn.answer : [];
    const fnCalls = answer.filter((i) => i.type === "function_call");
    const messages = answer.filter((i) => i.type === "message");
    for (const item of answer) {
      for (const key of TRAINING_KEYS) if (key in item) problems.push(`${where} carries training metadata (${key})`);
      if (item.phase) problems.push(`${where}: Responses phase values cannot be exported`);
      if (item.type === "function_call" && item.namespace) problems.push(`${where}: namespaced function calls cannot be exported`);
    }
    if (fnCalls.length && messages.length) problems.push(`${where} has both text and tool calls, whose order ATIF cannot prove`);
    if (fnCalls.length) {
      step.message = "";
      step.tool_calls = fnCalls.map((fc) => {
        let args: unknown;
        try {
          args = JSON.parse(fc.arguments);
        } catch {
          args = undefined;
        }
        if (!isObject(args)) problems.push(`${where}: arguments of call ${fc.call_id} are not a JSON object`);
        seenCalls.add(String(fc.call_id));
        return { tool_call_id: fc.call_id, function_name: fc.name, arguments: isObject(args) ? args : {}, extra: { nemo_gym: { source_item_id: fc.id ?? null } } };
      });
      step.observation = {
        results: fnCalls.map((fc) => {
          const out = outputs.get(String(fc.call_id));
          if (!out) problems.push(`${where}: call ${fc.call_id} has no function_call_output`);
          const timing = toolTiming.get(String(fc.call_id)) ?? {};
          const content = typeof out?.output === "string" ? out.output : textOf(out?.output, problems, `${where} output of ${fc.call_id}`) ?? "";
          return { source_call_id: fc.call_id, content, extra: { nemo_gym: { sandbox_id: timing.sandbox_id ?? null, started_at: timing.started_at ?? null, completed_at: timing.completed_at ?? null, duration_ms: timing.duration_ms ?? null, timing_source: timing.timing_source ?? null, source_item_id: out?.id ?? null } } };
        }),
      };
    } else {
      const texts = messages.map((m, i) => textOf(m.content, problems, `${where} message ${i}`) ?? "");
      step.message = texts.join("");
    }
    if (segments.length === 1) step.reasoning_content = segments[0];
    const stats: Row = call.token_stats ?? {};
    if (typeof stats.prompt_tokens === "number" && typeof stats.completion_tokens === "number") {
      const cached = typeof stats.cached_tokens === "number" ? stats.cached_tokens : undefined;
      if (cached !== undefined && cached > stats.prompt_tokens) problems.push(`${where}: cached tokens exceed prompt tokens`);
      if (typeof stats.reasoning_tokens === "number" && stats.reasoning_tokens > stats.completion_tokens) problems.push(`${where}: reasoning tokens exceed completion tokens`);
      if (typeof stats.total_tokens === "number" && stats.prompt_tokens + stats.completion_tokens > stats.total_tokens) problems.push(`${where}: prompt + completion tokens exceed the total`);
      step.metrics = { prompt_tokens: stats.prompt_tokens, completion_tokens: stats.completion_tokens, ...(cached !== undefined ? { cached_tokens: cached } : {}), extra: { ...(typeof stats.reasoning_tokens === "number" ? { reasoning_tokens: stats.reasoning_tokens } : {}), ...(typeof stats.total_tokens === "number" ? { total_tokens: stats.total_tokens } : {}) } };
      totals.prompt += stats.prompt_tokens;
      totals.completion += stats.completion_tokens;
      if (cached === undefined) allCached = false;
      else totals.cached += cached;
    } else allMetrics = false;
    step.llm_call_count = 1;
    const messageItem = messages[0];
    step.extra = {
      nemo_gym: {
        turn: { turn_no: turn.turn_no, step_count: turn.step_count, ...(typeof turn.resolved === "boolean" ? { resolved: turn.resolved } : {}) },
        model_call: call,
        ...(reasoning.length || messageItem ? { source_items: { ...(reasoning.length ? { reasoning_ids: reasoning.map((r) => r.id) } : {}), ...(messageItem ? { message_id: messageItem.id } : {}) } } : {}),
      },
    };
    steps.push(step);
  }
  if (!turns.length) problems.push("the trajectory has no agent turns");
  for (const id of toolTiming.keys()) if (!seenCalls.has(id)) problems.push(`tool call record ${id} is not referenced by any turn`);
  const surplus = [...calls.values()].filter((c) => !used.has(String(c.model_call_id)));
  if (problems.length) return { problems };

  const agentSteps = steps.filter((s) => s.source === "agent");
  const atif: Row = {
    schema_version: "ATIF-v1.7",
    session_id: ctx.sessionId,
    trajectory_id: `${ctx.sessionId}:${ctx.taskIndex}:${ctx.rolloutIndex}`,
    agent: { name: ctx.agentName, version: ctx.agentVersion, ...(models.size === 1 && agentSteps.every((s) => s.model_name) ? { model_name: [...models][0] } : {}) },
    steps,
    final_metrics: { ...(allMetrics && agentSteps.length ? { total_prompt_tokens: totals.prompt, total_completion_tokens: totals.completion, ...(allCached ? { total_cached_tokens: totals.cached } : {}) } : {}), total_steps: steps.length },
    extra: {
      nemo_gym: {
        exporter: { name: "nemo-gym", version: ctx.exporterVersion },
        source: { format: "ng_trajectory", schema_version: t.schema_version, task_id: t.task_id, rollout_id: t.rollout_id, task_index: ctx.taskIndex, rollout_index: ctx.rolloutIndex, invocation_id: root.invocation_id, invocation_status: root.status, ...(typeof root.duration_ms === "number" ? { invocation_duration_ms: root.duration_ms } : {}) },
        conversion: { profile: "ng-trajectory-to-atif-v1", status: "complete" },
        ...(surplus.length ? { surplus_model_calls: surplus } : {}),
      },
    },
  };
  return { atif, problems };
}
