/** `gym env prefetch`: download a config's datasets and prepare its benchmarks into place and into the cache, for offline runs. */
import { defineGymCommand } from "../_command.ts";
import { configArgs, configOptions } from "../_args.ts";

export default defineGymCommand({
  meta: { name: "env prefetch", description: "Fetch what a run needs (datasets, benchmark data) so it can run offline" },
  args: {
    config: configArgs.config,
    "resources-server": configArgs["resources-server"],
    benchmark: configArgs.benchmark,
    "model-type": configArgs["model-type"],
    "search-dir": configArgs["search-dir"],
    json: { type: "boolean", description: "Print what was fetched as JSON" },
  },
  overrides: true,
  examples: [
    'gym env prefetch "+config_paths=[resources_servers/example_multi_step/configs/example_multi_step.yaml]"',
    "gym env prefetch --benchmark gpqa      # runs its prepare: the Hub download lands in NEMO_GYM_CACHE_DIR",
  ],
  async run({ args, rawArgs, overrides, json }) {
    const [{ resolveConfig, noModelSeed, componentRoots }, { prefetch }, { storageSettings }] = await Promise.all([
      import("../../config/index.ts"),
      import("../../datasets/prefetch.ts"),
      import("../../datasets/storage/index.ts"),
    ]);
    const options = await configOptions(args, rawArgs, overrides, { seed: noModelSeed(), placeholders: true });
    const config = await resolveConfig(options);
    for (const warning of config.warnings) process.stderr.write(`${warning}\n`);
    const roots = componentRoots({ searchDirs: options.searchDirs });
    const report = await prefetch(config.serverInstances, roots, await storageSettings(), { tree: config.resolve(), log: (line) => process.stderr.write(`${line}\n`) });
    if (json) process.stdout.write(`${JSON.stringify(report)}\n`);
    const n = report.downloaded.length + report.prepared.length;
    process.stderr.write(`Prefetched ${n} file(s)${report.alreadyThere.length ? `, ${report.alreadyThere.length} already there` : ""}; download cache: ${report.cacheDir}\n`);
    if (!json) for (const path of [...report.downloaded, ...report.prepared]) process.stdout.write(`${path}\n`);
  },
});
