/** The contract each CLI agent (codex_agent, opencode_agent, claude_code_agent) fills: its package, API and how it is started. */
import type { CliPackage } from "./cli.ts";
import type { ModelApi } from "./capture.ts";

/** The config keys every CLI agent shares (NeMo Gym's names), plus the agent's own. */
export interface CliAgentConfig {
  name: string;
  model_server?: { type: string; name: string };
  /** The model id the CLI is told (the gym model server answers with its own). */
  model?: string | null;
  /** Wall seconds for the CLI; the task's [agent] timeout_sec caps it. */
  timeout?: number;
  /** Model calls allowed per rollout (refused past it). */
  max_turns?: number | null;
  system_prompt?: string | null;
  [key: string]: unknown;
}

export interface LaunchContext {
  /** The base URL of the gateway as the CLI inside the sandbox reaches it, without a path (`http://127.0.0.1:PORT`). */
  origin: string;
  token: string;
  model: string;
  workdir: string;
  home: string;
  timeoutS: number;
  maxTurns: number | null;
}

export interface CliAgentDefinition {
  /** The implementation name (`codex_agent`). */
  implementation: string;
  cli: CliPackage;
  /** The config key that pins the CLI's version (`codex_version`). */
  versionKey: string;
  api: ModelApi;
  /** Files under the CLI's HOME (relative path → text). */
  homeFiles(config: CliAgentConfig, ctx: LaunchContext): Record<string, string>;
  /** The CLI's arguments; PROMPT (from ./launch.ts) stands for the instruction. */
  argv(config: CliAgentConfig, ctx: LaunchContext): string[];
  /** The CLI's environment (the token goes here, never a real key). */
  env(config: CliAgentConfig, ctx: LaunchContext): Record<string, string>;
}
