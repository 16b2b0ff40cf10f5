/** `gym dev compare`: a per-task parity report between two rollout files (old vs new server), streamed, per-task sums only. */
import * as fs from "node:fs";
import { emptyInput, GymError } from "../../errors.ts";
import { checkRolloutFields } from "../../metrics/row-fields.ts";
import type { Row } from "../../jsonl/read.ts";
import { runPaths } from "../../outputs/paths.ts";
import { isEvidenceRow } from "../../outputs/store.ts";
import { attachLogs, type Worst } from "./logs.ts";
import { isDoc, rowsOf, taskKeyOf, type TaskKey } from "./rows.ts";

export { taskKeyOf, type TaskKey };

export type Side = "old" | "new";

export interface ParityOptions {
  /** Field naming the task (dotted path allowed); default: `_ng_task_id`, `task_id`, `task_name`, `verifier_metadata.task_id`, … */
  key?: string;
  /** Lines of the losing side's verifier output printed per flip (default 15). */
  tail?: number;
  /** A third place to resolve `verifier_logs_dir` against, after the side's own folder and the current directory. */
  logsRoot?: string;
  warn?: (message: string) => void;
}

export interface SideSummary {
  path: string;
  rows: number;
  tasks: number;
  /** Records of `<stem>_failures.jsonl` folded in as masked (last per rollout, none for a rollout later scored). */
  failures_folded: number;
  /** Mean of every finite reward on this side (null when none). */
  mean_reward: number | null;
  /** How rows were keyed to tasks: key source → rows. */
  keyed_by: Record<string, number>;
}

export interface FlipLog {
  side: Side;
  source?: "verifier_logs_dir" | "test_output";
  path?: string;
  lines?: string[];
  unavailable?: string;
}

export interface Flip {
  task: string;
  old_reward: number;
  new_reward: number;
  winner: Side;
  old_failure_kind?: string;
  new_failure_kind?: string;
  /** Set on rerun candidates: the side(s) whose rows report an agent error. */
  agent_error?: Side[];
  log: FlipLog;
}

export interface ParityReport {
  old: SideSummary;
  new: SideSummary;
  key: string;
  tail: number;
  counts: { tasks: number; identical: number; flipped: number; old_win: number; new_win: number; rerun_candidates: number; masked: number; missing: number };
  /** Mean of per-task means over the tasks both sides scored (identical, flipped and rerun candidates). */
  shared_mean_reward: { old: number | null; new: number | null };
  flips: Flip[];
  rerun_candidates: Flip[];
  masked: Array<{ task: string; old?: string; new?: string }>;
  missing: Array<{ task: string; only_in: Side; ambiguous_in?: string[] }>;
  identical: string[];
}


interface TaskAgg extends TaskKey {
  rows: number;
  sum: number;
  scored: number;
  mask?: string;
  failureKind?: string;
  agentError: boolean;
  worst?: Worst;
}

interface SideData {
  side: Side;
  path: string;
  tasks: Map<string, TaskAgg>;
  tasksets: Set<string>;
  rows: number;
  scoredRows: number;
  sum: number;
  folded: number;
  keyedBy: Record<string, number>;
  unknown: Array<{ task: string; reason: string }>;
}

