/** The rendered job script of one benchmark (collection.md §9.3), and the aggregate script of a sharded one. */
import { ATTEMPT_ALLOWANCE_LINE, resumablePrologue } from "./chain.ts";
import type { Benchmark, Service, SlurmCompute, SubmitConfig } from "./config.ts";
import { envPrefix } from "./env.ts";
import { bashVar, flattenOverrides, shq } from "./shell.ts";

export interface ScriptContext {
  config: SubmitConfig;
  compute: SlurmCompute;
  runDir: string;
  gymJobId: string;
  /** Where the job finds the staged binary (`<run_dir>/bin/gym`). */
  gymBinary: string;
  /** The submitting shell's environment (host: values are resolved from it, into job.sh only). */
  shell: NodeJS.ProcessEnv;
}

/** `#SBATCH` lines: name, account, time, chdir, job extras, then each node pool. */
function directives(ctx: ScriptContext, name: string, benchDir: string, extra: string[]): string[] {
  const { compute } = ctx;
  const lines = [`#SBATCH --job-name=${shq(name)}`, `#SBATCH --account=${shq(compute.account)}`];
  if (compute.walltime) lines.push(`#SBATCH --time=${compute.walltime}`);
  lines.push(`#SBATCH --chdir=${shq(benchDir)}`, ...extra);
  for (const [k, v] of Object.entries(compute.extra_args)) lines.push(`#SBATCH --${k}=${shq(v)}`);
  for (const [pool, p] of Object.entries(compute.node_pools)) {
    lines.push(`#SBATCH --partition=${shq(p.partition)}  # pool: ${pool}`, `#SBATCH --nodes=${p.nodes}`, `#SBATCH --ntasks-per-node=${p.ntasks_per_node}`);
    if (p.gpus_per_node !== null) lines.push(`#SBATCH --gpus-per-node=${p.gpus_per_node}`);
    for (const [k, v] of Object.entries(p.extra_args)) lines.push(`#SBATCH --${k}=${shq(v)}`);
  }
  return lines;
}

const mountsFlag = (mounts: string[]) => (mounts.length ? ` --container-mounts=${mounts.map(shq).join(",")}` : "");

function serviceCommand(service: Service): string {
  if (service.type === "ray") return "ray start --head";
  let cmd = `vllm serve ${shq(service.model)} --port ${service.port} --tensor-parallel-size ${service.tensor_parallel_size}`;
  if (service.served_model_name) cmd += ` --served-model-name ${shq(service.served_model_name)}`;
  if (service.pipeline_parallel_size > 1) cmd += ` --pipeline-parallel-size ${service.pipeline_parallel_size}`;
  if (service.number_of_instances > 1) cmd += ` --data-parallel-size ${service.number_of_instances}`;
  if (service.trust_remote_code) cmd += " --trust-remote-code";
  if (service.extra_args) cmd += ` ${service.extra_args}`;
  return cmd;
}

function services(ctx: ScriptContext): string[] {
  const out: string[] = [];
  for (const [name, s] of Object.entries(ctx.config.services)) {
    const v = bashVar(name);
    const command = s.pre_command ? `bash -c ${shq(`${s.pre_command}\nexec ${serviceCommand(s)}`)}` : serviceCommand(s);
    out.push(`# service: ${name}`, `${envPrefix(s.env, ctx.shell, shq)}srun --overlap --no-container-mount-home${mountsFlag(s.mounts)} --container-image=${shq(s.container)} --output=logs/${name}.log ${command} &`, `${v}_PID=$!`, "");
  }
  for (const [name, s] of Object.entries(ctx.config.services)) {
    if (!s.health_check || s.health_check.port === null) continue;
    const v = bashVar(name);
    const url = `http://localhost:${s.health_check.port}${s.health_check.path}`;
    const tries = Math.max(1, Math.floor(s.health_check.timeout_seconds / 5));
    out.push(
      `# wait for ${name}`,
      `echo "Waiting for ${name} at ${url}..."`,
      `${v}_READY=0`,
      `for _i in $(seq 1 ${tries}); do`,
      `    if curl -sf ${shq(url)} > /dev/null 2>&1; then echo "  ${name} ready."; ${v}_READY=1; break; fi`,
      `    if ! kill -0 "$${v}_PID" 2>/dev/null; then echo "ERROR: ${name} died during startup (logs/${name}.log)." >&2; exit 1; fi`,
      "    sleep 5",
      "done",
      `if [ "$${v}_READY" -eq 0 ]; then echo "ERROR: ${name} did not become healthy after ${tries} attempts (logs/${name}.log)." >&2; exit 1; fi`,
      "",
    );
  }
  return out;
}

/** The `gym eval run` words: output, resume, completion, model type, then the flattened run mapping. */
function gymCommand(ctx: ScriptContext, bench: Benchmark, shard: boolean): string[] {
  const driver = ctx.config.driver;
  const words = [driver.gym_install ? "gym eval run" : '"$GYM" eval run'];
  if (shard) {
    words.push('"+output_jsonl_fpath=artifacts/shard-${SLURM_ARRAY_TASK_ID}/rollouts.jsonl"', "+disable_aggregation=true", `"+task_shard=\${SLURM_ARRAY_TASK_ID}/${bench.shards}"`);
  } else words.push("+output_jsonl_fpath=artifacts/rollouts.jsonl");
  words.push("+resume_from_cache=true");
  if (!("require_complete" in bench.run)) words.push("+require_complete=true");
  if (driver.policy_model_type) words.push(`--model-type ${shq(driver.policy_model_type)}`);
  return [...words, ...flattenOverrides(bench.run)];
}

