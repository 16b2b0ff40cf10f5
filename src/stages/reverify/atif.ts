/**
 * `gym eval reverify --input-format atif`: NeMo Relay's completed, text-only ATIF v1.7 trajectories, joined to
 * materialized inputs only through an explicit manifest, projected to the Gym `response` a verifier reads.
 * Anything outside that bounded profile is refused with the file and the reason, never guessed at.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { GymError } from "../../errors.ts";
import type { Row } from "../../jsonl/read.ts";
import { sha256 as sha } from "../../outputs/digest.ts";

type Any = Record<string, any>;
const isIndex = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;
const MANIFEST_KEYS = new Set(["trajectory_path", "_ng_task_index", "_ng_rollout_index", "expected_sha256"]);

/** Rollout rows (`_ng_task_index`, `_ng_rollout_index`, `response`, `_ng_atif_provenance`) for the manifest's trajectories. */
export function atifRollouts(manifestPath: string, warn: (line: string) => void): Row[] {
  if (!existsSync(manifestPath)) throw new GymError("E_INPUT_NOT_FOUND", `ATIF manifest not found: ${manifestPath}`, { hint: "Pass --atif-manifest with the JSONL that maps each trajectory to (_ng_task_index, _ng_rollout_index)." });
  const problems: string[] = [];
  const rows: Row[] = [];
  const seen = { key: new Map<string, number>(), path: new Map<string, number>(), hash: new Map<string, number>(), id: new Map<string, number>() };
  const once = (kind: keyof typeof seen, value: string, line: number, what: string) => {
    const first = seen[kind].get(value);
    if (first !== undefined) problems.push(`${manifestPath}:${line}: ${what} is also at line ${first}`);
    else seen[kind].set(value, line);
  };
  readFileSync(manifestPath, "utf8").split("\n").forEach((text, i) => {
    const line = i + 1;
    if (!text.trim()) return;
    const where = `${manifestPath}:${line}`;
    let entry: Any;
    try {
      entry = JSON.parse(text);
    } catch (error) {
      return void problems.push(`${where}: not JSON (${(error as Error).message})`);
    }
    const extra = Object.keys(entry ?? {}).filter((k) => !MANIFEST_KEYS.has(k));
    if (!entry || typeof entry !== "object" || extra.length) return void problems.push(`${where}: a manifest row holds exactly trajectory_path, _ng_task_index, _ng_rollout_index and optionally expected_sha256${extra.length ? ` (unknown: ${extra.join(", ")})` : ""}`);
    if (typeof entry.trajectory_path !== "string" || !isIndex(entry._ng_task_index) || !isIndex(entry._ng_rollout_index)) return void problems.push(`${where}: trajectory_path must be a string and the indices non-negative integers`);
    const pinned = entry.expected_sha256 === undefined || entry.expected_sha256 === "" ? undefined : entry.expected_sha256;
    if (pinned !== undefined && !/^[0-9a-f]{64}$/.test(pinned)) return void problems.push(`${where}: expected_sha256 must be 64 lowercase hex digits`);
    const path = resolve(dirname(manifestPath), entry.trajectory_path);
    once("key", `${entry._ng_task_index}-${entry._ng_rollout_index}`, line, `rollout (${entry._ng_task_index}, ${entry._ng_rollout_index})`);
    once("path", path, line, `trajectory ${entry.trajectory_path}`);
    if (!existsSync(path)) return void problems.push(`${where}: trajectory ${path} not found`);
    const bytes = readFileSync(path);
    const digest = sha(bytes);
    if (pinned && pinned !== digest) return void problems.push(`${where}: ${entry.trajectory_path} changed: its sha256 is ${digest}, the manifest pins ${pinned}`);
    if (!pinned) warn(`${where}: ${entry.trajectory_path} is not pinned by expected_sha256; its observed sha256 ${digest} is recorded in the result.`);
    once("hash", digest, line, `the same trajectory content`);
    let atif: Any;
    try {
      atif = JSON.parse(bytes.toString("utf8"));
    } catch (error) {
      return void problems.push(`${path}: not JSON (${(error as Error).message})`);
    }
    if (typeof atif?.trajectory_id === "string") once("id", atif.trajectory_id, line, `trajectory_id ${atif.trajectory_id}`);
    const projected = projectTrajectory(atif, digest);
    problems.push(...projected.problems.map((p) => `${path}: ${p}`));
    if (projected.response) {
      rows.push({
        _ng_task_index: entry._ng_task_index,
        _ng_rollout_index: entry._ng_rollout_index,
        response: projected.response,
        _ng_atif_provenance: { schema_version: atif.schema_version, trajectory_id: atif.trajectory_id ?? null, session_id: atif.session_id ?? null, source_sha256: digest, projection_status: "complete" },
      });
    }
  });
  if (!problems.length && !rows.length) problems.push(`${manifestPath} lists no trajectories`);
  if (problems.length) {
    throw new GymError("E_INPUT_SCHEMA", `${problems.length} problem(s) with the ATIF input; nothing was verified:\n${problems.slice(0, 20).map((p) => `  - ${p}`).join("\n")}`, {
      hint: "gym reads the completed, text-only ATIF v1.7 profile NeMo Relay emits (one LLM call per agent step, every tool call with its result); see `gym eval reverify --help`.",
    });
  }
  return rows;
}