/** Streams both files (and their failures sidecars) and classifies every task: identical, flipped, masked or missing. */
export async function compareRolloutFiles(oldPath: string, newPath: string, options: ParityOptions = {}): Promise<ParityReport> {
  const tail = options.tail ?? 15;
  const oldSide = await readSide("old", oldPath, options);
  const newSide = await readSide("new", newPath, options);
  const report: ParityReport = {
    old: summary(oldSide),
    new: summary(newSide),
    key: options.key ?? "auto",
    tail,
    counts: { tasks: 0, identical: 0, flipped: 0, old_win: 0, new_win: 0, rerun_candidates: 0, masked: 0, missing: 0 },
    shared_mean_reward: { old: null, new: null },
    flips: [],
    rerun_candidates: [],
    masked: [],
    missing: [],
    identical: [],
  };
  const shared = { old: 0, new: 0, n: 0 };
  const pending: Array<{ log: FlipLog; worst: Worst; path: string }> = [];
  for (const pair of matchTasks(oldSide, newSide)) {
    const { label, o, n } = pair;
    if (!o || !n) {
      report.missing.push({ task: label, only_in: o ? "old" : "new", ...(pair.ambiguous ? { ambiguous_in: pair.ambiguous } : {}) });
      continue;
    }
    if (o.mask || n.mask || o.scored === 0 || n.scored === 0) {
      report.masked.push({ task: label, ...(o.mask ? { old: o.mask } : {}), ...(n.mask ? { new: n.mask } : {}) });
      continue;
    }
    const om = o.sum / o.scored;
    const nm = n.sum / n.scored;
    shared.old += om;
    shared.new += nm;
    shared.n++;
    if (om === nm) {
      report.identical.push(label);
      continue;
    }
    const winner: Side = om > nm ? "old" : "new";
    const agentError = [...(o.agentError ? (["old"] as const) : []), ...(n.agentError ? (["new"] as const) : [])];
    const flip: Flip = { task: label, old_reward: om, new_reward: nm, winner, log: { side: winner === "old" ? "new" : "old" } };
    if (o.failureKind) flip.old_failure_kind = o.failureKind;
    if (n.failureKind) flip.new_failure_kind = n.failureKind;
    if (agentError.length > 0) flip.agent_error = agentError;
    (agentError.length > 0 ? report.rerun_candidates : report.flips).push(flip);
    const loser = winner === "old" ? newSide : oldSide;
    pending.push({ log: flip.log, worst: (winner === "old" ? n : o).worst!, path: loser.path });
  }
  for (const u of oldSide.unknown) report.masked.push({ task: u.task, old: u.reason });
  for (const u of newSide.unknown) report.masked.push({ task: u.task, new: u.reason });
  const byDiff = (a: Flip, b: Flip) => Math.abs(b.new_reward - b.old_reward) - Math.abs(a.new_reward - a.old_reward) || (a.task < b.task ? -1 : 1);
  report.flips.sort(byDiff);
  report.rerun_candidates.sort(byDiff);
  await attachLogs(pending, tail, options.logsRoot);
  const c = report.counts;
  c.identical = report.identical.length;
  c.flipped = report.flips.length;
  c.rerun_candidates = report.rerun_candidates.length;
  c.old_win = report.flips.filter((f) => f.winner === "old").length;
  c.new_win = c.flipped - c.old_win;
  c.masked = report.masked.length;
  c.missing = report.missing.length;
  c.tasks = c.identical + c.flipped + c.rerun_candidates + c.masked + c.missing;
  if (shared.n > 0) report.shared_mean_reward = { old: shared.old / shared.n, new: shared.new / shared.n };
  return report;
}

function summary(data: SideData): SideSummary {
  return {
    path: data.path,
    rows: data.rows,
    tasks: data.tasks.size,
    failures_folded: data.folded,
    mean_reward: data.scoredRows > 0 ? data.sum / data.scoredRows : null,
    keyed_by: data.keyedBy,
  };
}

async function readSide(side: Side, path: string, options: ParityOptions): Promise<SideData> {
  const data: SideData = { side, path, tasks: new Map(), tasksets: new Set(), rows: 0, scoredRows: 0, sum: 0, folded: 0, keyedBy: {}, unknown: [] };
  // Failures first: only the sidecar's records are held (last per rollout); the rollouts file is streamed past them.
  const failures = new Map<string, { key?: TaskKey; failureClass: string }>();
  const sidecar = path === "-" ? undefined : runPaths(path).failures;
  if (sidecar && fs.existsSync(sidecar)) {
    for await (const { row, line } of rowsOf(sidecar, options.warn)) {
      if (isEvidenceRow(row)) continue;
      const found = taskKeyOf(row, options.key);
      const id = rolloutId(found?.key, row, `${sidecar}:${line}`);
      failures.delete(id);
      failures.set(id, { key: found?.key, failureClass: String(row._ng_failure_class ?? "unknown") });
    }
  }
  for await (const { row, line } of rowsOf(path, options.warn)) {
    if (isEvidenceRow(row)) continue;
    checkRolloutFields(row, `${path}:${line}`, { reward: "unchecked", identity: false });
    data.rows++;
    const found = taskKeyOf(row, options.key);
    if (failures.size > 0) failures.delete(rolloutId(found?.key, row, ""));
    if (!found) {
      data.unknown.push({ task: `unknown (${side}) #${data.unknown.length + 1}`, reason: `${path}:${line} names no task${options.key ? ` (no field ${options.key})` : ""}` });
      continue;
    }
    data.keyedBy[found.source] = (data.keyedBy[found.source] ?? 0) + 1;
    const agg = taskOf(data, found.key);
    agg.rows++;
    scoreRow(data, agg, row, line);
  }
  if (data.rows === 0 && failures.size === 0) throw emptyInput(path === "-" ? "<stdin>" : path, side.toUpperCase());
  for (const failure of failures.values()) {
    data.folded++;
    if (!failure.key) {
      data.unknown.push({ task: `unknown (${side}) #${data.unknown.length + 1}`, reason: `failed: ${failure.failureClass}` });
      continue;
    }
    const agg = taskOf(data, failure.key);
    agg.mask ??= `failed: ${failure.failureClass}`;
  }
  return data;
}

function rolloutId(key: TaskKey | undefined, row: Row, fallback: string): string {
  if (!key || typeof row._ng_rollout_index !== "number") return `\u0001${fallback}`;
  return `${key.taskset ?? ""}\u0000${key.id}\u0000${row._ng_rollout_index}`;
}

