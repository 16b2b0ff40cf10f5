/** `resubmit --recover`'s evidence (the Store selection of each stem, the chain files) and its one decision (§9.6). */
import * as fs from "node:fs";
import { join } from "node:path";
import { readJsonl } from "../jsonl/read.ts";
import { identityKey, runPaths } from "../outputs/paths.ts";
import { eligibility, loadStore, maxRolloutAttempts } from "../outputs/store.ts";
import { readManifest, readReservations } from "../run/manifest.ts";
import { CHAIN_FILES } from "./chain.ts";

/** One state per materialized identity (NeMo Gym's recovery vocabulary). */
export type IdentityState = "scored" | "model_final" | "judge_recoverable" | "retryable" | "exhausted" | "terminal" | "missing" | "omitted";

export interface Evidence {
  /** Stems read (artifacts/rollouts.jsonl, or each shard's). */
  stems: string[];
  expected: number;
  states: Record<IdentityState, number>;
  infraRetries: number;
  accumulatedWalltimeS: number;
  /** The chain's walltime cap in seconds (a raised one wins), or null when it has none. */
  maxWalltimeS: number | null;
  chain: string[];
}

export type Action = "resubmit" | "rejudge" | "nothing" | "stop";

export interface Decision {
  action: Action;
  reason: string;
  /** For a stop: what to do, as a command or an edit. */
  fix?: string;
  gate_task: { status: "SUCCESS" | "PENDING" | "BLOCKED"; completed: number; expected: number };
}

const num = (path: string) => Number((fs.existsSync(path) ? fs.readFileSync(path, "utf8") : "0").trim()) || 0;

/** Reads every stem under a benchmark's artifacts (never contacts the scheduler). */
export async function readEvidence(jobDir: string): Promise<Evidence> {
  const artifacts = join(jobDir, "artifacts");
  const shardDirs = fs.existsSync(artifacts) ? fs.readdirSync(artifacts).filter((n) => /^shard-\d+$/.test(n)).map((n) => join(artifacts, n)) : [];
  const stems = [join(artifacts, "rollouts.jsonl"), ...shardDirs.map((d) => join(d, "rollouts.jsonl"))].filter((s) => fs.existsSync(runPaths(s).materializedInputs));
  const states = { scored: 0, model_final: 0, judge_recoverable: 0, retryable: 0, exhausted: 0, terminal: 0, missing: 0, omitted: 0 } satisfies Record<IdentityState, number>;
  const maxAttempts = maxRolloutAttempts(() => {});
  let expected = 0;
  // A merged sharded run: its shards hold the evidence, the merged file only repeats it.
  for (const stem of shardDirs.length > 0 ? stems.filter((s) => !s.startsWith(join(artifacts, "rollouts"))) : stems) {
    const paths = runPaths(stem);
    const reserved = await readReservations(readManifest(paths.manifest), paths.attempts);
    const store = await loadStore(paths.rollouts, paths.failures, reserved);
    for await (const { value } of readJsonl(paths.materializedInputs, { allowTruncatedTail: true })) {
      expected++;
      const outcome = store.get(identityKey(value));
      const e = eligibility(outcome, maxAttempts);
      if (outcome?.kind === "failure" && outcome.countsAsZero) states.model_final++;
      else if (e === "done") states.scored++;
      else if (e === "judge") states.judge_recoverable++;
      else if (e === "retry" || e === "replay") states.retryable++;
      else if (e === "run") states.missing++;
      else if (e === "exhausted" || e === "terminal" || e === "omitted") states[e]++;
    }
  }
  const chainPath = join(jobDir, CHAIN_FILES.chain);
  return {
    stems,
    expected,
    states,
    infraRetries: num(join(jobDir, CHAIN_FILES.retries)),
    accumulatedWalltimeS: num(join(jobDir, CHAIN_FILES.walltime)),
    maxWalltimeS: maxWalltime(jobDir),
    chain: fs.existsSync(chainPath) ? fs.readFileSync(chainPath, "utf8").split("\n").filter(Boolean) : [],
  };
}

/** The cap job.sh was rendered with, unless `--max-walltime` raised it. */
function maxWalltime(jobDir: string): number | null {
  const raised = num(join(jobDir, CHAIN_FILES.maxWalltime));
  if (raised > 0) return raised;
  const script = join(jobDir, "job.sh");
  const m = fs.existsSync(script) ? /^GYM_MAX_WALLTIME_S=(\d+)$/m.exec(fs.readFileSync(script, "utf8")) : null;
  return m ? Number(m[1]) : null;
}

/** The one action the evidence calls for, keeping the budgets already spent. */
export function decide(evidence: Evidence, continuation: string): Decision {
  const s = evidence.states;
  const completed = s.scored + s.model_final;
  const gate = (status: Decision["gate_task"]["status"]) => ({ status, completed, expected: evidence.expected });
  if (evidence.expected === 0) return { action: "resubmit", reason: "no materialized inputs yet: the job never started collecting", gate_task: gate("PENDING") };
  if (s.terminal > 0) {
    return { action: "stop", reason: `${s.terminal} rollout(s) failed terminally; completion is blocked`, fix: "Inspect artifacts/rollouts_failures.jsonl; terminal failures are never retried (+retry_terminal_timeouts=true covers timeout_exceeded).", gate_task: gate("BLOCKED") };
  }
  const capped = evidence.maxWalltimeS !== null && evidence.accumulatedWalltimeS >= evidence.maxWalltimeS;
  if (s.retryable + s.missing > 0 && capped) {
    return {
      action: "stop",
      reason: `${s.retryable + s.missing} rollout(s) remain but the chain used ${evidence.accumulatedWalltimeS}s of its ${evidence.maxWalltimeS}s max_walltime`,
      fix: `${continuation} --max-walltime HH:MM:SS --walltime-reason "why the run needs more"`,
      gate_task: gate("BLOCKED"),
    };
  }
  if (s.retryable + s.missing > 0) return { action: "resubmit", reason: `${s.retryable} retryable and ${s.missing} never-started rollout(s); a follow-up job resumes them`, gate_task: gate("PENDING") };
  if (s.judge_recoverable > 0) {
    return { action: "rejudge", reason: `${s.judge_recoverable} rollout(s) have a saved answer and a failed judge; re-judging them needs no policy`, fix: "gym eval reverify --judge-failed-only --append on the saved rollouts (judge-only jobs are not queued by gym yet)", gate_task: gate("PENDING") };
  }
  if (s.exhausted > 0) {
    return { action: "stop", reason: `${s.exhausted} rollout(s) used every attempt (NEMO_GYM_MAX_ROLLOUT_ATTEMPTS)`, fix: `${continuation.replace(" --recover", "")}   # without --recover: a fresh per-rollout attempt allowance`, gate_task: gate("BLOCKED") };
  }
  if (completed === 0 && s.omitted > 0) return { action: "stop", reason: "every rollout is omitted", fix: "Check the omission rules of the run config.", gate_task: gate("BLOCKED") };
  return { action: "nothing", reason: `complete: ${completed} of ${evidence.expected} rollouts final${s.omitted ? `, ${s.omitted} intentionally omitted` : ""}`, gate_task: gate("SUCCESS") };
}
