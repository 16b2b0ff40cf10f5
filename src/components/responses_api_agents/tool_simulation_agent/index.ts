/**
 * tool_simulation_agent: one model call per rollout, then verify — for tasks whose tool results are simulated in the
 * prompt (NeMo Gym's `tool_simulation_agent`, e.g. swe_pivot). Unlike non_executing_simple_agent it does not seed a
 * session and sends the create params to the model as given.
 */
import { oneCallAgent } from "../_one_call/agent.ts";

export default oneCallAgent({ className: "ToolSimulationAgent", seedSession: false, promptAsMessages: false, invalidReply: "Received an invalid response from the model server" });
