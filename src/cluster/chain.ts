/** The resumable chain's prologue (collection.md §9.5): judge the previous segment, keep the budgets, queue the successor. */
import type { Resumable } from "./config.ts";
import { slurmSeconds } from "./shell.ts";

/** Files in the benchmark directory that carry the chain across segments (and that resubmit resets). */
export const CHAIN_FILES = {
  chain: ".gym_job_chain",
  walltime: ".gym_accumulated_walltime",
  retries: ".gym_infra_retries",
  attemptAllowance: ".gym_attempt_allowance",
  resubmitOffset: ".gym_resubmit_offset",
  /** A raised max_walltime (seconds) from `resubmit --recover --max-walltime`; it wins over the rendered one. */
  maxWalltime: ".gym_max_walltime",
  /** Operator decisions (raised caps with their reasons), one JSON line each. */
  journal: ".gym_recovery_journal.jsonl",
} as const;

/** After a plain resubmit, the fresh per-rollout attempt allowance it recorded (any benchmark, resumable or not). */
export const ATTEMPT_ALLOWANCE_LINE = `[ -s ${CHAIN_FILES.attemptAllowance} ] && export NEMO_GYM_MAX_ROLLOUT_ATTEMPTS="$(cat ${CHAIN_FILES.attemptAllowance})"`;

/**
 * The bash prologue. It reads the previous job from `scontrol show job` (kept for MinJobAge seconds) and
 * falls back to `sacct` (polled up to 6 times, 10 s apart, while it answers empty) on clusters with accounting, since gym's
 * reference cluster runs without slurmdbd.
 */
export function resumablePrologue(resumable: true | Resumable): string {
  const maxRetries = resumable === true ? 3 : resumable.max_retries;
  const maxWalltime = resumable === true || resumable.max_walltime === null ? "" : String(slurmSeconds(resumable.max_walltime));
  return `# --- resumable chain: judge the previous segment, keep the budgets, queue the successor ---
GYM_MAX_RETRIES=${maxRetries}
GYM_MAX_WALLTIME_S=${maxWalltime}
[ -s ${CHAIN_FILES.maxWalltime} ] && GYM_MAX_WALLTIME_S=$(cat ${CHAIN_FILES.maxWalltime})
gym_prev_job() {  # prints "STATE EXIT:SIG ELAPSED_SECONDS" of a finished job, or nothing
    local line state code elapsed
    line=$(scontrol show job -o "$1" 2>/dev/null | head -n 1)
    if [ -n "$line" ] && [[ "$line" == *JobState=* ]]; then
        state=$(sed -n 's/.*JobState=\\([A-Z_]*\\).*/\\1/p' <<<"$line")
        code=$(sed -n 's/.* ExitCode=\\([0-9]*:[0-9]*\\).*/\\1/p' <<<"$line")
        elapsed=$(sed -n 's/.* RunTime=\\([-0-9:]*\\).*/\\1/p' <<<"$line" | awk -F'[-:]' '{ if (NF == 4) print (($1 * 24 + $2) * 60 + $3) * 60 + $4; else if (NF == 3) print ($1 * 60 + $2) * 60 + $3; else print 0 }')
        echo "$state $code \${elapsed:-0}"
        return
    fi
    command -v sacct >/dev/null || return 0
    for _try in 1 2 3 4 5 6; do
        # sacct failing (accounting disabled) knows nothing: only an empty answer (accounting lag) is worth a wait.
        line=$(sacct -n -P -X -j "$1" -o State,ExitCode,ElapsedRaw 2>/dev/null) || return 0
        line=$(head -n 1 <<<"$line")
        [ -n "\${line%%|*}" ] && { tr '|' ' ' <<<"$line" | awk '{ print $1, $2, $3 }'; return; }
        sleep 10
    done
}
gym_prev="\${1:-}"
if [ -n "$gym_prev" ]; then
    read -r gym_state gym_code gym_elapsed <<<"$(gym_prev_job "$gym_prev")"
    gym_state=\${gym_state:-}; gym_code=\${gym_code:-}; gym_elapsed=\${gym_elapsed:-0}
    gym_total=$(( $(cat ${CHAIN_FILES.walltime} 2>/dev/null || echo 0) + gym_elapsed ))
    echo "$gym_total" > ${CHAIN_FILES.walltime}
    echo "gym chain: previous job $gym_prev: \${gym_state:-unknown} exit \${gym_code:-?}, \${gym_elapsed}s (total \${gym_total}s)"
    case "$gym_state" in
        "") echo "gym chain: no record of job $gym_prev yet; resuming without spending a retry" ;;
        COMPLETED) echo "gym chain: done"; exit 0 ;;
        CANCELLED*) echo "gym chain: job $gym_prev was cancelled; stopping (gym eval resubmit continues it)"; exit 0 ;;
        FAILED|TIMEOUT|PREEMPTED|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE)
            if [ "$gym_state" = FAILED ] && [ "$gym_code" = "76:0" ]; then
                echo "gym chain: incomplete and nothing is eligible to retry (exit 76); stopping for an operator"; exit 0
            elif [ "$gym_state" = FAILED ] && [ "$gym_code" != "75:0" ] || [ "$gym_state" = OUT_OF_MEMORY ] || [ "$gym_state" = BOOT_FAIL ]; then
                gym_retries=$(( $(cat ${CHAIN_FILES.retries} 2>/dev/null || echo 0) + 1 ))
                echo "$gym_retries" > ${CHAIN_FILES.retries}
                if [ "$gym_retries" -gt "$GYM_MAX_RETRIES" ]; then
                    echo "gym chain: infrastructure retry $gym_retries exceeds max_retries=$GYM_MAX_RETRIES; stopping" >&2; exit 1
                fi
                echo "gym chain: infrastructure retry $gym_retries of $GYM_MAX_RETRIES"
            fi ;;
        *) echo "gym chain: previous job in state $gym_state; resuming" ;;
    esac
    if [ -n "$GYM_MAX_WALLTIME_S" ] && [ "$gym_total" -ge "$GYM_MAX_WALLTIME_S" ]; then
        echo "gym chain: accumulated walltime \${gym_total}s reached max_walltime (\${GYM_MAX_WALLTIME_S}s); stopping"; exit 0
    fi
fi
echo "$SLURM_JOB_ID" >> ${CHAIN_FILES.chain}
# The successor runs only if this job ends non-zero (75, walltime, node failure); Slurm cancels it otherwise.
sbatch --parsable --dependency=afternotok:"$SLURM_JOB_ID" --kill-on-invalid-dep=yes job.sh "$SLURM_JOB_ID" > .gym_successor \\
    || echo "gym chain: could not queue the successor of $SLURM_JOB_ID" >&2
`;
}
