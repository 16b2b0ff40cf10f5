/** The Store: "newest attempt wins" over the rollouts file, the failures sidecar and the attempt reservations. */
import * as fs from "node:fs";
import { readJsonl, type Row } from "../jsonl/read.ts";
import { RowReader, UNREADABLE } from "../jsonl/rows.ts";
import { indexedOutcomes } from "./outcome-index.ts";
import { identityKey } from "./paths.ts";

/** What is known about one rollout identity: a compact record, never the row payload. */
export type Outcome =
  | { kind: "success"; attempt: number }
  | { kind: "failure"; attempt: number; failureClass: string; terminal: boolean; countsAsZero: boolean; savedAnswer: boolean; elapsed?: number }
  | { kind: "interrupted"; attempt: number }
  | { kind: "omitted"; attempt: number }
  /** A reserved attempt whose outcome never reached disk (collector killed mid-flight, or an unrouted abort). */
  | { kind: "missing"; attempt: number };

const JUDGE_CLASSES = new Set(["judge_failed", "judge_invalid"]);

/** True for the evidence rows every reader drops before choosing the newest attempt. */
export function isEvidenceRow(row: Row): boolean {
  return row._ng_unrouted_run_error === true || row._ng_dispatch_drained === true;
}

export function attemptOf(row: Row): number {
  return typeof row._ng_attempt_index === "number" ? row._ng_attempt_index : 0;
}

/** Reads both files and the reservations into the newest outcome per identity. Torn last lines are ignored. */
/** What else reads the rows on disk in the store's one pass over them (a resume's health check and cost). */
export interface StoreReaders {
  /** Each rollout row as JSON.parse gave it, with its line number, in file order. */
  rollout?: (row: Row, line: number) => void;
  /** Each failure row (evidence rows too), in file order. */
  failure?: (row: Row) => void;
}

export async function loadStore(rolloutsPath: string, failuresPath: string, reserved: Map<string, number>, retryTerminalTimeouts = false, readers: StoreReaders = {}, outcomeIndex?: string): Promise<Map<string, Outcome>> {
  const store = new Map<string, Outcome>();
  const offer = (id: string, outcome: Outcome) => {
    const current = store.get(id);
    if (!current || outcome.attempt > current.attempt) store.set(id, outcome);
    else if (outcome.attempt === current.attempt && !(current.kind === "success" && outcome.kind !== "success")) store.set(id, outcome);
  };
  for await (const { value } of readIfExists(failuresPath)) {
    readers.failure?.(value);
    if (isEvidenceRow(value)) continue;
    offer(identityKey(value), failureOutcome(value, retryTerminalTimeouts));
  }
  // Nothing else reads the rollouts: their identities and attempts come from a scan that builds no row.
  const scanned = readers.rollout ? undefined : await scanSuccesses(rolloutsPath, outcomeIndex);
  if (scanned) for (const [id, attempt] of scanned) offer(id, success(attempt));
  else {
    for await (const { value, line } of readIfExists(rolloutsPath)) {
      readers.rollout?.(value, line);
      offer(identityKey(value), success(attemptOf(value)));
    }
  }
  for (const [id, attempt] of reserved) {
    const current = store.get(id);
    if (!current || current.attempt < attempt) store.set(id, { kind: "missing", attempt });
  }
  return store;
}

const SUCCESSES: Outcome[] = [];
/** The success outcome of an attempt: one shared object per attempt number (a million successes, no million objects). */
export function success(attempt: number): Outcome {
  return attempt < 64 && Number.isInteger(attempt) && attempt >= 0 ? (SUCCESSES[attempt] ??= Object.freeze({ kind: "success", attempt }) as Outcome) : { kind: "success", attempt };
}

/**
 * The (identity, attempt) of every row of a rollouts file, in file order, from the row scanner reading only the
 * top-level numbers (no string, no nested value is built). Undefined when a row is anything but plain (a line that
 * is not an object, an index or attempt that is not a plain JSON integer): the caller then parses the file as before,
 * so odd rows keep their identities and errors exactly.
 */
