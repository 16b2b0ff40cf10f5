/**
 * One Harbor trial with a coding-agent CLI (codex_agent, opencode_agent, claude_code_agent): the CLI and the model
 * gateway prepared first (their folders are mounted read-only into the sandbox), a fresh sandbox, the CLI run with
 * the task's instruction under its time and turn limits, the ATIF trajectory from the captured model calls written
 * to `/logs/agent/trajectory.json` and `<trajectoriesDir>/<task_id>.json`, then the task's tests score the sandbox.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { atifDocument, prepareCliRun, rolloutResponse, type CliAgentConfig, type CliAgentDefinition, type CliRun } from "../../components/responses_api_agents/_cli_agent/index.ts";
import type { JsonObject } from "../../protocol/responses.ts";
import type { ServerClient } from "../../servers/client.ts";
import type { SandboxHandle, SandboxProvider } from "../../sandbox/provider.ts";
import { taskDigest } from "./digest.ts";
import { sandboxSpecOf, verify, writeAtomic } from "./oracle.ts";
import type { HarborTask } from "./tasks.ts";
import type { TerminalRow } from "./terminal.ts";

export interface CliTrialAgent {
  definition: CliAgentDefinition;
  config: CliAgentConfig;
  /** The model server the rollout gateway sends the CLI's calls to. */
  model: ServerClient;
  params: JsonObject;
  sessionId: string;
  version: string;
}

export type CliTrialRow = Omit<TerminalRow, "agent_status"> & { agent_status: string; agent_cli: string | null };

export async function runCliTrial(task: HarborTask, rolloutId: string, taskset: string, dirs: { verifier: string; trajectories: string }, agent: CliTrialAgent, provider: SandboxProvider, log: (line: string) => void): Promise<CliTrialRow> {
  const identity = { _ng_task_id: { taskset, task_id: task.id }, _ng_digest: task.digest, responses_create_params: { input: [{ role: "user", content: task.instruction }], ...agent.params } };
  const trajectoryPath = join(dirs.trajectories, `${task.id}.json`);
  const notStarted = (failure_kind: string, failure_reason: string): CliTrialRow => ({
    ...identity, response: null, reward: 0, verifier_rewards: null, verifier_return_code: null, verifier_logs_dir: null, verifier_seconds: null, mask_sample: true, failure_kind, failure_reason: failure_reason.slice(0, 2000),
    agent_status: "not_started", agent_reason: null, agent_turns: 0, usage: null, trajectory_path: null, agent_cli: null,
  });
  if (task.steps.length) return notStarted("harbor:unsupported", `multi-step tasks ([[steps]]) run with --agent harbor_oracle only in this build`);
  const now = taskDigest(task.dir);
  if (now !== task.digest) return notStarted("harbor:task_changed", `${task.dir} changed since it was loaded (digest ${now}, expected ${task.digest}); run again`);
  let run: CliRun;
  try {
    run = await prepareCliRun(agent.definition, agent.config, agent.model, rolloutId, (line) => log(`  ${task.id} ${line}`));
  } catch (error) {
    return notStarted("agent_error", (error as Error).message);
  }
  const cliName = `${agent.definition.cli.packageName}@${run.cli.version}`;
  let handle: SandboxHandle;
  try {
    handle = await provider.create({ ...sandboxSpecOf(task), mounts: run.mounts });
  } catch (error) {
    await run.close();
    return notStarted("sandbox_error", `the ${provider.name} sandbox did not start: ${(error as Error).message}`);
  }
  const logs = join(dirs.verifier, task.id);
  rmSync(logs, { recursive: true, force: true });
  mkdirSync(logs, { recursive: true });
  try {
    const episode = await run.run(provider, handle, { instruction: task.instruction, workdir: task.workdir, agentTimeoutSec: task.agentTimeoutSec });
    const trajectory = atifDocument({
      instruction: task.instruction,
      calls: episode.calls,
      sessionId: agent.sessionId,
      trajectoryId: `${agent.sessionId}:${taskset}:${task.id}`,
      agentName: agent.config.name,
      agentVersion: `${agent.version} (${cliName})`,
      extra: { gym: { taskset, task_id: task.id, agent_status: episode.status, agent_reason: episode.reason, agent_cli: cliName } },
    });
    mkdirSync(dirs.trajectories, { recursive: true });
    writeAtomic(trajectoryPath, `${JSON.stringify(trajectory, null, 2)}\n`);
    await provider.upload(handle, trajectoryPath, "/logs/agent/trajectory.json");
    const note = episode.reason ? `agent stopped: ${episode.reason}; ` : "";
    const verified = await verify({ provider, handle, task }, [join(task.dir, "tests")], task.verifierTimeoutSec, logs, note);
    // After the verifier (its logs replace the folder): the CLI's own output beside them.
    writeFileSync(join(logs, "agent-stdout.txt"), episode.exec.stdout);
    writeFileSync(join(logs, "agent-stderr.txt"), episode.exec.stderr);
    const failure = verified.failure_reason ?? (episode.reason ? `${episode.reason} (the tests scored ${verified.reward})` : null);
    return {
      ...identity,
      response: rolloutResponse(episode.calls, episode.usage, agent.config.model ?? ""),
      ...verified,
      failure_reason: failure,
      agent_status: episode.status,
      agent_reason: episode.reason,
      agent_turns: episode.turns,
      usage: episode.usage,
      trajectory_path: trajectoryPath,
      agent_cli: cliName,
    };
  } finally {
    // The gateway's folder stays mounted until the sandbox is gone (the verifier runs in it too).
    await provider.close(handle);
    await run.close();
  }
}
