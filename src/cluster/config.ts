/** The submit config YAML (collection.md §9.1): NeMo Gym's keys, strictly; defaults filled; no validation across keys here. */
import type { Field } from "./schema.ts";

export interface HealthCheck { path: string; port: number | null; timeout_seconds: number }
export interface ServiceBase {
  type: "vllm" | "ray";
  container: string;
  placement: string | null;
  health_check: HealthCheck | null;
  env: Record<string, string>;
  mounts: string[];
  pre_command: string;
}
export interface VllmService extends ServiceBase {
  type: "vllm";
  model: string;
  served_model_name: string | null;
  port: number;
  tensor_parallel_size: number;
  pipeline_parallel_size: number;
  number_of_instances: number;
  use_ray_serve: boolean;
  extra_args: string;
  trust_remote_code: boolean;
}
export type Service = VllmService | (ServiceBase & { type: "ray" });
export interface NodePool { partition: string; nodes: number; ntasks_per_node: number; gpus_per_node: number | null; extra_args: Record<string, string> }
export interface SlurmCompute {
  type: "slurm";
  account: string;
  hostname: string | null;
  walltime: string | null;
  node_pools: Record<string, NodePool>;
  extra_args: Record<string, string>;
}
export interface Resumable { max_retries: number; max_walltime: string | null }
export interface Benchmark {
  prepare: Record<string, unknown>;
  run: Record<string, unknown>;
  resumable: boolean | Resumable;
  /** gym's extension: split the collection over an array of this many shard jobs, then one aggregate job. */
  shards: number;
}
export interface Driver {
  /** null (gym's default): the job runs the staged `gym` binary itself, with no container. */
  container: string | null;
  gym_install: { repo: string; ref: string } | null;
  policy_model: string | null;
  policy_model_type: string | null;
  env: Record<string, string>;
  mounts: string[];
  benchmarks: Record<string, Benchmark>;
}
export interface SubmitConfig {
  services: Record<string, Service>;
  compute: Record<string, SlurmCompute>;
  driver: Driver;
  job: { output_path: string };
}

const str = (def: string | null = null, nullable = true): Field => ({ kind: "string", nullable, default: def });
const req: Field = { kind: "string", required: true };
const int = (def: number, min = 1): Field => ({ kind: "int", default: def, min });
const serviceBase: Record<string, Field> = {
  type: { kind: "enum", values: ["vllm", "ray"], required: true },
  container: req,
  placement: str(),
  health_check: {
    kind: "object",
    nullable: true,
    fields: { path: str("/health", false), port: { kind: "int", nullable: true, default: null, min: 1 }, timeout_seconds: int(60) },
  },
  env: { kind: "stringMap", default: {} },
  mounts: { kind: "strings", default: [] },
  pre_command: str("", false),
};

const vllm: Field = {
  kind: "object",
  fields: {
    ...serviceBase,
    model: req,
    served_model_name: str(),
    port: int(8000),
    tensor_parallel_size: int(1),
    pipeline_parallel_size: int(1),
    number_of_instances: int(1),
    use_ray_serve: { kind: "bool", default: false },
    extra_args: str("", false),
    trust_remote_code: { kind: "bool", default: false },
    distributed_backend: { kind: "object", nullable: true, fields: { type: { kind: "enum", values: ["mp"], required: true } } },
  },
};

const benchmark: Field = {
  kind: "object",
  fields: {
    prepare: { kind: "anyMap", default: {} },
    run: { kind: "anyMap", default: {} },
    resumable: {
      kind: "union",
      describe: "true, false or a mapping {max_retries, max_walltime}",
      default: false,
      variants: [{ kind: "bool" }, { kind: "object", fields: { max_retries: int(3, 0), max_walltime: str() } }],
    },
    shards: int(1),
  },
};

/** The whole submit YAML. */
export const SUBMIT_SCHEMA: Field = {
  kind: "object",
  fields: {
    services: { kind: "mapOf", default: {}, item: { kind: "tagged", tag: "type", variants: { vllm, ray: { kind: "object", fields: serviceBase } } } },
    compute: {
      kind: "mapOf",
      required: true,
      item: {
        kind: "tagged",
        tag: "type",
        variants: {
          slurm: {
            kind: "object",
            fields: {
              type: { kind: "enum", values: ["slurm"], required: true },
              account: req,
              hostname: str(),
              walltime: str(),
              node_pools: {
                kind: "mapOf",
                default: {},
                item: {
                  kind: "object",
                  fields: { partition: req, nodes: int(1), ntasks_per_node: int(1), gpus_per_node: { kind: "int", nullable: true, default: null, min: 0 }, extra_args: { kind: "stringMap", default: {} } },
                },
              },
              extra_args: { kind: "stringMap", default: {} },
            },
          },
        },
      },
    },
    driver: {
      kind: "object",
      required: true,
      fields: {
        container: str(),
        gym_install: { kind: "object", nullable: true, fields: { repo: str("https://github.com/NVIDIA-NeMo/gym", false), ref: req } },
        policy_model: str(),
        policy_model_type: str(),
        env: { kind: "stringMap", default: {} },
        mounts: { kind: "strings", default: [] },
        benchmarks: { kind: "mapOf", required: true, item: benchmark },
      },
    },
    job: { kind: "object", required: true, fields: { output_path: req } },
  },
};