/** The Gym response of one trajectory (NeMo Gym's projection), or why the trajectory is outside the profile. */
export function projectTrajectory(atif: Any, digest: string): { response?: Any; problems: string[] } {
  const problems: string[] = [];
  if (atif?.schema_version !== "ATIF-v1.7") return { problems: [`schema_version is ${JSON.stringify(atif?.schema_version)}; only ATIF-v1.7 is read`] };
  if (atif.continued_trajectory_ref) problems.push("continued trajectories are not read");
  if (Array.isArray(atif.subagent_trajectories) && atif.subagent_trajectories.length) problems.push("subagent trajectories are not read");
  const steps: Any[] = Array.isArray(atif.steps) ? atif.steps : [];
  const seed = typeof atif.trajectory_id === "string" ? atif.trajectory_id : digest;
  const id = (...parts: (string | number)[]) => `atif_${sha([seed, ...parts].join("\u0000")).slice(0, 20)}`;
  const output: Any[] = [];
  const callIds = new Set<string>();
  let agentSeen = false;
  let parallel = false;
  let last: Any | undefined;
  steps.forEach((step, i) => {
    const where = `step ${step?.step_id ?? i + 1}`;
    if (step.is_copied_context) problems.push(`${where} is copied context`);
    const text = textOf(step.message, problems, where);
    if (step.source !== "agent") {
      if (agentSeen) problems.push(`${where}: a ${step.source} step after the first agent step`);
      if (step.observation) problems.push(`${where}: observations on a non-agent step`);
      return;
    }
    agentSeen = true;
    last = step;
    if ((step.llm_call_count ?? 1) > 1) problems.push(`${where} aggregates ${step.llm_call_count} LLM calls`);
    const m = step.metrics ?? {};
    if (m.prompt_token_ids || m.completion_token_ids || m.logprobs) problems.push(`${where} carries training token metadata`);
    const calls: Any[] = Array.isArray(step.tool_calls) ? step.tool_calls : [];
    const results: Any[] = Array.isArray(step.observation?.results) ? step.observation.results : [];
    if (calls.length && text) problems.push(`${where} has both message text and tool calls, whose order ATIF does not prove`);
    if (calls.length > 1) parallel = true;
    if (typeof step.reasoning_content === "string" && step.reasoning_content) output.push({ id: id(i, "reasoning"), summary: [{ text: step.reasoning_content, type: "summary_text" }], type: "reasoning" });
    if (text || !calls.length) output.push({ id: id(i, "message"), content: [{ annotations: [], text: text ?? "", type: "output_text" }], role: "assistant", status: "completed", type: "message" });
    for (const call of calls) {
      if (callIds.has(call.tool_call_id)) problems.push(`${where}: tool_call_id ${call.tool_call_id} is used again`);
      callIds.add(call.tool_call_id);
      output.push({ arguments: sortedJson(call.arguments ?? {}), call_id: call.tool_call_id, name: call.function_name, type: "function_call", id: id(i, "call", call.tool_call_id), status: "completed" });
    }
    for (const call of calls) {
      const matching = results.filter((r) => r.source_call_id === call.tool_call_id);
      if (matching.length !== 1) problems.push(`${where}: tool call ${call.tool_call_id} has ${matching.length} results, not one`);
      const result = matching[0];
      if (!result) continue;
      const content = result.content !== undefined ? textOf(result.content, problems, `${where} result`) : result.extra?.tool_result !== undefined ? sortedJson(result.extra.tool_result) : undefined;
      output.push({ call_id: call.tool_call_id, output: content ?? "", type: "function_call_output", id: id(i, "output", call.tool_call_id), status: "completed" });
    }
    for (const r of results) if (!r.source_call_id || !calls.some((c) => c.tool_call_id === r.source_call_id)) problems.push(`${where}: a result without a matching source_call_id`);
  });
  if (!agentSeen) problems.push("the trajectory has no agent steps");
  if (problems.length) return { problems };
  const fm = atif.final_metrics ?? {};
  const created = last?.timestamp ? Date.parse(last.timestamp) / 1000 : 0;
  if (last?.timestamp && !/(Z|[+-]\d{2}:?\d{2})$/.test(last.timestamp)) return { problems: [`the last agent step's timestamp ${last.timestamp} has no timezone`] };
  const usage = typeof fm.total_prompt_tokens === "number" && typeof fm.total_completion_tokens === "number"
    ? { input_tokens: fm.total_prompt_tokens, input_tokens_details: { cached_tokens: fm.total_cached_tokens ?? 0 }, output_tokens: fm.total_completion_tokens, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: fm.total_prompt_tokens + fm.total_completion_tokens }
    : null;
  return {
    problems,
    response: { id: id("response"), created_at: Math.floor(created), model: last?.model_name ?? atif.agent?.model_name ?? "unknown", object: "response", output, parallel_tool_calls: parallel, tool_choice: "auto", tools: [], usage },
  };
}

