/** `gym dataset validate <target>`: run each Harbor task's reference solution through its verifier (the oracle). */
import { allValues, defineGymCommand } from "../_command.ts";
import { GymError } from "../../errors.ts";

export default defineGymCommand({
  meta: { name: "dataset validate", description: "Run each Harbor task's reference solution (solution/solve.sh) through its verifier and print its reward" },
  args: {
    target: { type: "positional", description: "A task folder (with task.toml) or a folder of task folders", required: true, valueHint: "TARGET" },
    sandbox: { type: "string", description: "Sandbox provider: local (plain Linux on bubblewrap; the only one in this build)", valueHint: "PROVIDER" },
    "only-tasks": { type: "string", description: "Glob(s) over task ids, comma-separated or repeated (e.g. 'hello-*')", valueHint: "GLOB" },
  },
  examples: [
    "gym dataset validate my-dataset --sandbox local",
    "gym dataset validate my-dataset --sandbox local --only-tasks 'hello-*'",
    "Exit 0 when every selected solution scored 1; 1 when one scored below 1, was masked or failed, a task folder did not load, or no task had a solution.",
    "Results: results/harbor/validation/<taskset>/ (tasks.jsonl, skipped.json, run_config_harbor_oracle.yaml, rollouts.jsonl, verifier/<task>/).",
    "Limits of --sandbox local: the task's Dockerfile/docker_image is NOT built or pulled; commands run on this host's read-only /usr, /etc, /bin, /lib",
    "in a private working dir at the task's workdir, with no network, as nobody when gym is root; memory (task memory_mb), 256 processes, CPU and wall time",
    "(solve: min(agent timeout_sec, 3600) s; tests: verifier timeout_sec) and output are capped; processes do not outlive one command.",
  ],
  async run({ args, rawArgs, json }) {
    const provider = args.sandbox ?? "local";
    if (provider !== "local") {
      throw new GymError("E_BAD_FLAG_VALUE", `--sandbox ${provider} is not available in this build`, { hint: "use --sandbox local (plain Linux on bubblewrap); container providers are not built yet" });
    }
    const [{ loadTaskSet }, { validateTaskSet }, { LOCAL_PROVIDER_LIMITS }] = await Promise.all([
      import("../../datasets/harbor/tasks.ts"),
      import("../../datasets/harbor/validate.ts"),
      import("../../sandbox/local-provider.ts"),
    ]);
    const set = loadTaskSet(args.target, allValues(rawArgs, "only-tasks"));
    process.stderr.write(`${set.taskset}: ${set.tasks.length} task(s)${set.skipped.length ? `, ${set.skipped.length} did not load` : ""}\n${LOCAL_PROVIDER_LIMITS}\n`);
    const outcome = await validateTaskSet(set, { sandbox: provider, log: (line) => process.stderr.write(`${line}\n`) });
    if (json) process.stdout.write(`${JSON.stringify({ passed: outcome.passed, results_dir: outcome.dir, tasks: outcome.rows, skipped: set.skipped })}\n`);
    else process.stdout.write(`${outcome.lines.join("\n")}\n`);
    process.stderr.write(`${outcome.passed ? "All solutions scored 1" : "Validation failed"}; results in ${outcome.dir}\n`);
    return outcome.passed ? 0 : 1;
  },
});
