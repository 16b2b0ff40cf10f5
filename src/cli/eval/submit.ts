/** `gym eval submit`: render one Slurm job per benchmark of a submit YAML, stage it, sbatch it, record the submission. */
import { defineGymCommand } from "../_command.ts";
import { GymError } from "../../errors.ts";

export default defineGymCommand({
  meta: { name: "eval submit", description: "Submit benchmark jobs to Slurm from a submit config YAML (experimental)" },
  args: {
    config: { type: "string", description: "The submit config YAML: services, compute, driver (benchmarks), job", valueHint: "PATH" },
    "dry-run": { type: "boolean", description: "Print the run dir and every rendered job script; stage and submit nothing" },
    "resolve-only": { type: "boolean", description: "Print the resolved config (overrides applied, interpolations resolved) and exit" },
    json: { type: "boolean", description: "With --resolve-only: print it as JSON; otherwise print the job record as JSON" },
    example: { type: "boolean", description: "Print an annotated submit config (every section, each key explained) and exit" },
  },
  overrides: true,
  examples: [
    "gym eval submit --config submit.yaml",
    "gym eval submit --config submit.yaml --dry-run",
    "gym eval submit --config submit.yaml --resolve-only --json",
    "gym eval submit --config submit.yaml +compute.cluster.walltime=04:00:00   # extra tokens set YAML keys",
    "gym eval submit --example > submit.yaml   # an annotated config to start from",
    "",
    "The submit YAML: services (model servers started in the job), compute.cluster (Slurm: account, walltime,",
    "node_pools), driver (policy_model, benchmarks: NAME: {run: {config_paths: […], …}, shards, resumable}), job.output_path.",
    "Without driver.container the job runs the staged gym binary (<run_dir>/bin/gym) itself: nothing to install on the nodes.",
    "A benchmark's `shards: N` runs N collection shards as a job array, then one `gym eval aggregate` job.",
    "Records: <run_dir>/gym-job.json, resolved-config.yaml, and $XDG_CACHE_HOME/nemo-gym/jobs/<gym job id>.json.",
  ],
  async run({ args, overrides, json }) {
    if (args.example) {
      const { SUBMIT_EXAMPLE } = await import("../../cluster/example.ts");
      await print(SUBMIT_EXAMPLE);
      return 0;
    }
    const file = args.config as string | undefined;
    if (!file) throw new GymError("E_MISSING_ARGUMENT", "gym eval submit needs --config (the submit YAML).", { hint: "e.g. gym eval submit --config submit.yaml --dry-run" });
    const warn = (m: string) => process.stderr.write(`Warning: ${m}\n`);
    const info = (m: string) => process.stderr.write(`${m}\n`);
    warn("gym eval submit is experimental.");
    const [{ loadSubmitConfig }, { submit, standIn }, { VERSION }] = await Promise.all([import("../../cluster/load.ts"), import("../../cluster/submit.ts"), import("../version.ts")]);
    const preview = !!args["dry-run"] && !args["resolve-only"];
    const loaded = loadSubmitConfig(file, overrides, process.env, preview ? standIn("env") : process.env);
    loaded.warnings.forEach(warn);
    if (args["resolve-only"]) {
      const [{ toYaml }, { maskForRecord }] = await Promise.all([import("../../config/index.ts"), import("../../cluster/load.ts")]);
      const tree = maskForRecord(loaded.tree);
      await print(json ? `${JSON.stringify(tree)}\n` : toYaml(tree));
      return 0;
    }
    const record = await submit({ loaded, dryRun: !!args["dry-run"], version: VERSION, info, warn, print: (t) => void process.stdout.write(t) });
    if (!record) return 0;
    await print(json ? `${JSON.stringify(record)}\n` : `${record.gym_job_id}\n`);
    info(`gym eval status ${record.gym_job_id}   # progress, from the run dir's files`);
    return record.benchmarks.every((b) => b.error) ? 1 : 0;
  },
});

function print(text: string): Promise<void> {
  return new Promise((resolve) => void process.stdout.write(text, () => resolve()));
}
