/** The submit config's rules across keys (collection.md §9.1); mounts are checked later, where they will be used. */
import { GymError } from "../errors.ts";
import type { SubmitConfig, VllmService } from "./config.ts";
import { checkEnv } from "./env.ts";

const POLICY_KEYS = ["policy_base_url", "policy_model_name", "policy_api_key"];
const WALLTIME = /^(\d+-)?\d+(:\d{1,2}){0,2}$/;
const BENCHMARK_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

const refuse = (file: string, path: string, message: string, hint: string) => new GymError("E_CONFIG", `${file}: ${path}: ${message}`, { hint });

/** Applies the rules and fills what they imply (placements, vLLM health checks, policy keys); returns warnings. */
export function validateSubmit(config: SubmitConfig, file: string, shell: NodeJS.ProcessEnv): string[] {
  const warnings: string[] = [];
  const computeNames = Object.keys(config.compute);
  if (computeNames.length === 0) throw refuse(file, "compute", "no compute entry", "Add one entry, e.g. compute: {cluster: {type: slurm, account: my-account}}.");
  if (computeNames.length > 1) {
    throw refuse(file, "compute", `${computeNames.length} compute entries (${computeNames.join(", ")}); exactly one is supported`, `Keep one of ${computeNames.join(", ")} and submit the others from their own config.`);
  }
  const compute = config.compute[computeNames[0]!]!;
  if (compute.walltime !== null && !WALLTIME.test(compute.walltime)) {
    throw refuse(file, `compute.${computeNames[0]}.walltime`, `'${compute.walltime}' is not a Slurm time`, "Write HH:MM:SS, MM, or D-HH:MM:SS (e.g. \"02:00:00\").");
  }
  for (const [name, service] of Object.entries(config.services)) {
    if (service.placement === null) service.placement = computeNames[0]!;
    else if (!computeNames.includes(service.placement)) {
      throw refuse(file, `services.${name}.placement`, `'${service.placement}' names no compute entry`, `Set it to ${computeNames[0]} (the compute entry) or remove it.`);
    }
    if (service.type === "vllm") {
      service.health_check ??= { path: "/health", port: null, timeout_seconds: 60 };
      service.health_check.port ??= service.port;
      footprint(name, service, config, file, warnings);
    }
    checkEnv(service.env, `services.${name}.env`, file, shell);
  }
  checkEnv(config.driver.env, "driver.env", file, shell);
  const benchmarks = Object.entries(config.driver.benchmarks);
  if (benchmarks.length === 0) throw refuse(file, "driver.benchmarks", "no benchmark", "Add one, e.g. driver.benchmarks.mcqa.run: {config_paths: [resources_servers/mcqa/configs/mcqa.yaml]}.");
  const policy = config.driver.policy_model;
  if (policy !== null && !(policy in config.services)) {
    throw refuse(file, "driver.policy_model", `'${policy}' names no service`, `Name one of: ${Object.keys(config.services).join(", ") || "(no services defined)"}.`);
  }
  for (const [name, bench] of benchmarks) {
    if (!BENCHMARK_NAME.test(name)) throw refuse(file, `driver.benchmarks.${name}`, "a benchmark name must be a plain file name", "Use letters, digits, '_', '.', '-'.");
    const resumable = bench.resumable;
    if (typeof resumable === "object" && resumable.max_walltime !== null && !WALLTIME.test(resumable.max_walltime)) {
      throw refuse(file, `driver.benchmarks.${name}.resumable.max_walltime`, `'${resumable.max_walltime}' is not a Slurm time`, "Write HH:MM:SS or D-HH:MM:SS.");
    }
    if (bench.shards > 1 && resumable !== false) {
      throw refuse(file, `driver.benchmarks.${name}.shards`, "a sharded benchmark cannot be resumable yet", "Remove resumable (a failed shard is queued again with gym eval resubmit), or set shards: 1.");
    }
    if (policy !== null) {
      const service = config.services[policy]!;
      const conflicts = POLICY_KEYS.filter((k) => k in bench.run);
      if (conflicts.length > 0) {
        throw refuse(file, `driver.benchmarks.${name}.run.${conflicts[0]}`, `set while driver.policy_model is also set (${conflicts.join(", ")})`, "Remove these keys from run, or remove driver.policy_model.");
      }
      if (service.type === "vllm") {
        bench.run.policy_base_url = `http://localhost:${service.port}/v1`;
        bench.run.policy_model_name = service.served_model_name ?? service.model;
        bench.run.policy_api_key = "dummy";
      }
    }
  }
  if (policy !== null && config.driver.policy_model_type === null) config.driver.policy_model_type = "openai_model";
  return warnings;
}

function footprint(name: string, service: VllmService, config: SubmitConfig, file: string, warnings: string[]): void {
  const compute = config.compute[service.placement!]!;
  const gpus = Object.values(compute.node_pools).map((p) => p.gpus_per_node).filter((g): g is number => g !== null);
  if (gpus.length === 0) return;
  const most = Math.max(...gpus);
  const needed = service.tensor_parallel_size * service.pipeline_parallel_size * service.number_of_instances;
  const shape = `tensor_parallel_size=${service.tensor_parallel_size} × pipeline_parallel_size=${service.pipeline_parallel_size} × number_of_instances=${service.number_of_instances}`;
  if (needed > most) {
    throw refuse(file, `services.${name}`, `needs ${needed} GPUs (${shape}), more than the largest gpus_per_node (${most})`, "Lower number_of_instances, tensor_parallel_size or pipeline_parallel_size to fit on one node.");
  }
  if (needed < most) warnings.push(`services.${name} uses ${needed} of ${most} GPUs per node (${shape}); ${most - needed} stay idle.`);
}
