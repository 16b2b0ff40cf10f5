/** Built-in agents: implementation name → lazy module whose default export builds the Hono app. */
import type { ServerCatalog } from "../../servers/registry.ts";

export const catalog: ServerCatalog = {
  simple_agent: () => import("./simple_agent/index.ts"),
  gymnasium_agent: () => import("./gymnasium_agent/index.ts"),
  non_executing_simple_agent: () => import("./non_executing_simple_agent/index.ts"),
  codex_agent: () => import("./codex_agent/index.ts"),
  opencode_agent: () => import("./opencode_agent/index.ts"),
  claude_code_agent: () => import("./claude_code_agent/index.ts"),
  tool_simulation_agent: () => import("./tool_simulation_agent/index.ts"),
  scicode_agent: () => import("./scicode_agent/index.ts"),
};
