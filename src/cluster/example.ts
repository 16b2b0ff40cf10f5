/** The annotated submit config `gym eval submit --example` prints: every section, each key explained (it loads as written). */
export const SUBMIT_EXAMPLE = `# A gym eval submit config (NeMo Gym's submit layout). Try it: gym eval submit --config submit.yaml --dry-run
services:                      # optional: model servers started in the job, beside the benchmark
  policy:
    type: vllm                 # a vLLM OpenAI-compatible server
    container: vllm/vllm-openai:v0.9.0
    model: Qwen/Qwen2.5-7B-Instruct
    port: 8000
    tensor_parallel_size: 2
    env: {HF_TOKEN: "host:HF_TOKEN", VLLM_LOGGING_LEVEL: "lit:INFO"}   # host:VAR copies the submitting shell's variable, lit: a literal
compute:
  cluster:
    type: slurm
    account: my-account        # sbatch --account
    walltime: "02:00:00"       # per job
    node_pools: {main: {partition: batch, nodes: 1, ntasks_per_node: 1, gpus_per_node: 8}}
driver:                        # what runs gym: the staged gym binary (add container: IMAGE to run it in a Pyxis container)
  policy_model: policy         # the service the benchmarks use as their policy model
  benchmarks:                  # one Slurm job per benchmark
    arithmetic:
      prepare: {config_paths: [benchmarks/arithmetic/config.yaml]}   # optional: gym eval prepare first
      run:                     # the gym eval run config: config_paths and any key of it
        config_paths: [benchmarks/arithmetic/config.yaml]
        num_repeats: 2
      resumable: {max_retries: 2, max_walltime: "48:00:00"}   # optional: resubmit until complete
    mcqa:
      run:
        config_paths: [resources_servers/mcqa/configs/mcqa.yaml]
        responses_create_params: {temperature: 0.6}
      shards: 4                # optional: 4 collection shards as a job array, then one gym eval aggregate job (not with resumable)
job:
  output_path: /scratch/gym-runs   # run dirs are made under it (on a filesystem the nodes share)
`;
