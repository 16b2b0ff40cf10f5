/** The body of `gym eval run`: config → servers → materialize → durable collection → summary. */
import type { ResolveConfigOptions } from "../../../config/index.ts";
import { GymError } from "../../../errors.ts";

export interface EvalRunInput {
  options: ResolveConfigOptions;
  noServe: boolean;
  output?: string;
}

/** Every file a run writes (its sidecars and health reports, named from --output) against every file it reads. */
async function guardRun(output: string, read: { path: string; role: string }[]) {
  const [{ guardOutputs }, { runPaths }] = await Promise.all([import("../../../outputs/guard.ts"), import("../../../outputs/paths.ts")]);
  const { dir, stem, ...files } = runPaths(output);
  // `-o results` names `results.jsonl`: refused when `results` is a folder (the user meant a file inside it).
  const typed = files.rollouts === output ? [] : [{ path: output, role: "--output" }];
  const written = [...typed, ...Object.entries(files).map(([name, path]) => ({ path, role: name === "rollouts" ? "--output" : `the ${name.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)} file (named from --output)` }))];
  guardOutputs(read, written, { command: "gym eval run", suggestion: `Choose another --output, e.g. --output ${dir === "." ? "" : `${dir}/`}rollouts.jsonl (the sidecars are named from its stem).` });
}

/** This invocation as the user typed it, with --resume added unless it is there (the tool's own name, each word shell-quoted). */
async function resumeCommand(): Promise<string> {
  const [{ shq }, { basename }] = await Promise.all([import("../../../cluster/shell.ts"), import("node:path")]);
  const argv = process.argv.slice(2);
  const compiled = process.argv[1]?.startsWith("/$bunfs/");
  const tool = compiled && basename(process.execPath) === "ng" ? "ng" : "gym";
  const resumes = argv.some((a) => a === "--resume" || /^\+{0,2}resume_from_cache=true$/.test(a));
  return [tool, ...argv, ...(resumes ? [] : ["--resume"])].map(shq).join(" ");
}