/** What the driver runs: the staged binary in this shell, or an `srun` step in the named container (Pyxis). */
function driverStep(ctx: ScriptContext, bench: Benchmark, log: string): string[] {
  const driver = ctx.config.driver;
  const install = driver.gym_install;
  const preamble: string[] = [];
  if (install) {
    const repoName = install.repo.replace(/\/+$/, "").split("/").pop()!.replace(/\.git$/, "");
    preamble.push("curl -LsSf https://astral.sh/uv/install.sh | sh", 'source "$HOME/.local/bin/env"', `git clone ${shq(install.repo)}`, `cd ${shq(repoName)}`, `git checkout ${shq(install.ref)}`, "uv pip install -e . --system");
  }
  if (Object.keys(bench.prepare).length > 0) preamble.push([install ? "gym" : '"$GYM"', "eval", "prepare", ...flattenOverrides(bench.prepare)].join(" "));
  const entry = preamble.length ? `bash -c ${shq(`\n    ${[...preamble, 'exec "$@"'].join("\n    ")}\n`)} -- "\${GYM_CMD[@]}"` : '"${GYM_CMD[@]}"';
  const env = envPrefix(driver.env, ctx.shell, shq);
  if (driver.container === null) {
    return [
      `${env}${entry} >> ${log} 2>&1 &`,
      "GYM_DRIVER_PID=$!",
      // At walltime Slurm sends SIGTERM to every process of the job: the driver drains and exits non-zero, the shell waits for it.
      `trap 'echo "gym: SIGTERM: the driver stops starting rollouts and drains the ones in flight"; kill -TERM "$GYM_DRIVER_PID" 2>/dev/null' TERM`,
      'while :; do wait "$GYM_DRIVER_PID"; GYM_RC=$?; kill -0 "$GYM_DRIVER_PID" 2>/dev/null || break; done',
    ];
  }
  const mounts = install ? driver.mounts : [`${ctx.runDir}:${ctx.runDir}`, ...driver.mounts];
  return [`${env}srun --overlap --no-container-mount-home${mountsFlag(mounts)} --container-image=${shq(driver.container)} --output=${log} --open-mode=append ${entry}`, "GYM_RC=$?"];
}

/** job.sh of one benchmark. */
export function renderJobScript(ctx: ScriptContext, name: string, bench: Benchmark): string {
  const benchDir = `${ctx.runDir}/${name}`;
  const shard = bench.shards > 1;
  const extra = shard ? [`#SBATCH --array=0-${bench.shards - 1}`, "#SBATCH --output=logs/slurm-%A_%a.out"] : ["#SBATCH --output=logs/slurm-%j.out"];
  const log = shard ? '"logs/driver-${SLURM_ARRAY_TASK_ID}.log"' : "logs/driver.log";
  const lines = ["#!/bin/bash", ...directives(ctx, `gym-${name}`, benchDir, extra), "", `# ${name} of ${ctx.gymJobId}, rendered by gym eval submit`, `GYM=${shq(ctx.gymBinary)}`, "export GYM", ATTEMPT_ALLOWANCE_LINE, ""];
  if (bench.resumable !== false) lines.push(resumablePrologue(bench.resumable));
  lines.push(...services(ctx));
  lines.push("GYM_CMD=(", ...gymCommand(ctx, bench, shard).map((w) => `    ${w}`), ")", ...driverStep(ctx, bench, log), "");
  const done = shard ? `${name} shard \${SLURM_ARRAY_TASK_ID}` : name;
  lines.push(
    'if [ "$GYM_RC" -eq 0 ]; then',
    `    echo "EVAL SUCCEEDED: ${done}: artifacts/"`,
    "else",
    `    echo "EVAL FAILED: ${done} (exit $GYM_RC); see ${log.replace(/"/g, "")}" >&2`,
    "fi",
    `"$GYM" eval status artifacts${shard ? '/shard-"${SLURM_ARRAY_TASK_ID}"' : ""} 2>&1 || true`,
    'exit "$GYM_RC"',
    "",
  );
  return lines.join("\n");
}

/** aggregate.sh of a sharded benchmark: one job, after every shard succeeded, merges them into artifacts/rollouts.jsonl. */
export function renderAggregateScript(ctx: ScriptContext, name: string, bench: Benchmark): string {
  const benchDir = `${ctx.runDir}/${name}`;
  const configs = Array.isArray(bench.run.config_paths) ? (bench.run.config_paths as unknown[]).map(String) : [];
  const words = ['"$GYM"', "eval", "aggregate", ...configs.map((c) => `--config ${shq(c)}`), "--input-glob", shq("artifacts/shard-*/rollouts.jsonl"), "--output", "artifacts/rollouts.jsonl"];
  return [
    "#!/bin/bash",
    ...directives(ctx, `gym-${name}-aggregate`, benchDir, ["#SBATCH --output=logs/slurm-%j.out"]),
    "",
    `# ${name} of ${ctx.gymJobId}: merge the ${bench.shards} shards, rendered by gym eval submit`,
    `GYM=${shq(ctx.gymBinary)}`,
    `${words.join(" ")} >> logs/aggregate.log 2>&1`,
    "GYM_RC=$?",
    `if [ "$GYM_RC" -eq 0 ]; then echo "EVAL SUCCEEDED: ${name}: artifacts/rollouts.jsonl"; else echo "EVAL FAILED: ${name} aggregate (exit $GYM_RC); see logs/aggregate.log" >&2; fi`,
    'exit "$GYM_RC"',
    "",
  ].join("\n");
}
