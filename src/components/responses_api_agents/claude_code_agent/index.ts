/** claude_code_agent as an agent server for dataset rows (/v1/responses, /run); Harbor tasks use definition.ts through gym eval run TARGET. */
import { cliAgentFactory } from "../_cli_agent/app.ts";
import { claudeCodeAgent } from "./definition.ts";

export default cliAgentFactory(claudeCodeAgent);
