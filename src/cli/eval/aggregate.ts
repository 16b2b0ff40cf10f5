/** `gym eval aggregate`: merge rollout shards and recompute `<stem>_aggregate_metrics.json` over their union. */
import { configArgs, configOptions } from "../_args.ts";
import { allValues, defineGymCommand, overrideValue } from "../_command.ts";
import { GymError } from "../../errors.ts";

const note = (line: string) => void process.stderr.write(`${line}\n`);

export default defineGymCommand({
  meta: { name: "eval aggregate", description: "Merge sharded rollout results and recompute aggregate metrics" },
  args: {
    "input-glob": { type: "string", alias: "i", description: "Shard glob(s), comma-separated, or - for stdin (repeatable)", valueHint: "GLOB" },
    input: { type: "string", description: "Same as --input-glob (e.g. --input - to read stdin)", valueHint: "PATH" },
    output: { type: "string", alias: "o", description: "Merged rollouts file; metrics and sources files are named from its stem", valueHint: "PATH" },
    ...configArgs,
    "no-merge": { type: "boolean", description: "Only compute metrics; do not write the merged rollouts (merge_shards=false)" },
    json: { type: "boolean", description: "Print the report as one JSON document on stdout" },
    cost: { type: "boolean", description: "Also price the rows' token usage (policy and judges) and write <stem>_cost.json" },
    prices: { type: "string", description: "Prices YAML for --cost (over the built-in table)", valueHint: "FILE" },
  },
  overrides: true,
  examples: [
    "gym eval aggregate --input-glob 'results/rollouts-rs*-chunk*.jsonl' --output results/rollouts.jsonl",
    "cat shard*.jsonl | gym eval aggregate --input - --output results/rollouts.jsonl",
  ],
  async run({ args, rawArgs, overrides, json }) {
    const inputs = [...allValues(rawArgs, "input-glob", "i"), ...allValues(rawArgs, "input")];
    if (inputs.length === 0) throw new GymError("E_MISSING_ARGUMENT", "--input-glob is required", { hint: "e.g. --input-glob 'results/rollouts-*.jsonl' (or --input - for stdin)" });
    if (!args.output) throw new GymError("E_MISSING_ARGUMENT", "--output is required", { hint: "e.g. --output results/rollouts.jsonl" });
    const { aggregateShards } = await import("../../stages/aggregate/index.ts");
    const options = await configOptions(args, rawArgs, overrides.filter((t) => !/^\+{0,2}merge_shards=/.test(t)));
    const merge = !(args["no-merge"] || /^false$/i.test(overrideValue(overrides, "merge_shards") ?? ""));
    await guardAggregate(inputs, args.output, merge, options.configPaths ?? [], !!args.cost);
    const servers = options.configPaths?.length ? await serversFor(options) : undefined;
    if (!servers) note("No --config: computing NeMo Gym's baseline statistics here (server-specific metrics such as pass@k need --config).");
    try {
      const report = await aggregateShards({
        inputs,
        output: args.output,
        mergeShards: merge,
        aggregateHook: servers ? (agent, rows) => agentMetrics(servers, agent, rows) : undefined,
        // NeMo Gym health-checks the merged file after an aggregate; the stage does it from its own parse.
        healthCheck: true,
        log: note,
      });
      const { health, ...shown } = report;
      if (args.cost) Object.assign(shown, { cost: await costOf(report, args.output, args.prices) });
      print(shown, json);
      if (health) await healthLine(health);
    } finally {
      await servers?.close();
    }
  },
});

