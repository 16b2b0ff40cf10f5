/** `gym env resolve`: print the merged config as YAML (secrets masked), warnings on stderr. */
import { configArgs, configOptions } from "../_args.ts";
import { defineGymCommand } from "../_command.ts";

export default defineGymCommand({
  meta: { name: "env resolve", description: "Resolve the configs, flags and overrides into the final merged config and print it" },
  args: { ...configArgs },
  overrides: true,
  examples: [
    "gym env resolve --config resources_servers/mcqa/configs/mcqa.yaml \\",
    "    --config responses_api_models/openai_model/configs/openai_model.yaml \\",
    "    ++policy_base_url=https://api.openai.com/v1 ++policy_api_key=sk-example ++policy_model_name=gpt-4o-mini",
    "",
    "Unlike `env validate`, resolve substitutes no placeholder model: a model config's policy_* values must be set.",
    "Secrets (API keys, tokens, passwords, authorization headers) print as ****. Ports not given print as -1.",
  ],
  async run({ args, rawArgs, overrides }) {
    const { resolveConfig, toYaml } = await import("../../config/index.ts");
    const config = await resolveConfig(await configOptions(args, rawArgs, overrides, { mode: "offline" }));
    for (const warning of config.warnings) process.stderr.write(`Warning: ${warning}\n`);
    // As NeMo Gym 0.7 does: a server block that does not fit its server's config is printed, its fields to fix warned.
    const { serverBlockProblem } = await import("../../catalog/server-check.ts");
    const problem = await serverBlockProblem(config);
    if (problem) process.stderr.write(`Warning: ${problem.message}${problem.hint ? `\n  ${problem.hint}` : ""}\n`);
    process.stdout.write(toYaml(config.resolve({ masked: true })));
  },
});
