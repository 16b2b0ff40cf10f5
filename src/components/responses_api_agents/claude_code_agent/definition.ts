/**
 * claude_code_agent: Claude Code (`claude -p --output-format stream-json`) on Anthropic Messages through the
 * gateway (ANTHROPIC_BASE_URL = the relay, ANTHROPIC_AUTH_TOKEN = the rollout's token; the CLI appends
 * /v1/messages), every model alias pinned to the configured model, a CLAUDE_CONFIG_DIR of its own with
 * telemetry and non-essential traffic off, permissions skipped (the task's sandbox is the boundary; IS_SANDBOX
 * tells the CLI so when a container runs it as root), `--max-turns` from the config as NeMo Gym passes it.
 */
import type { CliAgentConfig, CliAgentDefinition, LaunchContext } from "../_cli_agent/agent.ts";
import { PROMPT } from "../_cli_agent/launch.ts";

export const CLAUDE_CODE_VERSION = "2.1.332";

const str = (v: unknown) => (typeof v === "string" && v ? v : null);

function settings(config: CliAgentConfig): string {
  const user = config.settings && typeof config.settings === "object" ? (config.settings as Record<string, unknown>) : {};
  const env = { CLAUDE_CODE_ATTRIBUTION_HEADER: "0", CLAUDE_CODE_ENABLE_TELEMETRY: "0", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", ...((user.env as object) ?? {}) };
  return `${JSON.stringify({ ...user, env }, null, 2)}\n`;
}

export const claudeCodeAgent: CliAgentDefinition = {
  implementation: "claude_code_agent",
  cli: {
    packageName: "@anthropic-ai/claude-code",
    pinnedVersion: CLAUDE_CODE_VERSION,
    // The per-platform package's executable first: the main package's bin/ is a placeholder until its postinstall runs.
    executables: [`@anthropic-ai/claude-code-${process.platform}-${process.arch}/claude`, "@anthropic-ai/claude-code/bin/claude.exe"],
  },
  versionKey: "claude_code_version",
  api: "messages",
  homeFiles: (config) => ({ ".claude/settings.json": settings(config) }),
  argv: (config, ctx) => {
    const argv = ["-p", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions"];
    if (config.bare !== false) argv.push("--bare");
    argv.push("--model", ctx.model);
    if (str(config.system_prompt)) argv.push("--append-system-prompt", str(config.system_prompt)!);
    if (str(config.allowed_tools)) argv.push("--allowedTools", str(config.allowed_tools)!);
    if (str(config.disallowed_tools)) argv.push("--disallowedTools", str(config.disallowed_tools)!);
    if (ctx.maxTurns !== null) argv.push("--max-turns", String(ctx.maxTurns));
    return [...argv, "--", PROMPT];
  },
  env: (_config, ctx) => ({
    ANTHROPIC_BASE_URL: ctx.origin,
    ANTHROPIC_AUTH_TOKEN: ctx.token,
    ANTHROPIC_MODEL: ctx.model,
    ANTHROPIC_DEFAULT_HAIKU_MODEL: ctx.model,
    ANTHROPIC_DEFAULT_SONNET_MODEL: ctx.model,
    ANTHROPIC_DEFAULT_OPUS_MODEL: ctx.model,
    CLAUDE_CODE_SUBAGENT_MODEL: ctx.model,
    CLAUDE_CONFIG_DIR: `${ctx.home}/.claude`,
    CLAUDE_CODE_ENABLE_TELEMETRY: "0",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    IS_SANDBOX: "1",
    NO_COLOR: "1",
  }),
};
