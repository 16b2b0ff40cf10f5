/** `gym env validate` (no workload name): check a merged config offline — structure, server shapes, references, datasets. */
import { configArgs, configOptions, jsonArg, modelArgs } from "../_args.ts";
import { defineGymCommand } from "../_command.ts";

export default defineGymCommand({
  meta: { name: "env validate", description: "Check a config offline without starting servers; exit 0 when valid, 1 when not" },
  args: {
    ...configArgs,
    ...modelArgs,
    strict: { type: "boolean", description: "Fail on values a run needs but the config leaves undefined (credentials included)" },
    ...jsonArg,
  },
  overrides: true,
  examples: [
    "gym env validate --config resources_servers/example_single_tool_call/configs/example_single_tool_call.yaml",
    "gym env validate --resources-server example_single_tool_call --model-type openai_model --strict",
    "",
    "Undefined values such as policy_base_url are filled with placeholders and listed in one warning;",
    "a placeholder model stands in for policy_model. --strict turns both into errors.",
  ],
  async run({ args, rawArgs, overrides, json }) {
    const { validateConfig } = await import("../../config/index.ts");
    const options = await configOptions(args, rawArgs, overrides);
    const { report, error } = await validateConfig({ ...options, strict: Boolean(args.strict) });
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
