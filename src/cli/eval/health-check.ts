/** `gym eval health-check`: verify rollout quality of a run directory (quality_summary.json, rollout_verdicts.jsonl). */
import { defineGymCommand } from "../_command.ts";
import { GymError } from "../../errors.ts";

export default defineGymCommand({
  meta: { name: "eval health-check", description: "Verify rollout artifact quality for an existing run" },
  args: {
    "run-dir": { type: "positional", description: "The run directory", required: false, valueHint: "RUN_DIR" },
    "rollouts-file": { type: "string", description: "Rollouts file name inside the run dir (default rollouts.jsonl), or - for stdin", valueHint: "NAME" },
    "ignore-checks": { type: "string", description: "Comma-separated check ids to leave out", valueHint: "ID,ID" },
    json: { type: "boolean", description: "Print quality_summary.json on stdout" },
  },
  examples: ["gym eval health-check results/my-run", "gym eval health-check results/my-run --rollouts-file evaluator_rollouts.jsonl --ignore-checks model_call_missing_token_counts"],
  async run({ args, json }) {
    const runDir = args["run-dir"];
    if (!runDir) throw new GymError("E_MISSING_ARGUMENT", "The run directory is required", { hint: "e.g. gym eval health-check results/my-run" });
    const { healthCheck, healthSummaryLine } = await import("../../stages/health-check/index.ts");
    const summary = await healthCheck({
      runDir,
      rolloutsFile: args["rollouts-file"],
      ignoreChecks: (args["ignore-checks"] ?? "").split(",").map((s) => s.trim()).filter(Boolean),
    });
    process.stderr.write(`${healthSummaryLine(summary)}\n`);
    if (json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  },
});
