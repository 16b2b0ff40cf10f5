/** The command tree: every group and command, as lazy imports, so `gym --help` loads none of them. */
import type { CommandEntry, GroupEntry } from "./_command.ts";

/** Top-level entries in the order help shows them: `list`, `search`, then the groups. */
export const tree: Record<string, GroupEntry | CommandEntry> = {
  list: {
    description: "List benchmarks, environments, agents, models and resources servers",
    commands: {
      benchmarks: { description: "List the benchmarks (their --benchmark values), or inspect one", load: () => import("./list/benchmarks.ts") },
      environments: { description: "List the unified environment and benchmark catalog, or inspect one entry", load: () => import("./list/environments.ts") },
      agents: { description: "List agent harnesses and how each composes, or inspect one", load: () => import("./list/agents.ts") },
      models: { description: "List --model-type values, or inspect one", load: () => import("./list/models.ts") },
      "resources-servers": { description: "List --resources-server values, or inspect one", load: () => import("./list/resources-servers.ts") },
    },
  },
  search: { description: "Search the environment catalog, or one component type, by fuzzy match", load: () => import("./search.ts") },
  view: { description: "Browse runs in a local web viewer: transcripts, compare, plots (or write a static bundle)", load: () => import("./view.ts") },
  dataset: {
    description: "Prepare, preview and check datasets",
    commands: {
      render: { description: "Materialize prompts from a raw JSONL and a prompt config", load: () => import("./dataset/render.ts") },
      collate: { description: "Validate and collate datasets, writing their metrics", load: () => import("./dataset/collate.ts") },
      upload: { description: "Upload a prepared JSONL dataset to Hugging Face (default) or GitLab", load: () => import("./dataset/upload.ts") },
      download: { description: "Download a dataset file from Hugging Face (default) or GitLab", load: () => import("./dataset/download.ts") },
      rm: { description: "Delete a dataset from the GitLab registry (asks first)", load: () => import("./dataset/rm.ts") },
      migrate: { description: "Move a dataset from GitLab to Hugging Face (upload, check, delete)", load: () => import("./dataset/migrate.ts") },
      init: { description: "Scaffold a Harbor-format dataset (dataset.toml plus one task)", load: () => import("./dataset/init.ts") },
      validate: { description: "Run each Harbor task's reference solution through its verifier", load: () => import("./dataset/validate.ts") },
      pull: { description: "Fetch a Harbor dataset (hub reference or committed entry) into environments/harbor/", load: () => import("./dataset/pull.ts") },
      publish: { description: "Write a Gym-authored dataset as plain Harbor task folders", load: () => import("./dataset/publish.ts") },
    },
  },
  env: {
    description: "Resolve and validate configs, start and inspect servers",
    commands: {
      init: { description: "Scaffold a resources server, environment, or benchmark", load: () => import("./env/init.ts") },
      schema: { description: "Print a resources server's task-data schema as JSON Schema", load: () => import("./env/schema.ts") },
      resolve: { description: "Resolve configs, flags and overrides into the merged config and print it", load: () => import("./env/resolve.ts") },
      validate: { description: "Check a workload or config offline (manifest, structure, servers, datasets)", load: () => import("./env/validate.ts") },
      test: { description: "Exercise a workload's verifier fixture, or run resources-server tests", load: () => import("./env/test.ts") },
      publish: { description: "Run the local publication check of a workload", load: () => import("./env/publish.ts") },
      packages: { description: "List the packages a resources server runs on", load: () => import("./env/packages.ts") },
      prefetch: { description: "Fetch what a run needs (datasets, benchmark data) so it can run offline", load: () => import("./env/prefetch.ts") },
      start: { description: "Start the configured servers (agents, models, resources) and the head server", load: () => import("./env/start.ts") },
      status: { description: "Show the running servers and their health", load: () => import("./env/status.ts") },
    },
  },
  eval: {
    description: "Collect rollouts, re-score them, merge, profile and compare results",
    commands: {
      prepare: { description: "Prepare a benchmark's data (run its prepare step) and write it to disk", load: () => import("./eval/prepare.ts") },
      plan: { description: "Write one benchmark's task list (stable ids, row digests) to a plan file", load: () => import("./eval/plan.ts") },
      run: { description: "Collect rollouts: dispatch a dataset to agents, verify, write rollouts and metrics", load: () => import("./eval/run/index.ts") },
      aggregate: { description: "Merge sharded rollout results and recompute aggregate metrics", load: () => import("./eval/aggregate.ts") },
      export: { description: "Export a finished run: ATIF trajectories (default), MLflow or W&B", load: () => import("./eval/export.ts") },
      reverify: { description: "Recompute rewards from stored rollouts through /verify (no model inference)", load: () => import("./eval/reverify.ts") },
      profile: { description: "Compute a reward profile from collected rollouts", load: () => import("./eval/profile.ts") },
      compare: { description: "Compare a baseline eval run against a candidate run", load: () => import("./eval/compare.ts") },
      "compare-suite": { description: "Compare normalized scores across benchmarks and models", load: () => import("./eval/compare-suite.ts") },
      gate: { description: "Fail a CI job when a run misses a threshold or regresses against a baseline (exit 100)", load: () => import("./eval/gate.ts") },
      "health-check": { description: "Verify rollout artifact quality for an existing run", load: () => import("./eval/health-check.ts") },
      status: { description: "Show saved run progress (a run directory's status files, or a gym job id)", load: () => import("./eval/status.ts") },
      submit: { description: "Submit benchmark jobs to Slurm from a submit config YAML (experimental)", load: () => import("./eval/submit.ts") },
      resubmit: { description: "Queue a submitted benchmark again, or recover it from its saved evidence", load: () => import("./eval/resubmit.ts") },
    },
  },
  cache: {
    description: "Inspect and empty the response cache of model and judge calls (eval run --cache)",
    commands: {
      list: { description: "Show the response cache: entries and size per model and endpoint", load: () => import("./cache/list.ts") },
      prune: { description: "Remove expired responses from the cache (or all older than --older-than)", load: () => import("./cache/prune.ts") },
      clear: { description: "Remove every cached response, or one model's (asks first; --yes for scripts)", load: () => import("./cache/clear.ts") },
    },
  },
  dev: {
    description: "Contributor helpers",
    commands: {
      test: { description: "Run gym's unit tests with coverage reporting (in a source checkout)", load: () => import("./dev/test.ts") },
      compare: { description: "Per-task parity report between two rollout files (migration aid)", load: () => import("./dev/compare.ts") },
    },
  },
};

export function isGroup(entry: GroupEntry | CommandEntry): entry is GroupEntry {
  return "commands" in entry;
}
