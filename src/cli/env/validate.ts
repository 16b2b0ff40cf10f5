/** `gym env validate [NAME]`: a manifest-backed workload, or a merged config, checked offline without starting servers. */
import { configArgs, configOptions, jsonArg, modelArgs } from "../_args.ts";
import { defineGymCommand } from "../_command.ts";
import { printReport, workloadArgs, workloadOptions } from "./_workload.ts";

export default defineGymCommand({
  meta: { name: "env validate", description: "Check a workload or config offline without starting servers; exit 0 when valid, 1 when not" },
  args: {
    name: { type: "positional", required: false, description: "A manifest-backed workload: environments/NAME or benchmarks/NAME", valueHint: "NAME" },
    ...workloadArgs,
    sync: { type: "boolean", description: "With NAME: update the manifest's mirrored composition fields from the config (after every other check passes)" },
    ...configArgs,
    ...modelArgs,
    strict: { type: "boolean", description: "Fail on values a run needs but the config leaves undefined (credentials included)" },
    ...jsonArg,
  },
  overrides: true,
  examples: [
    "gym env validate my_eval",
    "gym env validate --sync my_eval",
    "gym env validate --environment example_mcqa",
    "gym env validate --benchmark gpqa",
    "gym env validate --config resources_servers/example_single_tool_call/configs/example_single_tool_call.yaml",
    "gym env validate --resources-server example_single_tool_call --model-type openai_model --strict",
    "",
    "With NAME: the manifest, its mirrors of the config, every dataset row and each resources server block.",
    "Without: undefined values such as policy_base_url are filled with placeholders and listed in one warning;",
    "a placeholder model stands in for policy_model. --strict turns both into errors. Resources server blocks",
    "are checked against their server's config exactly as `gym eval run` checks them at launch.",
  ],
  async run({ args, rawArgs, overrides, json }) {
    if (args.name) {
      const { validateWorkload } = await import("../../catalog/workload/index.ts");
      const { views, options } = await workloadOptions(args, rawArgs);
      const { report } = await validateWorkload(args.name, views, { ...options, sync: Boolean(args.sync) });
      for (const warning of report.warnings) process.stderr.write(`Warning: ${warning}\n`);
      return printReport(json, report, () => [
        `✓ ${report.kind} ${report.name} ${report.version} is valid (${report.manifest_path})`,
        ...report.components.map((c) => `  ${c.role}: ${c.name} (${c.boundary}/${c.implementation})`),
        ...report.datasets.map((d) => `  dataset ${d.name} (${d.type}): ${d.rows} row(s), ${d.path}`),
        ...(report.synchronized_fields.length ? [`  synchronized: ${report.synchronized_fields.join(", ")}`] : []),
      ]);
    }
    const { validateConfig } = await import("../../config/index.ts");
    const options = await configOptions(args, rawArgs, overrides);
    let { report, config, error } = await validateConfig({ ...options, strict: Boolean(args.strict) });
    if (config && !error) error = await (await import("../../catalog/server-check.ts")).serverBlockProblem(config);
    if (error) report = { ...report, valid: false, error: { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) } };
    if (json) {
      process.stdout.write(`${JSON.stringify(report)}\n`);
      if (error) process.stderr.write(`Error: ${error.message}\n`);
      return error ? 1 : 0;
    }
    for (const warning of report.warnings) process.stderr.write(`Warning: ${warning}\n`);
    if (error) throw error;
    const names = report.server_instances.map((i) => `${i.name} (${i.server_type}/${i.implementation})`);
    process.stdout.write(`✓ Config is valid: ${names.length} server instance(s)${names.length ? `: ${names.join(", ")}` : ""}.\n`);
  },
});

