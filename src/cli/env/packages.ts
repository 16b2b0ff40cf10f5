/** `gym env packages --resources-server NAME [--outdated]`: the libraries a server runs on (no per-server venvs in one binary). */
import { allValues, defineGymCommand } from "../_command.ts";
import { jsonArg } from "../_args.ts";

export default defineGymCommand({
  meta: { name: "env packages", description: "List the packages a resources server runs on" },
  args: {
    "resources-server": { type: "string", description: "The server folder name under resources_servers/", valueHint: "NAME", required: true },
    outdated: { type: "boolean", description: "Compare with the registry's latest versions (through your npm and its registry settings)" },
    "search-dir": { type: "string", description: "Extra root to search for the server (repeatable)", valueHint: "DIR" },
    ...jsonArg,
  },
  examples: [
    "gym env packages --resources-server example_single_tool_call",
    "gym env packages --resources-server example_single_tool_call --outdated",
    "",
    "gym is one binary: a built-in server runs on the libraries embedded in it, a server of yours also on its",
    "own package.json dependencies. There is no virtual environment to create, sync or go stale.",
  ],
  async run({ args, rawArgs, json }) {
    const { serverPackages, latestVersions } = await import("../../catalog/packages.ts");
    const { versionReport } = await import("../version.ts");
    const name = args["resources-server"];
    const found = await serverPackages(name, allValues(rawArgs, "search-dir"), versionReport().dependencies);
    let offline: string | undefined;
    if (args.outdated) {
      const answer = await latestVersions(found.packages.map((p) => p.name));
      offline = answer.offline;
      for (const p of found.packages) p.latest = answer.latest[p.name] ?? null;
      if (offline) process.stderr.write(`Warning: the package registry could not be reached (${offline}); latest versions are unknown.\n`);
    }
    const shown = args.outdated && !offline ? found.packages.filter((p) => p.latest && p.latest !== p.version) : found.packages;
    if (json) return void process.stdout.write(`${JSON.stringify({ ...found, packages: shown, ...(offline ? { offline } : {}) }, null, 2)}\n`);
    process.stdout.write(`${name} (${found.location}) runs on:\n`);
    const width = Math.max(7, ...shown.map((p) => p.name.length));
    for (const p of shown) process.stdout.write(`  ${p.name.padEnd(width)}  ${p.version}${args.outdated ? `  latest ${p.latest ?? "unknown"}` : ""}  (${p.source === "gym" ? "embedded in gym" : p.source})\n`);
    if (args.outdated && !offline && shown.length === 0) process.stdout.write("  every package is up to date\n");
  },
});
