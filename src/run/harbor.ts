/**
 * `gym eval run TARGET --agent terminal` (or `--agent-type terminal_agent`), or a coding-agent CLI (`--agent
 * codex_agent`): a Harbor task set through that agent against the configured policy model (any model type, reached
 * through the server registry; a CLI reaches it through the per-rollout gateway), one task at a time, into
 * `results/harbor/<taskset>/` (rollouts.jsonl, trajectories/<task_id>.json, verifier/<task_id>/).
 */
import { join } from "node:path";
import type { TerminalAgentConfig } from "../components/responses_api_agents/terminal_agent/episode.ts";
import type { ResolveConfigOptions } from "../config/index.ts";
import { DATASET_DIGEST_KEY } from "../datasets/harbor/digest.ts";
import { writeAtomic } from "../datasets/harbor/oracle.ts";
import type { TaskSet } from "../datasets/harbor/tasks.ts";
import { runTerminalTrial, type TerminalRow } from "../datasets/harbor/terminal.ts";
import { CLI_AGENTS, isCliAgent } from "../components/responses_api_agents/cli-agents.ts";
import { runCliTrial, type CliTrialRow } from "../datasets/harbor/cli-trial.ts";
import { prepareResults, rolloutsPath } from "../datasets/harbor/validate.ts";
import { GymError } from "../errors.ts";
import type { SandboxProvider } from "../sandbox/provider.ts";

export const TERMINAL_AGENT = "terminal_agent";
/** `--agent` names that mean the built-in terminal agent config (spec §2.1: NAME or NAME_agent). */
export const TERMINAL_AGENT_NAMES = new Set(["terminal", TERMINAL_AGENT]);

export interface HarborAgentRun {
  set: TaskSet;
  provider: SandboxProvider;
  options: ResolveConfigOptions;
  /** `--agent`: an instance name, or terminal / terminal_agent for the built-in config. */
  agent?: string;
  version: string;
  /** `--output FILE`: the rollouts file (default `<results dir>/rollouts.jsonl`). */
  output?: string;
  log: (line: string) => void;
}

export interface HarborAgentOutcome {
  dir: string;
  rollouts: string;
  rows: (TerminalRow | CliTrialRow)[];
  lines: string[];
}

/** The built-in agent an `--agent` name stands for (terminal, terminal_agent, codex_agent…), else null (an instance name). */
function builtinAgent(agent: string | undefined): string | null {
  if (!agent) return null;
  if (TERMINAL_AGENT_NAMES.has(agent)) return TERMINAL_AGENT;
  return isCliAgent(agent) ? agent : null;
}
const harborAgent = (implementation: string) => implementation === TERMINAL_AGENT || isCliAgent(implementation);

function noAgent(found: string[], agent?: string): GymError {
  return new GymError("E_CONFIG", agent ? `--agent ${agent} is not a terminal agent instance of the config (found: ${found.join(", ") || "none"})` : `the config has ${found.length} terminal agent instances (${found.join(", ")})`, {
    hint: "gym eval run TARGET --agent terminal --model-type openai_model --model … --model-url …  (or --agent-type terminal_agent; --agent NAME picks one instance)",
  });
}