async function scanSuccesses(path: string, outcomeIndex?: string): Promise<[string, number][] | undefined> {
  if (!fs.existsSync(path)) return [];
  if (outcomeIndex) {
    // A file the scanner refuses (bad bytes, a bad line): the parsing read reports it, as before.
    const rows = await indexedOutcomes(path, outcomeIndex).catch(() => undefined);
    if (rows) return rows.map((r) => [`${r.task}-${r.rollout}`, r.attempt]);
  }
  const reader = new RowReader({ badLines: "mark" });
  const out: [string, number][] = [];
  try {
    for await (const { rows } of reader.batches(path)) {
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i]!;
        const task = row._ng_task_index;
        const rollout = row._ng_rollout_index;
        const attempt = row._ng_attempt_index;
        if (row === UNREADABLE || !plain(task) || !plain(rollout) || !(attempt === undefined || (typeof attempt === "number" && Number.isSafeInteger(attempt)))) return undefined;
        out.push([`${task}-${rollout}`, (attempt as number | undefined) ?? 0]);
      }
    }
  } catch {
    return undefined; // a torn tail or a bad line: the parsing read decides, as before
  }
  return out;
}

/** undefined or an integer the scanner gave as a plain number (as JSON.parse gives it). */
const plain = (v: unknown) => v === undefined || (typeof v === "number" && Number.isSafeInteger(v));

function failureOutcome(row: Row, retryTerminalTimeouts: boolean): Outcome {
  const attempt = attemptOf(row);
  if (row._ng_omitted === true) return { kind: "omitted", attempt };
  const failureClass = String(row._ng_failure_class ?? "unknown");
  if (failureClass === "kill_shaped" && row._ng_failure_terminal !== true) return { kind: "interrupted", attempt };
  const stamped = row._ng_failure_terminal === true || failureClass === "permanent" || failureClass === "skipped";
  const terminal = stamped && !(retryTerminalTimeouts && failureClass === "timeout_exceeded");
  const elapsed = typeof row.elapsed_seconds === "number" ? row.elapsed_seconds : undefined;
  return { kind: "failure", attempt, failureClass, terminal, countsAsZero: row._ng_failure_counts_as_zero === true, savedAnswer: JUDGE_CLASSES.has(failureClass) && row.response != null, elapsed };
}

async function* readIfExists(path: string) {
  if (!fs.existsSync(path)) return;
  yield* readJsonl(path, { allowTruncatedTail: true });
}

/** Why a rollout is or is not dispatched again on resume. */
export type Eligibility = "done" | "run" | "retry" | "replay" | "exhausted" | "terminal" | "judge" | "omitted";

/**
 * Replay rules (collection.md §5.5), with one deliberate choice: a reserved attempt with no outcome
 * (the collector was killed mid-flight) is replayed under a new attempt number and, like a kill_shaped
 * interruption, spends no retry. See the README's "Resume" section for why.
 */
export function eligibility(outcome: Outcome | undefined, maxAttempts: number): Eligibility {
  if (!outcome) return "run";
  switch (outcome.kind) {
    case "success":
      return "done";
    case "omitted":
      return "omitted";
    case "interrupted":
      return "replay";
    case "missing":
      return "replay";
    case "failure":
      if (outcome.terminal) return "terminal";
      if (outcome.savedAnswer) return "judge";
      return outcome.attempt + 1 < maxAttempts ? "retry" : "exhausted";
  }
}

/** NEMO_GYM_MAX_ROLLOUT_ATTEMPTS: a positive int, 3 when unset or invalid (with a warning). */
export function maxRolloutAttempts(warn: (m: string) => void, env = process.env): number {
  const raw = env.NEMO_GYM_MAX_ROLLOUT_ATTEMPTS;
  if (raw === undefined || raw === "") return 3;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    warn(`NEMO_GYM_MAX_ROLLOUT_ATTEMPTS=${raw} is not a whole number ≥ 1; using 3.`);
    return 3;
  }
  return n;
}
