/** `gym env status`: the servers a running `gym env start` (or NeMo Gym) reports through its head server, with health. */
import { jsonArg } from "../_args.ts";
import { defineGymCommand } from "../_command.ts";

export default defineGymCommand({
  meta: { name: "env status", description: "Show the running servers and their health" },
  args: { ...jsonArg },
  overrides: true,
  examples: [
    "gym env status",
    "gym env status --json",
    "gym env status +head_server.port=12000   # a head server on another port",
    "",
    "Servers are found through the head server (head_server in the config, default 127.0.0.1:11000),",
    "the same way for gym's own `env start` and for Python NeMo Gym. Each is probed with GET /.",
  ],
  async run({ overrides, json }) {
    const { discoverServers, formatStatus } = await import("../../servers/status.ts");
    const headUrl = await headServerUrl(overrides);
    const servers = await discoverServers(headUrl);
    if (servers === undefined) {
      process.stderr.write(`Warning: Could not connect to the head server at ${headUrl}. Is it running? Start one with \`gym env start\`.\n`);
    }
    process.stdout.write(json ? `${JSON.stringify(servers ?? [])}\n` : formatStatus(servers ?? []));
  },
});

/** The head server address from the config parse (env.yaml and overrides apply), default 127.0.0.1:11000. */
async function headServerUrl(overrides: string[]): Promise<string> {
  const { resolveConfig, isMapping } = await import("../../config/index.ts");
  const config = await resolveConfig({ overrides, mode: "offline" });
  const head = isMapping(config.tree.head_server) ? (config.tree.head_server as { host?: string; port?: number }) : {};
  const host = !head.host || head.host === "0.0.0.0" ? "127.0.0.1" : head.host;
  return `http://${host}:${head.port ?? 11000}`;
}
