/** `gym eval reverify`: recompute rewards of stored rollouts through the resources servers' /verify, without model calls. */
import { GymError } from "../../errors.ts";
import { configArgs, configOptions, jsonArg } from "../_args.ts";
import { defineGymCommand } from "../_command.ts";
import { cacheArgs, startResponseCache } from "../cache/_flags.ts";

export default defineGymCommand({
  meta: { name: "eval reverify", description: "Recompute rewards from stored rollouts through /verify (no model inference)" },
  args: {
    ...configArgs,
    "input-format": { type: "string", description: "gym (native rollouts; the default) or atif (NeMo Relay's ATIF v1.7 trajectories, with --atif-manifest)", valueHint: "FORMAT" },
    "atif-manifest": { type: "string", description: "With --input-format atif: the JSONL mapping each trajectory to (_ng_task_index, _ng_rollout_index)", valueHint: "PATH" },
    inputs: { type: "string", description: "The run's *_materialized_inputs.jsonl, or - for stdin (sets materialized_inputs_jsonl_fpath)", valueHint: "PATH" },
    rollouts: { type: "string", description: "The run's rollouts.jsonl, or - for stdin (sets rollouts_jsonl_fpath)", valueHint: "PATH" },
    output: { type: "string", alias: "o", description: "Output JSONL of recomputed rollouts; sidecars sit beside it; - for stdout", valueHint: "PATH" },
    concurrency: { type: "string", description: "/verify calls in flight (sets num_samples_in_parallel; default 256)", valueHint: "N" },
    limit: { type: "string", description: "Only the first N rollouts (after the judge filter)", valueHint: "N" },
    force: { type: "boolean", description: "Run against servers whose reverify_mode is unsupported/unknown; output gets the unsafe_ prefix" },
    overwrite: { type: "boolean", description: "Delete an existing output (and its failures sidecar) instead of refusing" },
    resume: { type: "boolean", description: "Continue a partial output: skip rows already in it or settled in its failures sidecar" },
    batch: { type: "boolean", description: "Send the judges' model calls through the provider's Batch API; --resume re-attaches to batches in flight (sets batch_api)" },
    "judge-failed-only": { type: "boolean", description: "Re-verify only the judge failures of <rollouts stem>_failures.jsonl; successes are carried through" },
    append: { type: "boolean", description: "With --judge-failed-only: append recovered rows to an existing --output" },
    "disable-aggregation": { type: "boolean", description: "Do not compute <stem>_aggregate_metrics.json (for shards)" },
    adaptive: { type: "boolean", default: true, description: "Learn each judge endpoint's concurrency from its 429s and x-ratelimit-* headers", negativeDescription: "Keep a fixed judge concurrency (sets adaptive_concurrency=false)" },
    serve: { type: "boolean", default: true, description: "Start the config's resources servers in this process", negativeDescription: "Use servers already running (`gym env start`, or NeMo Gym's), found through the head server" },
    ...cacheArgs,
    ...jsonArg,
  },
  overrides: true,
  examples: [
    "gym eval reverify --config my_resources_server.yaml \\",
    "    --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl -o results/rollouts_reverified.jsonl",
    "gym eval reverify --resources-server mcqa \"++mcqa.resources_servers.mcqa.grading_mode=lenient_boxed\" --inputs … --rollouts … -o …",
    "gym eval reverify --judge-failed-only --append --config … --inputs … --rollouts results/rollouts.jsonl -o results/rollouts.jsonl",
    "",
    "Only servers reporting reverify_mode 'stateless' are re-verified unless --force. Hydra-only keys:",
    "+route_failures_to_sidecar=true (a failed /verify call is recorded instead of ending the run), +retry_terminal_timeouts=true.",
  ],
  async run({ args, rawArgs, overrides, json }) {
    const { resolveConfig, isMapping, noModelSeed } = await import("../../config/index.ts");
    const { reverify } = await import("../../stages/reverify/index.ts");
    const { formatReverifySummary } = await import("../../stages/reverify/summary.ts");
    const { maxRolloutAttempts } = await import("../../outputs/store.ts");
    const warn = (m: string) => void process.stderr.write(`Warning: ${m}\n`);
    const info = (m: string) => void process.stderr.write(`${m}\n`);

    // Reverify calls no model: a placeholder `policy_model` lets an agent's model reference resolve without --model-type.
    const seed = { policy_model: noModelSeed(false).policy_model! };
    const config = await resolveConfig(await configOptions(args, rawArgs, overrides, { mode: "run", seed }));
    config.warnings.forEach(warn);
    const keys = config.resolve() as Record<string, unknown>;
    const cacheLine = await startResponseCache(args, keys);
    if (cacheLine) info(cacheLine);
    if (args.adaptive === false) keys.adaptive_concurrency = false;
    if (args.batch) keys.batch_api = true;
    const str = (flag: string, key: string) => (typeof args[flag] === "string" ? (args[flag] as string) : typeof keys[key] === "string" ? (keys[key] as string) : undefined);
    const bool = (flag: string, key: string) => !!args[flag] || keys[key] === true;
    const num = (flag: string, key: string) => {
      const raw = args[flag] ?? keys[key];
      if (raw === undefined || raw === null) return undefined;
      const n = Number(raw);
      if (String(raw).trim() === "" || !Number.isFinite(n)) throw new GymError("E_BAD_FLAG_VALUE", `--${flag} expects a number, got '${raw}'.`, { hint: `For example --${flag} 8.` });
      return n;
    };
    const format = str("input-format", "input_format") ?? "gym";
    if (format !== "gym" && format !== "atif") throw new GymError("E_BAD_FLAG_VALUE", `--input-format must be gym or atif, got '${format}'.`, { hint: "gym reads --rollouts; atif reads --atif-manifest." });
    const inputs = str("inputs", "materialized_inputs_jsonl_fpath");
    let rollouts = str("rollouts", "rollouts_jsonl_fpath");
    let cleanup = () => {};
    if (format === "atif") {
      const { prepareAtifInput } = await import("../../stages/reverify/atif.ts");
      const refused = Object.fromEntries(["force", "resume", "judge-failed-only", "append"].map((f) => [f, !!args[f]]));
      ({ rollouts, cleanup } = prepareAtifInput({ manifest: str("atif-manifest", "atif_manifest"), rollouts, refused, warn }));
    }
    const output = str("output", "output_jsonl_fpath");
    for (const [flag, value] of [["inputs", inputs], ["rollouts", rollouts], ["output", output]] as const) {
      if (!value) throw new GymError("E_MISSING_ARGUMENT", `gym eval reverify needs --${flag}.`, { hint: "For example: --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl --output results/rollouts_reverified.jsonl" });
    }
    const { guardReverify } = await import("../../stages/reverify/guard.ts");
    await guardReverify(inputs!, rollouts!, output!, bool("judge-failed-only", "judge_failed_only") && (bool("append", "append") || bool("resume", "resume_from_cache")));

    const { startBatchTransport, stopBatchTransport } = await import("../../servers/calls/batch/index.ts");
    if (keys.batch_api === true && (output === "-" || args.serve === false)) {
      throw new GymError("E_USAGE", output === "-" ? "--batch keeps its journal beside --output, so it needs a file, not -." : "--batch needs the judge model servers in this process; with --no-serve they run elsewhere.", { hint: output === "-" ? "Pass -o results/reverified.jsonl." : "Leave out --no-serve, or leave out --batch." });
    }
    // Reverify runs no agent: only the judges' calls of /verify go into batches.
    const batch = startBatchTransport(keys, output!, [], bool("resume", "resume_from_cache"));

    let registry;
    let instances;
    if (args.serve === false) {
      const { registryFromHeadServer } = await import("../../servers/remote.ts");
      const head = isMapping(config.tree.head_server) ? (config.tree.head_server as { host?: string; port?: number }) : {};
      registry = await registryFromHeadServer(`http://${head.host ?? "127.0.0.1"}:${head.port ?? 11000}`);
      instances = registry.instances;
    } else {
      const { ServerRegistry } = await import("../../servers/registry.ts");
      const { builtinCatalogs } = await import("../../catalog/builtins.ts");
      instances = config.serverInstances.map((i) => ({ name: i.name, serverType: i.serverType, implementation: i.implementation, block: i.config }));
      const { withReferencedPeers } = await import("../../servers/instances.ts");
      // The resources servers, and the model servers they call (an LLM judge's judge_model_server).
      registry = await ServerRegistry.create(withReferencedPeers(instances, (i) => i.serverType === "resources_servers"), { builtins: await builtinCatalogs(), globalConfig: keys });
    }
    const controller = new AbortController();
    const onSignal = () => {
      if (controller.signal.aborted) process.exit(130);
      info("\nInterrupted: no new rows start; waiting for the ones in flight (Ctrl-C again to stop now; --resume finishes the run).");
      controller.abort();
    };
    process.on("SIGINT", onSignal);
    try {
      const report = await reverify({
        inputs: inputs!,
        rollouts: rollouts!,
        output: output!,
        instances,
        renamedAgents: config.renamedAgents,
        servers: registry,
        force: bool("force", "force"),
        overwrite: bool("overwrite", "overwrite"),
        resume: bool("resume", "resume_from_cache"),
        judgeFailedOnly: bool("judge-failed-only", "judge_failed_only"),
        append: bool("append", "append"),
        disableAggregation: bool("disable-aggregation", "disable_aggregation"),
        concurrency: num("concurrency", "num_samples_in_parallel"),
        limit: num("limit", "limit"),
        routeFailuresToSidecar: keys.route_failures_to_sidecar === true,
        retryTerminalTimeouts: keys.retry_terminal_timeouts === true,
        maxAttempts: maxRolloutAttempts(warn),
        signal: controller.signal,
        log: { info, warn },
      });
      if (json) process.stdout.write(`${JSON.stringify(report)}\n`);
      else info(formatReverifySummary(report, bool("disable-aggregation", "disable_aggregation")).trimEnd());
      return report.interrupted ? 130 : 0;
    } finally {
      process.off("SIGINT", onSignal);
      if (batch) info(`Batch API: ${batch.created} batch${batch.created === 1 ? "" : "es"} created (journal: ${batch.journalPath})`);
      stopBatchTransport();
      cleanup();
      await registry.close();
    }
  },
});

