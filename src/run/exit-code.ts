/** The exit code of `gym eval run` (collection.md §4.6): 0, 1, 75 (incomplete, retry helps) or 76 (incomplete, it won't), and why. */
import { EXIT } from "../errors.ts";
import { type Eligibility, eligibility, type Outcome } from "../outputs/store.ts";

export interface CompletionInput {
  expected: string[];
  store: Map<string, Outcome>;
  maxAttempts: number;
  requireComplete: boolean;
  /** New successes, omissions, terminal or counted failures in this invocation. */
  progressed: boolean;
  /** Something was scored, counted as zero or imputed. */
  anythingScored: boolean;
  /** Why completion is required, for the message: "require_complete=true" (default) or "stopped by SIGTERM". */
  requiredBy?: string;
}

/** An exit code with the sentence that explains it (when completion was required and not reached), and whether `--resume` is the next step. */
export interface Completion {
  code: number;
  why?: string;
  resume: boolean;
}

export function decideExitCode(input: CompletionInput): number {
  return decideCompletion(input).code;
}

export function decideCompletion(input: CompletionInput): Completion {
  if (!input.requireComplete) return { code: input.anythingScored ? EXIT.ok : EXIT.failure, resume: false };
  const { expected, store, maxAttempts } = input;
  const gaps = expected.filter((id) => store.get(id)?.kind !== "success");
  if (gaps.length === 0) return { code: EXIT.ok, resume: false };
  const anySucceeded = gaps.length < expected.length;
  const of = `${gaps.length} of ${expected.length} rollouts have not succeeded`;
  const by = input.requiredBy ?? "require_complete=true";
  if (gaps.every((id) => store.get(id)?.kind === "omitted")) {
    return anySucceeded
      ? { code: EXIT.ok, why: `Complete with omissions: ${gaps.length} of ${expected.length} rollouts were intentionally omitted (_ng_omitted) and are not counted as completed.`, resume: false }
      : { code: EXIT.incompleteTerminal, why: `Incomplete (exit 76): every one of the ${expected.length} rollouts was intentionally omitted, and ${by} needs at least one success.`, resume: false };
  }
  const kinds = new Map<Eligibility, number>();
  for (const id of gaps) {
    const e = eligibility(store.get(id), maxAttempts);
    kinds.set(e, (kinds.get(e) ?? 0) + 1);
  }
  const eligible = (kinds.get("run") ?? 0) + (kinds.get("retry") ?? 0) + (kinds.get("replay") ?? 0);
  if (eligible > 0 && input.progressed) {
    return { code: EXIT.incompleteRetryable, why: `Incomplete (exit 75, ${by}): ${of}; ${eligible} can run again and this run made progress, so resuming helps.`, resume: true };
  }
  if (eligible > 0) {
    return {
      code: EXIT.failure,
      why:
        `Incomplete (exit 1, ${by}): ${of}; ${eligible} can run again, but this run made no progress ` +
        `(no new success or final outcome: ${lastFailures(gaps, store)}). Fix that cause (see the failures file) before resuming.`,
      resume: true,
    };
  }
  const parts: string[] = [];
  if (kinds.get("terminal")) {
    const classes = lastFailures(gaps.filter((id) => eligibility(store.get(id), maxAttempts) === "terminal"), store);
    parts.push(`${kinds.get("terminal")} failed terminally (${classes}${/timeout/.test(classes) ? "; --resume +retry_terminal_timeouts=true runs timeouts again" : ""})`);
  }
  if (kinds.get("exhausted")) parts.push(`${kinds.get("exhausted")} used all ${maxAttempts} attempts (raise NEMO_GYM_MAX_ROLLOUT_ATTEMPTS to allow more)`);
  if (kinds.get("judge")) parts.push(`${kinds.get("judge")} have an answer whose judge call failed (re-score them with gym eval reverify --judge-failed-only)`);
  if (kinds.get("omitted")) parts.push(`${kinds.get("omitted")} were intentionally omitted`);
  return { code: EXIT.incompleteTerminal, why: `Incomplete (exit 76, ${by}): ${of} and none can run again: ${parts.join("; ")}.`, resume: false };
}

/** The failure classes of the newest attempts of these rollouts, most frequent first ("7 agent_run_error, 1 timeout"). */
function lastFailures(ids: string[], store: Map<string, Outcome>): string {
  const counts = new Map<string, number>();
  for (const id of ids) {
    const o = store.get(id);
    const cls = o?.kind === "failure" ? o.failureClass : o?.kind === "missing" || o?.kind === "interrupted" ? "interrupted" : "not started";
    counts.set(cls, (counts.get(cls) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([cls, n]) => `${n} ${cls}`).join(", ");
}
