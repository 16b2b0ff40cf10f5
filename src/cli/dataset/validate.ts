/** `gym dataset validate <target>`: run each Harbor task's reference solution through its verifier (the oracle). */
import { allValues, defineGymCommand } from "../_command.ts";
import { checkProviderName, SANDBOX_HELP } from "../../sandbox/provider.ts";

export default defineGymCommand({
  meta: { name: "dataset validate", description: "Run each Harbor task's reference solution (solution/solve.sh) through its verifier and print its reward" },
  args: {
    target: { type: "positional", description: "A task folder (with task.toml), a folder of task folders, a harbor:<dataset>[@<version>] reference (pulled first) or a pulled entry", required: true, valueHint: "TARGET" },
    sandbox: { type: "string", description: "Sandbox provider: local (plain Linux on bubblewrap; the only one in this build)", valueHint: "PROVIDER" },
    "only-tasks": { type: "string", description: "Glob(s) over task ids, comma-separated or repeated (e.g. 'hello-*')", valueHint: "GLOB" },
    "exclude-tasks": { type: "string", description: "Glob(s) over task ids to leave out", valueHint: "GLOB" },
    output: { type: "string", alias: "o", description: "Rollouts file (default: rollouts.jsonl in the results folder)", valueHint: "FILE" },
  },
  examples: [
    "gym dataset validate my-dataset --sandbox local",
    "gym dataset validate my-dataset --sandbox local --only-tasks 'hello-*'",
    "gym dataset validate harbor:hello-world@1.0 --sandbox local   # pulled first into environments/harbor/ (see gym dataset pull --help)",
    "Exit 0 when every selected solution scored 1; 1 when one scored below 1, was masked or failed, a task folder did not load, or no task had a solution.",
    "Results: results/harbor/validation/<taskset>/ (tasks.jsonl, skipped.json, run_config_harbor_oracle.yaml, rollouts.jsonl, verifier/<task>/).",
    ...SANDBOX_HELP,
  ],
  async run({ args, rawArgs, json }) {
    const name = checkProviderName(args.sandbox ?? "local");
    const [{ loadTaskSet }, { validateTaskSet }, { sandboxProvider }] = await Promise.all([
      import("../../datasets/harbor/tasks.ts"),
      import("../../datasets/harbor/validate.ts"),
      import("../../sandbox/provider.ts"),
    ]);
    const { resolveHarborTarget } = await import("../../datasets/harbor/hub/pull.ts");
    const resolved = await resolveHarborTarget(args.target, { log: (line) => process.stderr.write(`${line}\n`) });
    const set = loadTaskSet(resolved.dir, allValues(rawArgs, "only-tasks"), allValues(rawArgs, "exclude-tasks"), { taskset: resolved.taskset });
    const provider = await sandboxProvider(name);
    process.stderr.write(`${set.taskset}: ${set.tasks.length} task(s)${set.skipped.length ? `, ${set.skipped.length} did not load` : ""}\n${provider.limits}\n`);
    const outcome = await validateTaskSet(set, { provider, output: args.output, log: (line) => process.stderr.write(`${line}\n`) });
    if (json) process.stdout.write(`${JSON.stringify({ passed: outcome.passed, results_dir: outcome.dir, rollouts: outcome.rollouts, tasks: outcome.rows, skipped: set.skipped })}\n`);
    else process.stdout.write(`${outcome.lines.join("\n")}\n`);
    process.stderr.write(`${outcome.passed ? "All solutions scored 1" : "Validation failed"}; results in ${outcome.dir}${outcome.rollouts === `${outcome.dir}/rollouts.jsonl` ? "" : `, rollouts in ${outcome.rollouts}`}\n`);
    return outcome.passed ? 0 : 1;
  },
});
