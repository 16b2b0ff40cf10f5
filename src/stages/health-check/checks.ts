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
const NO_CAPTURE: CheckResult = { unobserved: "no ng_model_call_capture" };
const NO_USAGE: CheckResult = { unobserved: "no response.usage" };
// Rows come from the row reader: a whole-valued float is a PyFloat, a member it skipped a Skipped marker.
const obj = (v: unknown): Row | undefined => (v && typeof v === "object" && !Array.isArray(v) && !(v instanceof PyFloat) && !(v instanceof Skipped) ? (v as Row) : undefined);
const num = (v: unknown): number | undefined => {
  const n = v instanceof PyFloat ? v.value : v;
  return typeof n === "number" && Number.isFinite(n) ? n : undefined;
};

/** The model calls a rollout captured (`ng_model_call_capture`: a list, or an object holding `calls`). */
function calls(row: Row): Row[] | undefined {
  const capture = row.ng_model_call_capture;
  if (Array.isArray(capture)) return capture as Row[];
  const inner = obj(capture)?.calls;
  return Array.isArray(inner) ? (inner as Row[]) : undefined;
}

function turns(row: Row): Row[] | undefined {
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

const failed = (c: Row) => {
  const status = c.status ?? obj(c.response)?.status;
  return c.error != null || status === "failed" || (typeof status === "number" && status >= 400);
};

const finding = (check: string, subject: string, locator: string | null, evidence: Row): Finding => ({ check, subject, locator, evidence });

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
      const c = calls(row);
      if (!c) return NO_CAPTURE;
      return { unhealthy: c.map((call, i) => ({ call, i })).filter(({ call }) => failed(call)).map(({ call, i }) => finding("model_call_failed", "model_call", `call[${i}]`, { status: call.status ?? null, error: call.error ?? null })) };
    },
  },
  {
    id: "rollout_ended_on_failed_model_call", scope: "rollout", subject: "rollout",
    run: (row) => {
      const c = calls(row);
      if (!c) return NO_CAPTURE;
      const last = c[c.length - 1];
      return last && failed(last) ? { unhealthy: [finding("rollout_ended_on_failed_model_call", "rollout", `call[${c.length - 1}]`, {})] } : ok;
    },
  },
  {
    id: "model_call_missing_token_counts", scope: "rollout", subject: "model_call",
    run: (row) => {
      const c = calls(row);
      if (!c) return NO_CAPTURE;
      return {
        unhealthy: c.map((call, i) => ({ call, i, usage: obj(call.usage) ?? obj(obj(call.response)?.usage) }))
          .filter(({ call, usage }) => !failed(call) && (num(usage?.input_tokens) === undefined || num(usage?.output_tokens) === undefined))
          .map(({ i }) => finding("model_call_missing_token_counts", "model_call", `call[${i}]`, {})),
      };
    },
  },
  {
    id: "model_call_zero_completion_tokens", scope: "rollout", subject: "model_call",
    run: (row) => {
      const c = calls(row);
      if (!c) return NO_CAPTURE;
      return {
        unhealthy: c.map((call, i) => ({ call, i, usage: obj(call.usage) ?? obj(obj(call.response)?.usage) }))
          .filter(({ call, usage }) => !failed(call) && usage?.output_tokens === 0 && !obj(call.incomplete_details ?? obj(call.response)?.incomplete_details))
          .map(({ i }) => finding("model_call_zero_completion_tokens", "model_call", `call[${i}]`, { output_tokens: 0 })),
      };
    },
  },
  {
    id: "model_call_runaway_generation", scope: "rollout", subject: "model_call",
    run: (row) => {
      const c = calls(row);
      if (!c) return NO_CAPTURE;
      return {
        unhealthy: c.map((call, i) => ({ i, reason: obj(call.incomplete_details ?? obj(call.response)?.incomplete_details)?.reason }))
          .filter(({ reason }) => reason === "max_output_tokens")
          .map(({ i }) => finding("model_call_runaway_generation", "model_call", `call[${i}]`, { reason: "max_output_tokens" })),
      };
    },
  },
  {
    id: "rollout_token_count_mismatch", scope: "rollout", subject: "rollout",
    run: (row) => {
      const c = calls(row);
      const usage = obj(obj(row.response)?.usage);
      if (!c || !usage) return c ? NO_USAGE : NO_CAPTURE;
      const sum = (k: string) => c.reduce((a, call) => a + (num((obj(call.usage) ?? obj(obj(call.response)?.usage))?.[k]) ?? 0), 0);
      const mismatched = ["input_tokens", "output_tokens"].filter((k) => num(usage[k]) !== undefined && num(usage[k]) !== sum(k));
      return { unhealthy: mismatched.map((k) => finding("rollout_token_count_mismatch", "rollout", null, { field: k, response_usage: usage[k], captured_sum: sum(k) })) };
    },
  },
  {
    id: "trajectory_has_gap", scope: "rollout", subject: "trajectory_capture",
    run: (row) => {
      const gaps = obj(row.ng_trajectory)?.gaps;
      return Array.isArray(gaps) && gaps.length > 0 ? { unobserved: `ng_trajectory has ${gaps.length} gap(s)` } : ok;
    },
  },
];

/** Ids of every check, rollout-, task- and run-scope. */
export const ALL_CHECK_IDS = ["record_unreadable", "record_duplicate_identity", ...ROLLOUT_CHECKS.map((c) => c.id), "task_failed_every_repeat", "run_missing_rollouts"];
