/** The rollout-scope health checks: each looks at one row and reports findings, or that it lacked evidence. */
import { PyFloat } from "../../metrics/pyjson.ts";
import { Skipped } from "../../jsonl/rows.ts";

type Row = Record<string, unknown>;

export interface Finding {
  check: string;
  subject: string;
  locator: string | null;
  evidence: Row;
}

/** What a check says about one rollout. */
export type CheckResult = { unhealthy: Finding[] } | { unobserved: string };

export interface RolloutCheck {
  id: string;
  scope: "rollout";
  subject: string;
  run(row: Row): CheckResult;
}

const ok: CheckResult = { unhealthy: [] };
// Shared results: a check runs on every row, and most rows of a run lack its evidence the same way.
const NO_TRAJECTORY: CheckResult = { unobserved: "no ng_trajectory" };
const NO_CALLS: CheckResult = { unobserved: "no model-call evidence (ng_model_call_capture, ng_trajectory.model_calls or response)" };
const NO_PER_CALL: CheckResult = { unobserved: "only the rollout's response, no per-call evidence (+observability_enabled=true records it)" };
const NO_USAGE: CheckResult = { unobserved: "no response.usage" };
// Rows come from the row reader: a whole-valued float is a PyFloat, a member it skipped a Skipped marker.
const obj = (v: unknown): Row | undefined => (v && typeof v === "object" && !Array.isArray(v) && !(v instanceof PyFloat) && !(v instanceof Skipped) ? (v as Row) : undefined);
const num = (v: unknown): number | undefined => {
  const n = v instanceof PyFloat ? v.value : v;
  return typeof n === "number" && Number.isFinite(n) ? n : undefined;
};

/** One model call as the checks read it, whichever record it came from. */
interface Call {
  locator: string;
  input: number | undefined;
  output: number | undefined;
  failed: boolean;
  status: unknown;
  error: unknown;
  /** `incomplete_details.reason` (or a finish reason saying the same). */
  incomplete: string | undefined;
}

/**
 * The evidence of a rollout's model calls, best first: NeMo Gym's `ng_model_call_capture` (a list, or an
 * object holding `calls`), the calls its `ng_trajectory` v1.0 holds, else the rollout's `response` — what
 * every agent writes by default: the last call's status and `incomplete_details`, the usage summed over all
 * calls. `perCall` is false for the last, which answers only the checks a summed response can.
 */
function callEvidence(row: Row): Evidence | undefined {
  // Six checks ask for the same row's evidence in turn: it is read once per row.
  if (row === evidenceOf) return evidence;
  evidenceOf = row;
  return (evidence = readEvidence(row));
}

type Evidence = { calls: Call[]; perCall: boolean };
let evidenceOf: Row | undefined;
/** Forgets the row the checks last read (its evidence and turns are read again if it is checked again). */
export function forgetRow(): void {
  evidenceOf = turnsOf = undefined;
  evidence = undefined;
  turnsSeen = undefined;
}
let evidence: Evidence | undefined;

function readEvidence(row: Row): Evidence | undefined {
  const capture = row.ng_model_call_capture;
  const listed = Array.isArray(capture) ? capture : obj(capture)?.calls;
  if (Array.isArray(listed)) return { calls: (listed as unknown[]).map((c, i) => callOf(obj(c) ?? {}, `call[${i}]`)), perCall: true };
  const traced = obj(row.ng_trajectory)?.model_calls;
  if (Array.isArray(traced)) return { calls: (traced as unknown[]).map((c, i) => callOf(obj(c) ?? {}, `ng_trajectory.model_calls[${i}]`)), perCall: true };
  const response = obj(row.response);
  return response ? { calls: [callOf(response, "response")], perCall: false } : undefined;
}

