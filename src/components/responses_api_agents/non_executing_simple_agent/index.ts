/** non_executing_simple_agent: seed → one model call (tool calls are returned, never run) → verify; a second composable harness. */
import { oneCallAgent } from "../_one_call/agent.ts";

// The prompt goes as a message list, as simple_agent sends it, so both harnesses ask the model the same thing.
export default oneCallAgent({ className: "NonExecutingSimpleAgent", seedSession: true, promptAsMessages: true, invalidReply: "Received an invalid response from model server" });
