/** `gym eval profile`: per-task reward profile, agent metrics and repeat-level metrics of a run. */
import { defineGymCommand, overrideValue } from "../_command.ts";
import { GymError } from "../../errors.ts";

const note = (line: string) => void process.stderr.write(`${line}\n`);

export default defineGymCommand({
  meta: { name: "eval profile", description: "Compute a reward profile from collected rollouts" },
  args: {
    inputs: { type: "string", description: "The run's materialized inputs (<stem>_materialized_inputs.jsonl), or -", valueHint: "PATH" },
    rollouts: { type: "string", description: "The rollouts file, or - for stdin", valueHint: "PATH" },
    "allow-partial-rollouts": { type: "boolean", description: "Drop input rows without rollouts instead of failing" },
    output: { type: "string", description: "Path the output files are named from (default: --rollouts; needed with --rollouts -)", valueHint: "PATH" },
    json: { type: "boolean", description: "Print the completion summary and file paths as JSON on stdout" },
  },
  overrides: true,
  examples: [
    "gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl",
    "gym eval run … -o - | gym eval profile --rollouts - --output results/profile.jsonl",
  ],
  async run({ args, overrides, json }) {
    let inputs = args.inputs ?? overrideValue(overrides, "materialized_inputs_jsonl_fpath");
    let rollouts = args.rollouts ?? overrideValue(overrides, "rollouts_jsonl_fpath");
    if (!rollouts) throw new GymError("E_MISSING_ARGUMENT", "--rollouts is required", { hint: "e.g. --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl" });
    if (rollouts === "-" && !args.output) throw new GymError("E_MISSING_ARGUMENT", "--rollouts - needs --output to name the profile files", { hint: "e.g. --output results/profile.jsonl" });
    const base = args.output ?? rollouts;
    const [{ guardOutputs }, { siblingPath }] = await Promise.all([import("../../outputs/guard.ts"), import("../../stages/aggregate/files.ts")]);
    guardOutputs(
      [{ path: inputs ?? "", role: "--inputs" }, { path: rollouts, role: "--rollouts" }],
      [["_reward_profiling", ".jsonl"], ["_agent_metrics", ".json"], ["_repeat_level_metrics", ".json"]].map(([suffix, ext]) => ({ path: siblingPath(base, suffix!, ext!), role: `the ${suffix!.slice(1).replace(/_/g, " ")} file (named from ${args.output ? "--output" : "--rollouts"})` })),
      { command: "gym eval profile", suggestion: "Pass --output with a new name to write the profile files elsewhere." },
    );
    let derived: Awaited<ReturnType<typeof import("../../stages/profile/inputs-from-rollouts.ts").inputsFromRollouts>> | undefined;
    if (!inputs) {
      // In a pipe the run's materialized inputs are not at hand: the rollouts stand in for them.
      const { inputsFromRollouts } = await import("../../stages/profile/inputs-from-rollouts.ts");
      derived = await inputsFromRollouts(rollouts);
      [inputs, rollouts] = [derived.inputs, derived.rollouts];
      note("No --inputs: each task's fields are taken from its rollouts (pass --inputs <stem>_materialized_inputs.jsonl for NeMo Gym's exact profile).");
    }
    const { profileRollouts } = await import("../../stages/profile/index.ts");
    const report = await profileRollouts({
      inputs,
      rollouts,
      outputBase: args.output ?? (derived ? args.rollouts : undefined),
      allowPartialRollouts: args["allow-partial-rollouts"] || /^true$/i.test(overrideValue(overrides, "allow_partial_rollouts") ?? ""),
      log: note,
    }).finally(() => derived?.cleanup());
    const s = report.summary;
    if (json) return void process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    note(`Reward profile completion: ${s.completed_rollout_rows}/${s.expected_rollout_rows} rollout rows (${s.reward_profile_completion_pct.toFixed(2)}%)`);
    note(`Input rows: ${s.total_input_rows} total; ${s.complete_input_rows} complete; ${s.partial_input_rows} partial; ${s.missing_input_rows} without rollouts dropped from output.`);
    note(`Reward profiling outputs: ${report.rewardProfiling}`);
    note(`Agent-level metrics: ${report.agentMetrics}`);
    if (report.repeatLevelMetrics) note(`Repeat-level metrics: ${report.repeatLevelMetrics}`);
  },
});