/** Reads a capture call, a trajectory model call or a Responses object alike. */
function callOf(call: Row, locator: string): Call {
  const response = obj(call.response);
  const meta = obj(call.response_metadata);
  const usage = obj(call.usage) ?? obj(response?.usage);
  const stats = obj(call.token_stats);
  const status = call.status ?? response?.status ?? meta?.response_status ?? call.response_status ?? null;
  const code = num(call.status_code ?? meta?.status_code);
  const error = call.error ?? response?.error ?? call.error_category ?? meta?.error_category ?? null;
  const finish = meta?.finish_reason ?? call.finish_reason;
  const details = obj(call.incomplete_details ?? response?.incomplete_details);
  return {
    locator,
    input: num(usage?.input_tokens) ?? num(stats?.prompt_tokens) ?? num(call.tokens_in),
    output: num(usage?.output_tokens) ?? num(stats?.completion_tokens) ?? num(call.tokens_out),
    failed: error != null || status === "failed" || (typeof status === "number" && status >= 400) || (code !== undefined && code >= 400),
    status,
    error,
    incomplete: details ? (typeof details.reason === "string" ? details.reason : "unknown") : finish === "max_output_tokens" || finish === "length" ? "max_output_tokens" : undefined,
  };
}

function turns(row: Row): Row[] | undefined {
  if (row === turnsOf) return turnsSeen;
  turnsOf = row;
  return (turnsSeen = readTurns(row));
}

let turnsOf: Row | undefined;
let turnsSeen: Row[] | undefined;

function readTurns(row: Row): Row[] | undefined {
  const t = obj(row.ng_trajectory);
  if (!t) return undefined;
  const list = t.agent_turns ?? t.turns ?? t.steps;
  return Array.isArray(list) ? (list as Row[]) : [];
}

/** Whether a NeMo Gym v1.0 turn answered: reasoning, a function call, or assistant text among its `answer` items. */
function answers(turn: Row): boolean {
  if (Array.isArray(turn.reasoning_content) ? turn.reasoning_content.length > 0 : Boolean(turn.reasoning_content)) return true;
  const items = Array.isArray(turn.answer) ? (turn.answer as Row[]) : [];
  return items.some((item) => item.type === "function_call" || (item.type === "message" && Array.isArray(item.content) && (item.content as Row[]).some((part) => typeof part.text === "string" && part.text.trim() !== "")));
}

const finding = (check: string, subject: string, locator: string | null, evidence: Row): Finding => ({ check, subject, locator, evidence });

/** The findings of the calls that `test` picks, in order; the shared `ok` when none (no array per row and check). */
function found(calls: Call[], test: (c: Call) => boolean, make: (c: Call) => Finding): CheckResult {
  let out: Finding[] | undefined;
  for (let i = 0; i < calls.length; i++) if (test(calls[i]!)) (out ??= []).push(make(calls[i]!));
  return out === undefined ? ok : { unhealthy: out };
}

const failed = (c: Call) => c.failed;
const failedFinding = (c: Call) => finding("model_call_failed", "model_call", c.locator, { status: c.status ?? null, error: c.error ?? null });
const uncounted = (c: Call) => !c.failed && (c.input === undefined || c.output === undefined);
const uncountedFinding = (c: Call) => finding("model_call_missing_token_counts", "model_call", c.locator, { input_tokens: c.input ?? null, output_tokens: c.output ?? null });
const emptyCompletion = (c: Call) => !c.failed && c.output === 0 && c.incomplete === undefined;
const emptyCompletionFinding = (c: Call) => finding("model_call_zero_completion_tokens", "model_call", c.locator, { output_tokens: 0 });
const runaway = (c: Call) => c.incomplete === "max_output_tokens";
const runawayFinding = (c: Call) => finding("model_call_runaway_generation", "model_call", c.locator, { reason: "max_output_tokens", output_tokens: c.output ?? null });

/** A resolution gap (the verifier returned no `resolved` flag) loses no model-call or turn evidence. */
const EVIDENCE_KEEPING_GAPS = new Set(["resolution_unavailable"]);