function textOf(message: unknown, problems: string[], where: string): string | undefined {
  if (message === undefined || message === null || typeof message === "string") return (message as string | undefined) ?? undefined;
  if (Array.isArray(message) && message.every((p) => p?.type === "text")) return message.map((p) => String(p.text ?? "")).join("");
  problems.push(`${where}: multimodal content is not read`);
  return undefined;
}

/** JSON with sorted keys and compact separators (NeMo Gym's arguments spelling). */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(",")}]`;
  if (value && typeof value === "object") return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${sortedJson((value as Any)[k])}`).join(",")}}`;
  return JSON.stringify(value);
}

/** The ATIF input as a temporary rollouts file for the native path, after the mode's refusals; `cleanup` removes it. */
export function prepareAtifInput(o: { manifest?: string; rollouts?: string; refused: Record<string, boolean>; warn: (line: string) => void }): { rollouts: string; cleanup(): void } {
  if (!o.manifest) throw new GymError("E_MISSING_ARGUMENT", "--input-format atif needs --atif-manifest.", { hint: "The manifest maps each trajectory to (_ng_task_index, _ng_rollout_index); trajectories are never joined by file name or order." });
  if (o.rollouts) throw new GymError("E_USAGE", "--rollouts is for native Gym input; with --input-format atif the trajectories come from --atif-manifest.", { hint: "Drop --rollouts." });
  const used = Object.entries(o.refused).filter(([, on]) => on).map(([flag]) => `--${flag}`);
  if (used.length) throw new GymError("E_USAGE", `${used.join(", ")} cannot be used with --input-format atif (ATIF input is verified once, against stateless servers only).`, { hint: `Drop ${used.join(", ")}.` });
  const rows = atifRollouts(o.manifest, o.warn);
  const dir = mkdtempSync(join(tmpdir(), "gym-atif-"));
  const path = join(dir, "atif_rollouts.jsonl");
  writeFileSync(path, rows.map((r) => `${JSON.stringify(r)}\n`).join(""));
  return { rollouts: path, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
