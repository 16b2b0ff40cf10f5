/** `gym eval prepare`: run the prepare step of a benchmark (or of every benchmark dataset in a config) and write its JSONL. */
import { defineGymCommand } from "../_command.ts";
import { configArgs, configOptions } from "../_args.ts";

export default defineGymCommand({
  meta: { name: "eval prepare", description: "Prepare a benchmark's data (run its prepare step) and write it to disk" },
  args: { config: configArgs.config, benchmark: configArgs.benchmark, "search-dir": configArgs["search-dir"] },
  overrides: true,
  examples: [
    "gym eval prepare --benchmark arithmetic",
    "gym eval prepare --benchmark arithmetic '+prepare_script_args={num_problems: 20, seed: 7}'",
    "HF_TOKEN=hf_… gym eval prepare --benchmark gpqa",
  ],
  async run({ args, rawArgs, overrides }) {
    const [{ resolveConfig, noModelSeed, componentRoots }, { benchmarkDatasets, prepareBenchmarks }] = await Promise.all([import("../../config/index.ts"), import("../../datasets/prepare.ts")]);
    const options = await configOptions(args, rawArgs, overrides, { seed: noModelSeed(), placeholders: true });
    const config = await resolveConfig(options);
    for (const warning of config.warnings) process.stderr.write(`${warning}\n`);
    const tree = config.resolve();
    const datasets = benchmarkDatasets(config.serverInstances);
    const result = await prepareBenchmarks(datasets, {
      roots: componentRoots({ searchDirs: options.searchDirs }),
      useCached: tree.use_cached_prepared_benchmarks === true,
      args: (tree.prepare_script_args as Record<string, unknown> | undefined) ?? {},
      log: (line) => process.stderr.write(`${line}\n`),
    });
    if (result.skipped.length) process.stderr.write(`Skipped (already prepared): ${result.skipped.join(", ")}\n`);
    for (const path of result.prepared) process.stdout.write(`${path}\n`);
  },
});