/** The catalog of rollout-scope checks (metrics.md §5). */
export const ROLLOUT_CHECKS: RolloutCheck[] = [
  {
    id: "rollout_missing_agent_turns", scope: "rollout", subject: "rollout",
    run: (row) => {
      const t = turns(row);
      if (!t) return NO_TRAJECTORY;
      return t.length === 0 ? { unhealthy: [finding("rollout_missing_agent_turns", "rollout", null, { agent_turns: 0 })] } : ok;
    },
  },
  {
    id: "agent_turn_hollow", scope: "rollout", subject: "agent_turn",
    run: (row) => {
      const t = turns(row);
      if (!t) return NO_TRAJECTORY;
      const hollow = t
        .map((turn, i) => ({ turn, i }))
        .filter(({ turn }) => !(turn.text || turn.content || turn.output_text) && !(Array.isArray(turn.tool_calls) && turn.tool_calls.length) && !turn.reasoning && !answers(turn));
      return { unhealthy: hollow.map(({ i }) => finding("agent_turn_hollow", "agent_turn", `turn[${i}]`, {})) };
    },
  },
  {
    id: "model_call_failed", scope: "rollout", subject: "model_call",
    run: (row) => {
      const e = callEvidence(row);
      if (!e) return NO_CALLS;
      const bad = found(e.calls, failed, failedFinding);
      // The response shows only the last call: a clean one says nothing of the calls before it.
      return bad !== ok || e.perCall ? bad : NO_PER_CALL;
    },
  },
  {
    id: "rollout_ended_on_failed_model_call", scope: "rollout", subject: "rollout",
    run: (row) => {
      const e = callEvidence(row);
      if (!e) return NO_CALLS;
      const last = e.calls[e.calls.length - 1];
      return last?.failed ? { unhealthy: [finding("rollout_ended_on_failed_model_call", "rollout", last.locator, {})] } : ok;
    },
  },
  {
    id: "model_call_missing_token_counts", scope: "rollout", subject: "model_call",
    run: (row) => {
      const e = callEvidence(row);
      if (!e) return NO_CALLS;
      return found(e.calls, uncounted, uncountedFinding);
    },
  },
  {
    id: "model_call_zero_completion_tokens", scope: "rollout", subject: "model_call",
    run: (row) => {
      const e = callEvidence(row);
      if (!e) return NO_CALLS;
      return found(e.calls, emptyCompletion, emptyCompletionFinding);
    },
  },
  {
    id: "model_call_runaway_generation", scope: "rollout", subject: "model_call",
    run: (row) => {
      const e = callEvidence(row);
      if (!e) return NO_CALLS;
      return found(e.calls, runaway, runawayFinding);
    },
  },
  {
    id: "rollout_token_count_mismatch", scope: "rollout", subject: "rollout",
    run: (row) => {
      const e = callEvidence(row);
      if (!e) return NO_CALLS;
      if (!e.perCall) return NO_PER_CALL;
      const usage = obj(obj(row.response)?.usage);
      if (!usage) return NO_USAGE;
      const sum = (k: "input" | "output") => e.calls.reduce((a, c) => a + (c[k] ?? 0), 0);
      const mismatched = (["input", "output"] as const).filter((k) => num(usage[`${k}_tokens`]) !== undefined && num(usage[`${k}_tokens`]) !== sum(k));
      return { unhealthy: mismatched.map((k) => finding("rollout_token_count_mismatch", "rollout", null, { field: `${k}_tokens`, response_usage: usage[`${k}_tokens`], captured_sum: sum(k) })) };
    },
  },
  {
    id: "trajectory_has_gap", scope: "rollout", subject: "trajectory_capture",
    run: (row) => {
      const gaps = obj(row.ng_trajectory)?.gaps;
      if (!Array.isArray(gaps) || gaps.length === 0) return ok;
      const losing = gaps.filter((g) => !EVIDENCE_KEEPING_GAPS.has(obj(g)?.code as string));
      return losing.length > 0 ? { unobserved: `ng_trajectory has ${losing.length} gap(s)` } : ok;
    },
  },
];

/** Ids of every check, rollout-, task- and run-scope. */
export const ALL_CHECK_IDS = ["record_unreadable", "record_duplicate_identity", ...ROLLOUT_CHECKS.map((c) => c.id), "task_failed_every_repeat", "run_missing_rollouts"];
