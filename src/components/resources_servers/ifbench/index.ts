/** ifbench: AllenAI IFBench's 57 instruction checkers (at NeMo Gym's pinned commit), strict and loose, fraction or binary grading. */
import type { JsonObject } from "../../../protocol/responses.ts";
import { HttpFailure } from "../../../servers/gym-app.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { IFBENCH_FORMAT } from "../_instructions/ifbench-format.ts";
import { IFBENCH_TEXT } from "../_instructions/ifbench-text.ts";
import { instructionFollowingKeyMetrics, instructionFollowingMetrics } from "../_instructions/metrics.ts";
import { lastOutputText } from "../_instructions/response-text.ts";
import { gradeReward, RowError, scoreInstructions } from "../_instructions/score.ts";
import type { Registry } from "../_instructions/types.ts";

/** IFBench's instruction ids (57). */
export const IFBENCH_REGISTRY: Registry = { ...IFBENCH_TEXT, ...IFBENCH_FORMAT };

export default defineResourcesServer({
  name: "ifbench",
  className: "IFBenchResourcesServer",
  reverifyMode: "stateless",
  config: { fields: { num_processes: py.withDefault(py.int(), () => 32) } },
  verify: {
    request: {
      fields: {
        id: py.int(),
        instruction_id_list: py.list(py.str()),
        prompt: py.str(),
        kwargs: py.list(py.any()),
        grading_mode: py.withDefault(py.literal(["binary", "fraction"]), () => "fraction"),
      },
    },
    response: [
      "follow_all_instructions",
      "follow_instruction_list",
      "follow_all_instructions_loose",
      "follow_instruction_list_loose",
      "reward_loose",
      "kwargs",
      "instruction_id_list",
      "prompt",
      "grading_mode",
    ],
    handler(body) {
      let scored;
      try {
        scored = scoreInstructions(IFBENCH_REGISTRY, body.instruction_id_list, body.kwargs, body.prompt as string, lastOutputText(body.response as JsonObject), {
          base: [],
          blankFailsAll: true,
        });
      } catch (error) {
        if (error instanceof RowError) throw new HttpFailure(422, [{ type: "value_error", loc: ["body", ...error.loc], msg: `Value error, ${error.message}`, input: error.input }]);
        throw error;
      }
      const mode = body.grading_mode as string;
      return {
        reward: gradeReward(scored.strict, mode),
        follow_all_instructions: scored.strict.every(Boolean),
        follow_instruction_list: scored.strict,
        follow_all_instructions_loose: scored.loose.every(Boolean),
        follow_instruction_list_loose: scored.loose,
        reward_loose: gradeReward(scored.loose, mode),
      };
    },
  },
  computeMetrics: (tasks) => instructionFollowingMetrics(tasks),
  keyMetrics: instructionFollowingKeyMetrics,
});
