/**
 * One CLI rollout in a sandbox: find the CLI at its pinned version, open the model gateway with a fresh token,
 * show both read-only in the sandbox (`mounts`, given to the provider's create), stage the CLI's HOME, run the
 * launcher under the task's wall-time limit, and read back every model call it made. `close()` stops the gateway;
 * the sandbox itself belongs to the caller (the verifier runs in it next).
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { GymError } from "../../../errors.ts";
import type { ResponseUsage } from "../../../protocol/responses.ts";
import { accumulateUsage } from "../../../protocol/responses-dump.ts";
import { scriptRunner } from "../../../runtime/script-runner.ts";
import type { ServerClient } from "../../../servers/client.ts";
import type { ExecResult, SandboxHandle, SandboxProvider } from "../../../sandbox/provider.ts";
import type { CliAgentConfig, CliAgentDefinition, LaunchContext } from "./agent.ts";
import type { CapturedCall } from "./capture.ts";
import { findCli, type FoundCli } from "./cli.ts";
import { openGateway, type Gateway } from "./gateway.ts";
import { AGENT_HOME, CLI_PATH, GATEWAY_PATH, RELAY_PORT, RUNNER_PATH, writeLaunchFiles } from "./launch.ts";

export type CliStatus = "completed" | "max_turns" | "agent_timeout" | "cli_error" | "model_error";

export interface CliEpisode {
  status: CliStatus;
  /** Why it ended other than by the CLI finishing, else null. */
  reason: string | null;
  /** Model calls made (refused ones not counted). */
  turns: number;
  calls: CapturedCall[];
  usage: ResponseUsage | null;
  exec: ExecResult;
}

export interface CliRun {
  cli: FoundCli;
  gateway: Gateway;
  /** Read-only mounts the sandbox must be created with. */
  mounts: { host: string; path: string }[];
  run(provider: SandboxProvider, handle: SandboxHandle, task: { instruction: string; workdir: string; agentTimeoutSec: number }): Promise<CliEpisode>;
  close(): Promise<void>;
}

const tail = (text: string, n: number) => (text.length > n ? text.slice(-n) : text);

function openUp(path: string): void {
  for (const name of readdirSync(path)) {
    const full = join(path, name);
    if (statSync(full).isDirectory()) {
      chmodSync(full, 0o777);
      openUp(full);
    } else chmodSync(full, 0o666);
  }
}

/** Finds the CLI and opens the gateway (before the sandbox exists: its mounts come from here). */
export async function prepareCliRun(definition: CliAgentDefinition, config: CliAgentConfig, model: ServerClient, rolloutId: string, log?: (line: string) => void): Promise<CliRun> {
  const runner = scriptRunner();
  if (!runner) throw new GymError("E_SANDBOX", `${definition.implementation} needs gym's Bun build (the model relay inside the sandbox runs on gym's own executable)`, { hint: "run the compiled gym binary or `bun src/main.ts`" });
  const version = typeof config[definition.versionKey] === "string" && config[definition.versionKey] ? String(config[definition.versionKey]) : definition.cli.pinnedVersion;
  const cli = findCli(definition.cli, version);
  const maxTurns = typeof config.max_turns === "number" ? config.max_turns : null;
  const gateway = await openGateway({ model, rolloutId, maxTurns, log });
  const mounts = [
    { host: cli.executable, path: CLI_PATH },
    { host: runner.executable, path: RUNNER_PATH },
    { host: gateway.dir, path: GATEWAY_PATH },
  ];
  const run: CliRun["run"] = async (provider, handle, task) => {
    const timeoutS = Math.max(1, Math.min(config.timeout ?? task.agentTimeoutSec, task.agentTimeoutSec));
    const ctx: LaunchContext = { origin: `http://127.0.0.1:${RELAY_PORT}`, token: gateway.token, model: config.model || "gym-policy-model", workdir: task.workdir, home: AGENT_HOME, timeoutS, maxTurns };
    const home = mkdtempSync(join(tmpdir(), "gym-agent-home-"));
    try {
      for (const [rel, text] of Object.entries(definition.homeFiles(config, ctx))) {
        mkdirSync(dirname(join(home, rel)), { recursive: true });
        writeFileSync(join(home, rel), text);
      }
      openUp(home);
      await provider.upload(handle, home, AGENT_HOME);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
    writeLaunchFiles(gateway.dir, { argv: definition.argv(config, ctx), env: definition.env(config, ctx), runnerEnv: runner.env }, task.instruction);
    log?.(`${definition.implementation}: ${definition.cli.packageName}@${cli.version} in the ${provider.name} sandbox, ${timeoutS} s${maxTurns !== null ? `, max_turns ${maxTurns}` : ""}`);
    const exec = await provider.exec(handle, `exec /bin/bash ${GATEWAY_PATH}/launch.sh`, { timeoutS, cwd: task.workdir });
    const calls = gateway.calls();
    const usage = calls.reduce<ResponseUsage | null>((total, call) => accumulateUsage(total, call.usage), null);
    const failed = calls.find((c) => c.error);
    const end = (status: CliStatus, reason: string | null): CliEpisode => ({ status, reason, turns: calls.length, calls, usage, exec });
    if (exec.error_type === "timeout") return end("agent_timeout", `the agent timeout (${timeoutS} s) ran out: ${exec.reason}`);
    if (gateway.refusedTurns > 0) return end("max_turns", `the CLI reached max_turns (${maxTurns}) model calls`);
    if (exec.error_type) return end("cli_error", `the sandbox stopped the CLI: ${exec.reason}`);
    if (failed) return end("model_error", `model call ${calls.indexOf(failed) + 1} failed (${failed.status}): ${failed.error!.slice(0, 500)}`);
    if (exec.return_code !== 0) return end("cli_error", `${definition.cli.packageName} exited ${exec.return_code}: ${tail((exec.stderr || exec.stdout).trim(), 800)}`);
    return end("completed", null);
  };
  return { cli, gateway, mounts, run, close: () => gateway.stop() };
}

