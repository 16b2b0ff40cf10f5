/** The coding-agent CLIs gym runs in a task's sandbox: implementation name → its definition (loaded on use). */
import type { CliAgentDefinition } from "./_cli_agent/agent.ts";

export const CLI_AGENTS: Record<string, () => Promise<CliAgentDefinition>> = {
  codex_agent: async () => (await import("./codex_agent/definition.ts")).codexAgent,
};

export const isCliAgent = (implementation: string) => Object.hasOwn(CLI_AGENTS, implementation);