function taskOf(data: SideData, key: TaskKey): TaskAgg {
  const composite = `${key.taskset ?? ""}\u0000${key.id}`;
  let agg = data.tasks.get(composite);
  if (!agg) {
    agg = { ...key, rows: 0, sum: 0, scored: 0, agentError: false };
    data.tasks.set(composite, agg);
    if (key.taskset !== null) data.tasksets.add(key.taskset);
  }
  return agg;
}

function scoreRow(data: SideData, agg: TaskAgg, row: Row, line: number): void {
  const label = agg.taskset ? `${agg.taskset}/${agg.id}` : agg.id;
  if (typeof row.failure_kind === "string" && !agg.failureKind) agg.failureKind = row.failure_kind;
  const response = row.response;
  if (row.agent_error === true || (isDoc(response) && (response.error != null || response.status === "failed"))) agg.agentError = true;
  const reward = row.reward;
  if (typeof reward === "string" || typeof reward === "boolean" || (reward !== null && reward !== undefined && typeof reward !== "number")) {
    throw new GymError("E_INPUT_SCHEMA", `${data.path}:${line}: task ${label}: 'reward' is ${JSON.stringify(reward)} (a ${Array.isArray(reward) ? "list" : typeof reward}); expected a number.`, {
      hint: "Rewards must be JSON numbers. Fix the row, or re-score the file with `gym eval reverify`.",
    });
  }
  let mask: string | undefined;
  if (row.mask_sample === true) mask = typeof row.failure_kind === "string" ? `mask_sample (${row.failure_kind})` : "mask_sample";
  else if (!("reward" in row)) mask = "reward absent";
  else if (reward === null || reward === undefined) mask = "reward null";
  else if (!Number.isFinite(reward)) mask = `reward ${Number.isNaN(reward) ? "NaN" : reward > 0 ? "Infinity" : "-Infinity"}`;
  if (mask) {
    agg.mask ??= mask;
    return;
  }
  const value = reward as number;
  agg.sum += value;
  agg.scored++;
  data.sum += value;
  data.scoredRows++;
  if (!agg.worst || value < agg.worst.reward) {
    const logsDir = typeof row.verifier_logs_dir === "string" && row.verifier_logs_dir !== "" ? row.verifier_logs_dir : undefined;
    agg.worst = { reward: value, line, logsDir, testOutput: typeof row.test_output === "string" };
  }
}

/** Pairs the tasks of both sides (taskset rules of `gym dev compare`); one entry per task, sorted by label. */
function matchTasks(a: SideData, b: SideData): Array<{ label: string; o?: TaskAgg; n?: TaskAgg; ambiguous?: string[] }> {
  const multiA = a.tasksets.size > 1;
  const multiB = b.tasksets.size > 1;
  const qualified = (t: TaskAgg, multi: boolean) => (multi && t.taskset !== null ? `${t.taskset}/${t.id}` : t.id);
  const out = new Map<string, { label: string; o?: TaskAgg; n?: TaskAgg; ambiguous?: string[] }>();
  const put = (label: string, side: "o" | "n", t: TaskAgg) => {
    const entry = out.get(label) ?? { label };
    entry[side] = entry[side] ? merge(entry[side]!, t) : t;
    out.set(label, entry);
  };
  if (multiA === multiB) {
    for (const t of a.tasks.values()) put(qualified(t, multiA), "o", t);
    for (const t of b.tasks.values()) put(qualified(t, multiB), "n", t);
  } else {
    // One side spans several tasksets: the other keeps plain ids, each matched to the one taskset that has it.
    const [multi, single, ms, ss] = multiA ? [a, b, "o", "n"] as const : [b, a, "n", "o"] as const;
    const byId = new Map<string, TaskAgg[]>();
    for (const t of multi.tasks.values()) {
      put(qualified(t, true), ms, t);
      byId.set(t.id, [...(byId.get(t.id) ?? []), t]);
    }
    const ownTaskset = single.tasksets.size === 1 ? [...single.tasksets][0]! : null;
    for (const t of single.tasks.values()) {
      const candidates = byId.get(t.id) ?? [];
      const pick = candidates.find((c) => c.taskset === (t.taskset ?? ownTaskset)) ?? (candidates.length === 1 ? candidates[0] : undefined);
      if (pick) put(qualified(pick, true), ss, t);
      else {
        put(t.id, ss, t);
        if (candidates.length > 1) out.get(t.id)!.ambiguous = candidates.map((c) => c.taskset ?? "(none)").sort();
      }
    }
  }
  return [...out.values()].sort((x, y) => (x.label < y.label ? -1 : x.label > y.label ? 1 : 0));
}

function merge(x: TaskAgg, y: TaskAgg): TaskAgg {
  const worst = !x.worst || (y.worst && y.worst.reward < x.worst.reward) ? y.worst : x.worst;
  return { ...x, rows: x.rows + y.rows, sum: x.sum + y.sum, scored: x.scored + y.scored, mask: x.mask ?? y.mask, failureKind: x.failureKind ?? y.failureKind, agentError: x.agentError || y.agentError, worst };
}
