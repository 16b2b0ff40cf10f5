/** `gym eval resubmit`: queue a benchmark of an earlier gym eval submit again, or recover it from its saved evidence. */
import { defineGymCommand } from "../_command.ts";
import { EXIT, GymError } from "../../errors.ts";

export default defineGymCommand({
  meta: { name: "eval resubmit", description: "Queue a submitted benchmark again, or recover it from its saved evidence" },
  args: {
    gym_job_id: { type: "positional", description: "The gym job id gym eval submit printed (gym-job-…)", valueHint: "GYM_JOB_ID" },
    benchmark: { type: "positional", description: "One benchmark of that submission", valueHint: "BENCHMARK" },
    recover: { type: "boolean", description: "Decide one action from the saved evidence (resubmit, rejudge, nothing, or a typed stop), keeping the spent budgets" },
    inspect: { type: "boolean", description: "With --recover: plan only, queue nothing" },
    "max-walltime": { type: "string", description: "With --recover: raise the chain's max_walltime (needs --walltime-reason; journaled)", valueHint: "TIME" },
    "walltime-reason": { type: "string", description: "Why the cap is raised (recorded in .gym_recovery_journal.jsonl)", valueHint: "TEXT" },
  },
  examples: [
    'gym eval resubmit "$GYM_JOB_ID" gpqa                       # fresh retry, walltime and per-rollout attempt allowance',
    'gym eval resubmit "$GYM_JOB_ID" gpqa --recover --inspect   # the plan, as one JSON line',
    'gym eval resubmit "$GYM_JOB_ID" gpqa --recover --max-walltime 24:00:00 --walltime-reason "segments too short for the task"',
    "",
    "Prints one JSON line. With --recover the exit status is 0 only when gate_task.status is SUCCESS, so --inspect",
    "exits 1 while work is planned. Without --recover: 0 when the job was queued, 1 otherwise.",
    "The evidence is read from the run dir the submission recorded (mounted or copied here); the scheduler is not asked.",
  ],
  async run({ args }) {
    const id = args.gym_job_id as string | undefined;
    const benchmark = args.benchmark as string | undefined;
    if (!id || !benchmark) throw new GymError("E_MISSING_ARGUMENT", "gym eval resubmit needs GYM_JOB_ID and BENCHMARK.", { hint: "e.g. gym eval resubmit gym-job-20261016T120000Z-abcdef gpqa --recover --inspect" });
    const time = args["max-walltime"] as string | undefined;
    const reason = args["walltime-reason"] as string | undefined;
    if ((time === undefined) !== (reason === undefined) || (time !== undefined && !args.recover)) {
      throw new GymError("E_USAGE", "--max-walltime and --walltime-reason go together, with --recover.", { hint: `gym eval resubmit ${id} ${benchmark} --recover --max-walltime 24:00:00 --walltime-reason "segments too short for the task"` });
    }
    const [{ readIndexEntry }, { resubmit }] = await Promise.all([import("../../cluster/records.ts"), import("../../cluster/resubmit.ts")]);
    const report = await resubmit(readIndexEntry(id), benchmark, { recover: !!args.recover, inspect: !!args.inspect, ...(time && reason ? { maxWalltime: { time, reason } } : {}) });
    await new Promise<void>((resolve) => void process.stdout.write(`${JSON.stringify(report)}\n`, () => resolve()));
    if (report.error) process.stderr.write(`Error: sbatch failed for ${benchmark}: ${report.error}\n`);
    if (args.recover) return report.gate_task?.status === "SUCCESS" ? EXIT.ok : EXIT.failure;
    return report.job_id ? EXIT.ok : EXIT.failure;
  },
});