export async function harborAgentRun(run: HarborAgentRun): Promise<HarborAgentOutcome> {
  const { resolveConfig, componentRoots, selectorPath } = await import("../config/index.ts");
  const options = { ...run.options, configPaths: [...(run.options.configPaths ?? [])] };
  const builtin = builtinAgent(run.agent);
  if (builtin) options.configPaths.push(await selectorPath("agent-type", builtin, componentRoots({ searchDirs: options.searchDirs, cwd: options.cwd })));
  const config = await resolveConfig(options);
  config.warnings.forEach((w) => run.log(`Warning: ${w}`));
  const resolved = config.resolve() as Record<string, unknown>;
  const agents = config.serverInstances.filter((i) => i.serverType === "responses_api_agents" && harborAgent(i.implementation));
  const chosen = run.agent && !builtin ? agents.filter((a) => a.name === run.agent) : agents.length > 1 ? agents.filter((a) => a.name === (builtin ?? TERMINAL_AGENT)) : agents;
  if (chosen.length !== 1) throw noAgent(agents.map((a) => a.name), run.agent);
  const block = { ...(chosen[0]!.config as Record<string, unknown>), name: chosen[0]!.name } as unknown as TerminalAgentConfig;
  const modelName = block.model_server?.name;
  const models = config.serverInstances.filter((i) => i.serverType === "responses_api_models");
  if (!models.some((m) => m.name === modelName)) {
    throw new GymError("E_CONFIG", `the agent's model_server '${modelName}' is not configured`, { hint: "add a policy model: --model-type openai_model (or vllm_model, …) --model NAME --model-url URL" });
  }
  const { ServerRegistry } = await import("../servers/registry.ts");
  const { builtinCatalogs } = await import("../catalog/builtins.ts");
  const { waitForModelEndpoints } = await import("./readiness.ts");
  const instances = models.map((i) => ({ name: i.name, serverType: i.serverType, implementation: i.implementation, block: i.config }));
  const registry = await ServerRegistry.create(instances, { builtins: await builtinCatalogs(), globalConfig: resolved });
  try {
    await waitForModelEndpoints(instances, Number(resolved.model_endpoint_readiness_timeout_seconds ?? 600), run.log);
    const params = (resolved.responses_create_params ?? {}) as Record<string, unknown>;
    const { input: _input, ...rest } = params;
    const implementation = chosen[0]!.implementation;
    const cli = isCliAgent(implementation) ? await CLI_AGENTS[implementation]!() : null;
    const settings = cli ? { ...(block as unknown as Record<string, unknown>), name: undefined, model_server: modelName } : { max_turns: block.max_turns, max_output_bytes: block.max_output_bytes, command_timeout_sec: block.command_timeout_sec, model_server: modelName };
    const dir = prepareResults(run.set, { kind: "eval", provider: run.provider, agent: block.name, config: { agent_config: settings } });
    const sessionId = `gym-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    const agent = { config: block, model: registry.get(modelName), params: rest as never, sessionId, version: run.version };
    const cliAgent = cli ? { definition: cli, config: block as never, model: registry.get(modelName), params: rest as never, sessionId, version: run.version } : null;
    const rows: (TerminalRow | CliTrialRow)[] = [];
    const lines: string[] = [];
    for (const [index, task] of run.set.tasks.entries()) {
      run.log(`[${index + 1}/${run.set.tasks.length}] ${task.id}: ${block.name} with ${modelName}, then tests/test.sh`);
      const dirs = { verifier: join(dir, "verifier"), trajectories: join(dir, "trajectories") };
      const trial = cliAgent ? await runCliTrial(task, `${index}-0`, run.set.taskset, dirs, cliAgent, run.provider, run.log) : await runTerminalTrial(task, run.set.taskset, dirs, agent, run.provider, run.log);
      const row = { ...trial, [DATASET_DIGEST_KEY]: run.set.datasetDigest };
      rows.push(row);
      const status = row.mask_sample ? `masked (${row.failure_kind})` : `${block.name} ${row.agent_status}${row.failure_kind ? ` (${row.failure_kind})` : ""}`;
      const line = `${task.id}  ${status}  ${row.reward}`;
      lines.push(row.failure_reason && row.reward < 1 ? `${line}\n    ${row.failure_reason.trim().split("\n").join("\n    ")}` : line);
    }
    for (const skip of run.set.skipped) lines.push(`${skip.task_id}  failed: ${skip.reason}  -`);
    const rollouts = rolloutsPath(dir, run.output);
    writeAtomic(rollouts, rows.map((r) => `${JSON.stringify(r)}\n`).join(""));
    return { dir, rollouts, rows, lines };
  } finally {
    await registry.close();
  }
}