export async function evalRun({ options, noServe, output: outputFlag }: EvalRunInput): Promise<number> {
  const { componentRoots, resolveConfig, toYaml, isMapping } = await import("../../../config/index.ts");
  const { ServerRegistry } = await import("../../../servers/registry.ts");
  const { registryFromHeadServer } = await import("../../../servers/remote.ts");
  const { agentNames, collectionSettings, concurrencyOf, inputDataset, runKeys } = await import("../../../run/setup.ts");
  const { materialization } = await import("../../../stages/materialize.ts");
  const { runCollection } = await import("../../../run/collection.ts");
  const { printSummary } = await import("../../../run/summary.ts");
  const { runPaths } = await import("../../../outputs/paths.ts");
  const { JsonlAppender } = await import("../../../jsonl/write.ts");
  const { loadPromptConfig } = await import("../../../datasets/prompt.ts");
  const { parseTaskShard } = await import("../../../run/setup.ts");

  const missingOutput = () => new GymError("E_MISSING_ARGUMENT", "gym eval run needs --output (the rollouts JSONL; sidecars are written beside it).", { hint: "For example --output results/rollouts.jsonl, or --output - to stream rollouts to stdout." });
  const warn = (m: string) => process.stderr.write(`Warning: ${m}\n`);
  const info = (m: string) => process.stderr.write(`${m}\n`);
  const config = await resolveConfig(noServe ? { ...options, skipReferenceCheck: true } : options);
  config.warnings.forEach(warn);
  const resolved = config.resolve() as Record<string, unknown>;
  const keys = runKeys(resolved);
  const cacheLine = await (await import("../../cache/_flags.ts")).startResponseCache({}, resolved);
  if (cacheLine) info(cacheLine);
  // --output, or NeMo Gym's +output_jsonl_fpath=… (what gym eval submit's job scripts pass).
  const output = outputFlag ?? keys.output_jsonl_fpath;
  if (!output) throw missingOutput();
  if (output === "-" && resolved.batch_api === true) {
    throw new GymError("E_USAGE", "--batch keeps its journal beside --output, so it needs a file, not -: with - the journal would go to a temporary folder that no --resume can find, and batches in flight would be lost.", { hint: "Pass -o results/rollouts.jsonl." });
  }
  const harborOnly = config.serverInstances.find((i) => i.serverType === "responses_api_agents" && i.implementation === "terminal_agent");
  if (harborOnly) throw new GymError("E_CONFIG", `agent instance '${harborOnly.name}' (terminal_agent) drives Harbor task folders, not dataset rows`, { hint: "gym eval run TARGET --agent terminal --model-type … (TARGET: a Harbor task folder or a folder of them)" });
  const roots = componentRoots({ searchDirs: options.searchDirs, cwd: options.cwd });

  let registry;
  if (noServe) {
    const head = isMapping(config.tree.head_server) ? (config.tree.head_server as { host?: string; port?: number }) : {};
    registry = await registryFromHeadServer(`http://${head.host ?? "127.0.0.1"}:${head.port ?? 11000}`, { timeoutMs: (keys.timeout_s ?? 0) * 1000 });
  } else {
    const instances = config.serverInstances.map((i) => ({ name: i.name, serverType: i.serverType, implementation: i.implementation, block: i.config }));
    if (instances.length === 0) throw new GymError("E_CONFIG", "No server instances are configured.", { hint: "Pass --resources-server NAME and --model-type NAME (or --benchmark / --config)." });
    const userRoots = roots.flatMap((r) => (r.kind === "dir" ? [r.path] : []));
    const { builtinCatalogs } = await import("../../../catalog/builtins.ts");
    registry = await ServerRegistry.create(instances, { builtins: await builtinCatalogs(), globalConfig: resolved, userRoots });
    const { waitForModelEndpoints } = await import("../../../run/readiness.ts");
    // A timeout the user set (rather than the default) says the server binds late: then a refused connection is waited for too.
    const explicitWait = (options.overrides ?? []).some((t) => /^\+{0,2}model_endpoint_readiness_timeout_seconds=/.test(t));
    await waitForModelEndpoints(instances, Number(resolved.model_endpoint_readiness_timeout_seconds ?? 600), info, undefined, explicitWait);
  }
  const instances = registry.instances.map((i) => ({ name: i.name, serverType: i.serverType, block: i.block as Record<string, unknown> }));
  try {
    const agents = agentNames(instances);
    const dataset = await inputDataset(instances, keys, roots);
    const input = dataset.path;
    const promptConfig = dataset.promptConfig;
    const promptPath = keys.prompt_config ?? promptConfig;
    if (output !== "-") await guardRun(output, [{ path: input, role: keys.input_jsonl_fpath ? "--input" : "dataset" }, { path: promptPath ?? "", role: "--prompt-config" }, ...(options.configPaths ?? []).map((path) => ({ path, role: "--config" }))]);
    const materialized = materialization(input, {
      limit: keys.limit,
      promptConfig: promptPath ? await loadPromptConfig(promptPath, roots) : undefined,
      agentName: keys.agent_name,
      agentMap: keys.agent_map,
      fanOut: keys.fan_out,
      renamedAgents: config.renamedAgents,
      knownAgents: agents,
      responsesCreateParams: keys.responses_create_params,
      numRepeats: keys.num_repeats ?? dataset.numRepeats,
      addSeed: keys.num_repeats_add_seed,
      shard: keys.task_shard === undefined ? undefined : parseTaskShard(keys.task_shard),
      warn,
    });
    // A fresh run validates its input before anything is created; a resume only when its saved inventory's key differs.
    if (!keys.resume_from_cache) await materialized.open();
    const toStdout = output === "-";
    const paths = runPaths(toStdout ? `${(await import("node:os")).tmpdir()}/gym-run-${process.pid}/rollouts.jsonl` : output);
    const stdoutRows = toStdout ? JsonlAppender.open("-") : undefined;
    const { startBatchTransport, stopBatchTransport } = await import("../../../servers/calls/batch/index.ts");
    const agentInstances = registry.instances.filter((i) => i.serverType === "responses_api_agents");
    const batch = startBatchTransport(resolved, paths.rollouts, agentInstances, !!keys.resume_from_cache);
    const controller = new AbortController();
    // A second Ctrl-C stops at once; a repeated SIGTERM (Slurm signals every process of a job, and the job script
    // forwards it too) changes nothing: the drain goes on until Slurm's KillWait ends it.
    const onSignal = (signal: string) => {
      if (controller.signal.aborted) {
        if (signal === "SIGINT") process.exit(130);
        return;
      }
      info(`\n${signal}: no new rollouts start; waiting for the ones in flight (${signal === "SIGINT" ? "press Ctrl-C again to stop now; " : ""}--resume finishes the run).`);
      controller.abort(signal);
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
    // +wandb_project=… / +mlflow_tracking_uri=…: best effort, never fails the evaluation.
    const { startLiveTracking } = await import("../../../export/live.ts");
    const tracking = await startLiveTracking(resolved, config.resolve({ masked: true }) as Record<string, unknown>, paths, warn);
    const { costSettings } = await import("../../../run/budget.ts");
    const cost = costSettings(resolved, instances);
    const result = await runCollection({
      paths,
      inputPath: input,
      materialized,
      settings: collectionSettings(keys, instances),
      agents: registry,
      stdoutRows,
      concurrency: concurrencyOf(keys),
      resume: !!keys.resume_from_cache,
      allowUnsafeResume: keys.allow_unsafe_resume,
      routeFailuresToSidecar: keys.route_failures_to_sidecar,
      requireComplete: keys.require_complete,
      disableAggregation: keys.disable_aggregation,
      countFailureClassesAsZero: keys.count_failure_classes_as_zero,
      countMissingRolloutsAsZero: keys.count_missing_rollouts_as_zero,
      recordOmittedRollouts: keys.record_omitted_rollouts,
      dispatchBudgetS: keys.dispatch_budget_s,
      drainMarginS: keys.drain_margin_s,
      dispatchLongestFirst: keys.dispatch_longest_first,
      retryTerminalTimeouts: keys.retry_terminal_timeouts,
      timeoutMs: (keys.timeout_s ?? 0) * 1000,
      signal: controller.signal,
      resolvedConfigYaml: toYaml(config.resolve({ masked: true })),
      ...cost,
      log: { info, warn },
    });
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    if (batch) {
      info(`Batch API: ${batch.created} batch${batch.created === 1 ? "" : "es"} created by this run (journal: ${batch.journalPath})`);
      stopBatchTransport();
    }
    await printSummary(result, paths, toStdout, toStdout ? undefined : await resumeCommand());
    await tracking.finish(result.exitCode === 0);
    return result.exitCode;
  } finally {
    await registry.close();
  }
}
