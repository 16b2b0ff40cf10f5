/**
 * codex_agent: the OpenAI Codex CLI (`codex exec --json`) on the Responses API (streamed). Its CODEX_HOME holds a
 * config.toml that pins a gym-owned provider at the gateway (the key read from OPENAI_API_KEY: the rollout's
 * token), approvals off, Codex's own sandbox off (the task's sandbox is the boundary, NeMo Gym's default
 * `sandbox_mode: danger-full-access`), no update checks, analytics, history, web search or multi-agent tools.
 */
import type { CliAgentConfig, CliAgentDefinition, LaunchContext } from "../_cli_agent/agent.ts";
import { PROMPT } from "../_cli_agent/launch.ts";
import { tomlDocument, deepMerge, type TomlTable } from "./toml.ts";

export const CODEX_VERSION = "0.171.0";

function configToml(config: CliAgentConfig, ctx: LaunchContext): string {
  const base: TomlTable = {
    model: ctx.model,
    model_provider: "gym",
    approval_policy: "never",
    sandbox_mode: typeof config.sandbox_mode === "string" ? config.sandbox_mode : "danger-full-access",
    web_search: "disabled",
    check_for_update_on_startup: false,
    analytics: { enabled: false },
    history: { persistence: "none" },
    features: { multi_agent: false, code_mode: false },
    model_providers: {
      gym: {
        name: "gym",
        base_url: `${ctx.origin}/v1`,
        env_key: "OPENAI_API_KEY",
        wire_api: "responses",
        stream_idle_timeout_ms: typeof config.stream_idle_timeout_ms === "number" ? config.stream_idle_timeout_ms : ctx.timeoutS * 1000,
        request_max_retries: 0,
        stream_max_retries: 0,
      },
    },
  };
  if (typeof config.reasoning_effort === "string") base.model_reasoning_effort = config.reasoning_effort;
  if (config.system_prompt) base.developer_instructions = config.system_prompt;
  const extra = config.extra_config && typeof config.extra_config === "object" ? (config.extra_config as TomlTable) : {};
  return tomlDocument(deepMerge(base, extra));
}

export const codexAgent: CliAgentDefinition = {
  implementation: "codex_agent",
  cli: {
    packageName: "@openai/codex",
    pinnedVersion: CODEX_VERSION,
    executables: [`@openai/codex-${process.platform}-${process.arch}/vendor/${process.arch === "arm64" ? "aarch64" : "x86_64"}-unknown-${process.platform}-musl/bin/codex`],
  },
  versionKey: "codex_version",
  api: "responses",
  homeFiles: (config, ctx) => ({ ".codex/config.toml": configToml(config, ctx) }),
  argv: (_config, ctx) => ["exec", "--json", "--ephemeral", "--skip-git-repo-check", "--cd", ctx.workdir, "--", PROMPT],
  env: (_config, ctx) => ({ CODEX_HOME: `${ctx.home}/.codex`, OPENAI_API_KEY: ctx.token, NO_COLOR: "1" }),
};
