/** What an existing output already settles (resume, judge recovery): marks on the inputs index, and the seeding of successes. */
import * as fs from "node:fs";
import { resolve } from "node:path";
import { readJsonl, type Row } from "../../jsonl/read.ts";
import { JsonlAppender } from "../../jsonl/write.ts";
import { isEvidenceRow } from "../../outputs/store.ts";
import { State, type InputsIndex } from "./inputs.ts";
import { type IdentityKey, identityOf, readTextRows } from "./lines.ts";

/** Counts of what resume found (NeMo Gym prints the same summary). */
export interface CacheSummary {
  done: number;
  terminal: number;
  maxedOut: number;
}

/** Keys of the rows of a file that match an input: marks them `done`. Keys with no input go to `others` (if given). */
export async function markPresent(file: string, index: InputsIndex, others?: Set<IdentityKey>): Promise<number> {
  if (!fs.existsSync(file)) return 0;
  let n = 0;
  for await (const { value } of readJsonl(file, { allowTruncatedTail: true })) {
    const key = identityOf(value);
    if (key === undefined) continue;
    const entry = index.entries.get(key);
    if (entry) {
      if (!(entry.state & State.done)) n++;
      entry.state |= State.done;
    } else others?.add(key);
  }
  return n;
}

/**
 * Resume: identities in the output are done; in the output's own sidecar, a terminal row (unless it is a
 * `timeout_exceeded` row and `retryTerminalTimeouts`) or `maxAttempts` rows of an identity block it. Other
 * failures are verified again. Evidence rows are not attempts.
 */
export async function loadResumeCache(output: string, failures: string, index: InputsIndex, maxAttempts: number, retryTerminalTimeouts: boolean): Promise<CacheSummary> {
  const done = await markPresent(output, index);
  if (fs.existsSync(failures)) {
    for await (const { value } of readJsonl(failures, { allowTruncatedTail: true })) {
      if (isEvidenceRow(value)) continue;
      const entry = index.entries.get(identityOf(value) ?? "");
      if (!entry) continue;
      entry.attempts++;
      const timeoutOverride = retryTerminalTimeouts && value._ng_failure_class === "timeout_exceeded";
      if (value._ng_failure_terminal === true && !timeoutOverride) entry.state |= State.terminal;
    }
  }
  let terminal = 0;
  let maxedOut = 0;
  for (const entry of index.entries.values()) {
    if (entry.state & State.done) continue;
    if (entry.state & State.terminal) terminal++;
    else if (entry.attempts >= maxAttempts) maxedOut++;
  }
  return { done, terminal, maxedOut };
}

/** Whether resume skips an identity. */
export function resumeSkips(state: number, attempts: number, maxAttempts: number): boolean {
  return (state & (State.done | State.terminal)) !== 0 || attempts >= maxAttempts;
}

/**
 * Judge recovery: appends every success of `--rollouts` whose identity is not in the output yet (rows without
 * an identity are copied through), one flushed line each, newline-normalised. `present` holds keys already in
 * the output that match no input. Returns the number of rows appended. The same file as the output is a no-op.
 */
export async function seedSuccesses(rollouts: string, output: string, index: InputsIndex, present: Set<IdentityKey>): Promise<number> {
  if (resolve(rollouts) === resolve(output)) return 0;
  const out = JsonlAppender.open(output);
  let seeded = 0;
  try {
    for await (const row of readTextRows(rollouts)) {
      const key = identityOf(row.value);
      if (key !== undefined) {
        const entry = index.entries.get(key);
        if (entry) {
          if (entry.state & State.done) continue;
          entry.state |= State.done;
        } else {
          if (present.has(key)) continue;
          present.add(key);
        }
      }
      await out.writeLine(`${row.text}\n`);
      seeded++;
    }
  } finally {
    await out.close();
  }
  return seeded;
}

/** Rows of a sidecar that judge recovery re-verifies: judge-class failures (not evidence rows). */
export function isJudgeFailure(row: Row): boolean {
  return !isEvidenceRow(row) && (row._ng_failure_class === "judge_failed" || row._ng_failure_class === "judge_invalid");
}
