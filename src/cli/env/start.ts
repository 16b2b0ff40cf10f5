/** `gym env start`: serve every configured server on 127.0.0.1 ports plus the head server, until SIGINT/SIGTERM. */
import { configArgs, configOptions, jsonArg, modelArgs } from "../_args.ts";
import { defineGymCommand } from "../_command.ts";
import { cacheArgs, startResponseCache } from "../cache/_flags.ts";

export default defineGymCommand({
  meta: { name: "env start", description: "Start the configured servers (agents, models, resources) and the head server" },
  args: {
    ...configArgs,
    ...modelArgs,
    host: { type: "string", description: "Bind every server to this interface (default 127.0.0.1; 0.0.0.0 exposes them to the network)", valueHint: "HOST" },
    ...cacheArgs,
    ...jsonArg,
  },
  overrides: true,
  examples: [
    "gym env start --resources-server example_single_tool_call --model-type mock_model   # offline, no endpoint needed",
    "gym env start --resources-server mcqa --model-type openai_model \\",
    "    --model gpt-4.1-mini --model-url https://api.openai.com/v1 --model-api-key $OPENAI_API_KEY",
    "",
    "Prints the instance list (stdout; one JSON array with --json), then serves until Ctrl-C or SIGTERM.",
    "Find the running servers with `gym env status`; collect against them with `gym eval run --no-serve`.",
  ],
  async run({ args, rawArgs, overrides, json }) {
    const { resolveConfig, toYaml, isMapping } = await import("../../config/index.ts");
    const { launchEnvironment } = await import("../../servers/launch.ts");
    const { builtinCatalogs } = await import("../../catalog/builtins.ts");
    const { formatInstanceList, probeModelEndpoints } = await import("../../servers/launch-report.ts");
    const { waitForShutdownSignal } = await import("../../runtime/serve.ts");

    const config = await resolveConfig(await configOptions(args, rawArgs, overrides, { mode: "run" }));
    for (const warning of config.warnings) process.stderr.write(`Warning: ${warning}\n`);
    const cacheLine = await startResponseCache(args, config.resolve() as Record<string, unknown>);
    if (cacheLine) process.stderr.write(`${cacheLine}\n`);
    const head = isMapping(config.tree.head_server) ? (config.tree.head_server as { host?: string; port?: number }) : undefined;
    const instances = config.serverInstances.map((i) => ({ name: i.name, serverType: i.serverType, implementation: i.implementation, block: i.config }));
    const environment = await launchEnvironment({
      instances,
      configYaml: toYaml(config.tree),
      headServer: head,
      bindHost: typeof args.host === "string" ? args.host : undefined,
      registry: { builtins: await builtinCatalogs(), globalConfig: config.resolve(), userRoots: config.roots.flatMap((r) => (r.kind === "dir" ? [r.path] : [])) },
    });
    process.stdout.write(json ? `${JSON.stringify(environment.instances)}\n` : formatInstanceList(environment.instances));
    process.stderr.write(`All ${environment.instances.length} / ${environment.instances.length} servers ready. Head server: ${environment.headUrl}. Press Ctrl-C to stop.\n`);
    for (const line of await probeModelEndpoints(instances)) process.stderr.write(`Warning: ${line}\n`);

    const signal = await waitForShutdownSignal();
    process.stderr.write(`Received ${signal}, shutting down...\n`);
    await environment.stop();
    process.stderr.write("NeMo Gym finished!\n");
    return 0;
  },
});
