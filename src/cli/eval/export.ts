/** `gym eval export [EXPORTER]`: send a finished run to MLflow or W&B (with a receipt), or write it as ATIF. */
import { defineGymCommand } from "../_command.ts";
import { configOptions, jsonArg } from "../_args.ts";
import { GymError } from "../../errors.ts";

const EXPORTERS = ["atif", "mlflow", "wandb"] as const;

export default defineGymCommand({
  meta: { name: "eval export", description: "Export a finished run: ATIF trajectories (default), MLflow or W&B" },
  args: {
    exporter: { type: "positional", required: false, description: `The exporter: ${EXPORTERS.join(", ")}`, valueHint: "EXPORTER" },
    "agent-version": { type: "string", description: "atif: the version of the agent implementation (+agent_version)", valueHint: "VERSION" },
    ...jsonArg,
  },
  overrides: true,
  examples: [
    "gym eval export atif +rollouts_jsonl_fpath=results/rollouts.jsonl +output_dirpath=results/atif \\",
    "    +session_id=eval-2026-08-25 +agent_version=1.2.3",
    "gym eval export mlflow +rollouts_jsonl_fpath=results/rollouts.jsonl +mlflow_tracking_uri=https://mlflow.example \\",
    "    +mlflow_experiment_name=gym +mlflow_run_name=nightly",
    "gym eval export wandb +rollouts_jsonl_fpath=results/rollouts.jsonl +wandb_project=gym +wandb_name=nightly",
    "",
    "Sends the run's saved config (<stem>_resolved_config.yaml), its aggregate metrics and, unless",
    "+upload_rollouts=false (or the run's own upload_rollouts is false), its rollouts. Credentials come from this",
    "command or env.yaml, never from the run's masked config; MLFLOW_TRACKING_URI, MLFLOW_TRACKING_TOKEN,",
    "WANDB_API_KEY and WANDB_BASE_URL are honoured. Then <stem>_<exporter>_export_done records the backend run",
    "and the sha256 of each file sent: a later export of the same files is skipped without contacting the",
    "backend; a receipt that no longer matches (or a malformed one) fails and sends nothing.",
  ],
  async run({ args, rawArgs, overrides, json }) {
    const exporter = (args.exporter as string | undefined) ?? "atif";
    if (!(EXPORTERS as readonly string[]).includes(exporter)) {
      const { evalrdlRefusal } = await import("../../export/evalrdl.ts");
      const why = exporter === "evalrdl" ? evalrdlRefusal() : `'${exporter}' is not an exporter`;
      throw new GymError("E_USAGE", `Unknown exporter '${exporter}': ${why}.`, { hint: `Known exporters: ${EXPORTERS.join(", ")} (gym eval export mlflow …).` });
    }
    const { resolveConfig } = await import("../../config/index.ts");
    const config = await resolveConfig({ ...(await configOptions(args, rawArgs, overrides)), mode: "offline" });
    const keys = config.resolve() as Record<string, unknown>;
    const rollouts = keys.rollouts_jsonl_fpath;
    if (typeof rollouts !== "string" || !rollouts) throw new GymError("E_MISSING_ARGUMENT", "gym eval export needs +rollouts_jsonl_fpath=<the run's rollouts JSONL>.", { hint: "e.g. +rollouts_jsonl_fpath=results/rollouts.jsonl" });
    if (exporter === "atif") {
      const { exportAtif } = await import("../../export/atif/index.ts");
      const { VERSION } = await import("../version.ts");
      const dir = keys.output_dirpath;
      if (typeof dir !== "string" || !dir) throw new GymError("E_MISSING_ARGUMENT", "gym eval export atif needs +output_dirpath=<a new folder>.", { hint: "e.g. +output_dirpath=results/atif" });
      const done = await exportAtif({ rolloutsPath: rollouts, outputDir: dir, sessionId: String(keys.session_id ?? ""), agentVersion: String(args["agent-version"] ?? keys.agent_version ?? ""), exporterVersion: VERSION });
      process.stdout.write(json ? `${JSON.stringify(done)}\n` : `Wrote ${done.trajectories} ATIF trajectories and manifest.jsonl to ${done.dir}.\n`);
      return;
    }
    const { exportToTracker } = await import("../../export/tracking.ts");
    const result = await exportToTracker({ tracker: exporter as "mlflow" | "wandb", rolloutsPath: rollouts, keys, log: (line) => process.stderr.write(`${line}\n`) });
    const run = result.receipt.backend_run;
    if (json) process.stdout.write(`${JSON.stringify({ status: result.status, ...result.receipt })}\n`);
    else process.stdout.write(result.status === "skipped" ? `Already exported to ${exporter} (run ${run.id}); the receipt matches the run's files, so nothing was sent.\n` : `Exported to ${exporter}: run ${run.id}${run.url ? ` (${run.url})` : ""}${result.receipt.rollouts_uploaded ? ", rollouts included" : ", without rollouts"}.\n`);
  },
});