/** Refuses, before anything is read or written, an output (or a sidecar named from it) that is a shard or a config. */
async function guardAggregate(patterns: string[], output: string, merge: boolean, configs: string[], cost: boolean) {
  const [{ guardOutputs }, { expandInputGlobs }, { siblingPath }, fs] = await Promise.all([
    import("../../outputs/guard.ts"),
    import("../../stages/aggregate/shards.ts"),
    import("../../stages/aggregate/files.ts"),
    import("node:fs"),
  ]);
  const { shards } = expandInputGlobs(patterns);
  const link = (p: string) => fs.lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink() === true;
  const resolve = (await import("node:path")).resolve;
  guardOutputs(
    [...shards.map((path) => ({ path, role: "--input-glob" })), ...configs.map((path) => ({ path, role: "--config" }))],
    [
      ...(merge ? [{ path: output, role: "--output" }] : []),
      { path: siblingPath(output, "_aggregate_metrics", ".json"), role: "the metrics file (named from --output)" },
      { path: siblingPath(output, "_sources", ".json"), role: "the sources file (named from --output)" },
      ...(cost ? [{ path: siblingPath(output, "_cost", ".json"), role: "the cost file (named from --output)" }] : []),
    ],
    {
      command: "gym eval aggregate",
      suggestion: "Write the merged file to a new path (e.g. results/rollouts.jsonl beside results/rollouts-*.jsonl).",
      // NeMo Gym lets the only shard be its own output when it is named directly (no link): it is re-sorted in place.
      allowSame: (o, i) => o.role === "--output" && shards.length === 1 && resolve(o.path) === resolve(i.path) && !link(o.path),
    },
  );
}

/** The line of the health check NeMo Gym runs after an aggregate (its files are beside the merged rollouts). */
async function healthLine(health: NonNullable<Report["health"]>) {
  const { healthSummaryLine } = await import("../../stages/health-check/index.ts");
  note("error" in health ? `Rollout health: not checked (${health.error})` : healthSummaryLine(health));
}

type Report = Awaited<ReturnType<typeof import("../../stages/aggregate/index.ts").aggregateShards>>;

/** The config's servers, with the placeholder model of model-free commands. */
async function serversFor(options: Awaited<ReturnType<typeof configOptions>>) {
  const { resolveConfig, noModelSeed } = await import("../../config/index.ts");
  const { registryFromConfig } = await import("../../servers/from-config.ts");
  const config = await resolveConfig({ ...options, seed: noModelSeed(), mode: "run" });
  config.warnings.forEach((w) => note(`Warning: ${w}`));
  const { builtinCatalogs } = await import("../../catalog/builtins.ts");
  return registryFromConfig(config, { builtins: await builtinCatalogs() });
}

/** NeMo Gym's way: the agent's `/aggregate_metrics` (proxied to its resources server) computes its metrics. */
async function agentMetrics(servers: import("../../servers/registry.ts").ServerRegistry, agent: string, rows: Record<string, unknown>[]) {
  const { parsePythonJson } = await import("../../metrics/pyjson.ts");
  const { postAggregateMetrics } = await import("../../run/score.ts");
  // A resources-server-only config (the reverify page's sharding recipe) has no agent: its one resources server computes the metrics.
  const resources = servers.instances.filter((i) => i.serverType === "resources_servers");
  const target = servers.instances.some((i) => i.name === agent) ? agent : resources.length === 1 ? resources[0]!.name : agent;
  const reply = await postAggregateMetrics(servers.get(target), rows);
  if (!reply.ok) throw new GymError("E_SERVER", `${target === agent ? `Agent '${agent}'` : `Resources server '${target}' (for agent '${agent}')`} could not compute aggregate metrics (${reply.status}): ${reply.text.slice(0, 300)}`);
  return parsePythonJson(reply.text) as never;
}

/** `--cost`: the merged rows' (or the shards') usage priced, written to `<stem>_cost.json` and shown. */
async function costOf(report: Report, output: string, prices: string | undefined) {
  const [{ tallyFiles, priceTable, costFilePath, costLine }, { writeJsonAtomic }] = await Promise.all([import("../../stages/cost/index.ts"), import("../../jsonl/write.ts")]);
  const cost = (await tallyFiles(report.mergedRollouts ? [report.mergedRollouts] : report.shards.map((s) => s.path), priceTable(prices))).summary();
  writeJsonAtomic(costFilePath(output), cost, 2);
  note(`Cost: ${costLine(cost)} (${costFilePath(output)})`);
  return cost;
}

function print(report: Omit<Report, "health">, json: boolean) {
  {
    if (json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else {
      note(`Merged rollouts: ${report.mergedRollouts ?? "<not merged>"} (${report.rows} rows from ${report.shards.length} shard(s))`);
      note(`Aggregate metrics: ${report.aggregateMetrics ?? "<none: no rows with agent_ref.name>"}${report.computedBy === "servers" ? " (computed by the config's servers)" : ""}`);
      note(`Sources: ${report.sources}`);
    }
  }
}
