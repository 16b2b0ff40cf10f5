/** The coding-agent CLIs gym runs in a task's sandbox: implementation name → its definition (loaded on use). */
import type { CliAgentDefinition } from "./_cli_agent/agent.ts";

export const CLI_AGENTS: Record<string, () => Promise<CliAgentDefinition>> = {
  codex_agent: async () => (await import("./codex_agent/definition.ts")).codexAgent,
  opencode_agent: async () => (await import("./opencode_agent/definition.ts")).opencodeAgent,
  claude_code_agent: async () => (await import("./claude_code_agent/definition.ts")).claudeCodeAgent,
};

export const isCliAgent = (implementation: string) => Object.hasOwn(CLI_AGENTS, implementation);
