/**
 * longmemeval: xiaowu0162/longmemeval-cleaned's oracle split (`longmemeval_oracle.json`, through the download cache)
 * rendered as NeMo Gym's resources_servers/longmemeval/prepare_longmemeval.py renders it with its defaults (`--split
 * oracle --topk-context 50`): the orig-session / JSON-history / no-CoT prompt as one user message, the judge's inputs
 * in `verifier_metadata`; then tagged with the benchmark's `agent_ref` as benchmarks/longmemeval/prepare.py does.
 * `+prepare_script_args={split: s, topk_context: 0}` renders another split or keeps every session.
 */
import { readFileSync } from "node:fs";
import { GymError } from "../../../errors.ts";
import { hfDownload } from "../../../download/index.ts";
import { stringifyPython } from "../../../metrics/pyjson.ts";
import { pyStr, writePythonJsonl } from "../_math.ts";
import type { PrepareContext } from "../_prepare.ts";

export const HF_REPO_ID = "xiaowu0162/longmemeval-cleaned";
export const SPLIT_FILES: Record<string, string> = { oracle: "longmemeval_oracle.json", s: "longmemeval_s_cleaned.json", m: "longmemeval_m_cleaned.json" };
const AGENT = "longmemeval_benchmark_simple_agent";
const PROMPT_HEAD = "I will give you several history chats between you and a user. Please answer the question based on the relevant chat history.\n\n\nHistory Chats:\n\n";

type Entry = Record<string, unknown>;

/** Python's `str(value or "")`. */
function strOrEmpty(value: unknown): string {
  if (value === undefined || value === null || value === false || value === 0 || value === "") return "";
  if (Array.isArray(value) && value.length === 0) return "";
  if (typeof value === "object" && !Array.isArray(value) && Object.keys(value as object).length === 0) return "";
  return pyStr(value);
}

/** A session with each turn's `has_answer` dropped (upstream's cleanup). */
function cleanSession(session: unknown): unknown {
  if (!Array.isArray(session)) return session;
  return session.map((turn) => (turn && typeof turn === "object" && !Array.isArray(turn) ? Object.fromEntries(Object.entries(turn).filter(([k]) => k !== "has_answer")) : turn));
}

const list = (v: unknown): unknown[] => (Array.isArray(v) && v.length ? v : []);

/** The JSON-format session history: the last `topk` sessions (all when topk <= 0), ordered by date. */
export function historyString(entry: Entry, topk = 50): string {
  const dates = list(entry.haystack_dates);
  const sessions = list(entry.haystack_sessions);
  let pairs = dates.slice(0, Math.min(dates.length, sessions.length)).map((date, i) => [date, sessions[i]] as const);
  if (topk > 0) pairs = pairs.slice(-topk);
  pairs.sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : String(a[0]) > String(b[0]) ? 1 : 0));
  return pairs.map(([date, session], i) => `\n### Session ${i + 1}:\nSession Date: ${pyStr(date)}\nSession Content:\n\n${stringifyPython(cleanSession(session), { spaced: true, ensureAscii: true })}\n`).join("");
}

/** Rows whose kept sessions lose a gold evidence session (upstream's warning). */
export function rowsLosingEvidence(data: Entry[], topk: number): number {
  if (topk <= 0) return 0;
  return data.filter((entry) => {
    const ids = list(entry.haystack_session_ids);
    if (ids.length <= topk) return false;
    const kept = new Set(ids.slice(-topk));
    return list(entry.answer_session_ids).some((gold) => !kept.has(gold));
  }).length;
}

/** One task row, tagged with the benchmark's agent. */
export function longmemevalRow(entry: Entry, split = "oracle", topk = 50): Record<string, unknown> {
  const questionId = strOrEmpty(entry.question_id);
  const question = strOrEmpty(entry.question);
  const questionDate = strOrEmpty(entry.question_date);
  const prompt = `${PROMPT_HEAD}${historyString(entry, topk)}\n\nCurrent Date: ${questionDate}\nQuestion: ${question}\nAnswer:`;
  return {
    responses_create_params: { input: [{ role: "user", content: prompt }] },
    verifier_metadata: {
      question_id: questionId,
      question_type: strOrEmpty(entry.question_type),
      question,
      answer: strOrEmpty(entry.answer),
      question_date: questionDate,
      abstention: questionId.includes("_abs"),
      split,
      topk_context: topk,
    },
    agent_ref: { type: "responses_api_agents", name: AGENT },
  };
}

export async function prepare(context: PrepareContext): Promise<string> {
  const split = String(context.args.split ?? "oracle");
  const file = SPLIT_FILES[split];
  if (!file) throw new GymError("E_USAGE", `longmemeval: unknown split '${split}'.`, { hint: `Use +prepare_script_args={split: X} with X one of ${Object.keys(SPLIT_FILES).join(", ")}.` });
  const topk = Number(context.args.topk_context ?? 50);
  if (!Number.isInteger(topk)) throw new GymError("E_USAGE", `longmemeval: topk_context must be an integer, got '${context.args.topk_context}'.`, { hint: "Use +prepare_script_args={topk_context: 50} (0 keeps every session)." });
  context.log(`LongMemEval: reading ${HF_REPO_ID}/${file} ...`);
  const path = await hfDownload({ repoId: HF_REPO_ID, path: file, revision: "main" }, { log: context.log });
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new GymError("E_INPUT_SCHEMA", `longmemeval: ${path} is not JSON: ${(error as Error).message}`, { hint: "Delete the cached file and prepare again." });
  }
  if (!Array.isArray(data)) throw new GymError("E_INPUT_SCHEMA", `longmemeval: ${path} holds no JSON array of questions.`, { hint: "Delete the cached file and prepare again." });
  const entries = data as Entry[];
  const losing = rowsLosingEvidence(entries, topk);
  if (losing) context.log(`warning: topk_context ${topk} drops a gold evidence session on ${losing} of ${entries.length} rows, making them unanswerable; topk_context: 0 keeps all.`);
  const count = writePythonJsonl(context.outputPath, entries.map((entry) => longmemevalRow(entry, split, topk)), false);
  context.log(`LongMemEval: wrote ${count} rows -> ${context.outputPath}`);
  return context.outputPath;
}
