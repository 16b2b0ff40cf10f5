/** `gym dataset collate`: validate the datasets of a config's agent instances, write their metrics, collate rows per type. */
import { defineGymCommand } from "../_command.ts";
import { configArgs, configOptions } from "../_args.ts";
import { GymError } from "../../errors.ts";

export default defineGymCommand({
  meta: { name: "dataset collate", description: "Validate and collate datasets, writing NeMo Gym's dataset metrics" },
  args: {
    config: configArgs.config,
    "resources-server": configArgs["resources-server"],
    "model-type": configArgs["model-type"],
    "search-dir": configArgs["search-dir"],
    mode: { type: "string", description: "train_preparation (train, validation, benchmark) or example_validation (example)", valueHint: "MODE" },
    "output-dir": { type: "string", description: "Folder for <type>_metrics.json and <type>.jsonl", valueHint: "DIR" },
    download: { type: "boolean", description: "Download missing datasets named by huggingface_identifier / gitlab_identifier first" },
  },
  overrides: true,
  examples: ["gym dataset collate --resources-server mcqa --output-dir data/mcqa --mode example_validation"],
  async run({ args, rawArgs, overrides }) {
    const [{ resolveConfig, noModelSeed, componentRoots }, { collate }, { locateDataset }, { loadPromptConfig }] = await Promise.all([
      import("../../config/index.ts"),
      import("../../datasets/collate.ts"),
      import("../../datasets/locate.ts"),
      import("../../datasets/prompt.ts"),
    ]);
    const options = await configOptions(args, rawArgs, overrides, { seed: noModelSeed(), placeholders: true });
    const config = await resolveConfig(options);
    for (const warning of config.warnings) process.stderr.write(`${warning}\n`);
    const tree = config.resolve();
    const mode = args.mode ?? (tree.mode as string | undefined);
    const outputDir = args["output-dir"] ?? (tree.output_dirpath as string | undefined);
    if (mode !== "train_preparation" && mode !== "example_validation") {
      throw new GymError("E_MISSING_ARGUMENT", `--mode must be train_preparation or example_validation${mode ? `, got '${mode}'` : ""}.`, {
        hint: "Use --mode example_validation to check the committed example data, train_preparation for train/validation/benchmark.",
      });
    }
    if (!outputDir) throw new GymError("E_MISSING_ARGUMENT", "--output-dir is required.", { hint: "e.g. --output-dir data/mcqa" });
    const roots = componentRoots({ searchDirs: options.searchDirs });
    const agents = config.serverInstances
      .filter((i) => i.serverType === "responses_api_agents" && Array.isArray(i.config.datasets))
      .map((i) => ({ name: i.name, datasets: i.config.datasets as Record<string, unknown>[] }));
    process.stderr.write(`Found ${agents.length} agent instance(s) with datasets: ${agents.map((a) => a.name).join(", ") || "(none)"}\n`);
    if (args.download || tree.should_download === true) {
      const { fetchMissingDatasets, storageSettings } = await import("../../datasets/storage/index.ts");
      const log = (line: string) => process.stderr.write(`${line}\n`);
      await fetchMissingDatasets(agents, await storageSettings(), { dataSource: tree.data_source as string | undefined, log, exists: async (p) => (await locateDataset(p, roots)) !== undefined });
    }
    const result = await collate({
      agents,
      mode,
      outputDir,
      overwriteConflicts: tree.overwrite_metrics_conflicts === true,
      locate: (path) => locateDataset(path, roots),
      loadPrompt: (path) => loadPromptConfig(path, roots),
      log: (line) => process.stderr.write(`${line}\n`),
    });
    for (const d of result.datasets) if (d.offending > 0) process.stderr.write(`${d.dataset}: ${d.offending} row(s) failed validation and were left out of the metrics\n`);
    process.stderr.write(`Collated ${result.types.map((t) => t.jsonlPath).join(", ")}\n`);
  },
});
