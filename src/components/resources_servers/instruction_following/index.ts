/**
 * instruction_following: IFEval's checkers plus open-instruct's training constraints (NeMo Gym's server over
 * verifiable-instructions), binary or fraction grading, with IFEval's loose scores beside the strict ones.
 */
import type { JsonObject } from "../../../protocol/responses.ts";
import { HttpFailure } from "../../../servers/gym-app.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { IFEVAL } from "../_instructions/ifeval.ts";
import { IFTRAIN } from "../_instructions/iftrain.ts";
import { instructionFollowingKeyMetrics, instructionFollowingMetrics } from "../_instructions/metrics.ts";
import { lastOutputText } from "../_instructions/response-text.ts";
import { gradeReward, RowError, scoreInstructions } from "../_instructions/score.ts";
import type { Registry } from "../_instructions/types.ts";

/** Every instruction id `instruction_following` knows (54: IFEval's 25 and the training constraints). */
export const INSTRUCTION_FOLLOWING_REGISTRY: Registry = { ...IFEVAL, ...IFTRAIN };

const LEGACY_FIELDS = ["instruction_id_list", "prompt", "kwargs", "grading_mode"] as const;
const REQUIRED = ["instruction_id_list", "prompt", "kwargs"] as const;

/** The row's verifier_metadata, with legacy top-level fields copied in where absent (NeMo Gym's migration). */
export function verifierMetadata(body: JsonObject): JsonObject {
  const given = body.verifier_metadata;
  const metadata: JsonObject = given !== null && typeof given === "object" && !Array.isArray(given) ? { ...(given as JsonObject) } : {};
  for (const field of LEGACY_FIELDS) if (!Object.hasOwn(metadata, field) && Object.hasOwn(body, field)) metadata[field] = body[field]!;
  return metadata;
}

function unprocessable(loc: (string | number)[], msg: string, input: unknown): HttpFailure {
  return new HttpFailure(422, [{ type: "value_error", loc: ["body", ...loc], msg: `Value error, ${msg}`, input }]);
}

export default defineResourcesServer({
  name: "instruction_following",
  className: "InstructionFollowingResourcesServer",
  reverifyMode: "stateless",
  verify: {
    request: { fields: { id: py.int(), verifier_metadata: py.withDefault(py.dict(), () => ({})) }, extra: "allow" },
    response: [
      "follow_all_instructions",
      "follow_instruction_list",
      "verifier_metadata",
      "reward_loose",
      "follow_all_instructions_loose",
      "follow_instruction_list_loose",
    ],
    handler(body) {
      const metadata = verifierMetadata(body);
      const missing = REQUIRED.filter((f) => !Object.hasOwn(metadata, f));
      if (missing.length > 0) {
        throw new HttpFailure(
          422,
          missing.map((f) => ({
            type: "value_error",
            loc: ["body", "verifier_metadata", f],
            msg: `Value error, verifier_metadata is missing required fields: [${missing.map((m) => `'${m}'`).join(", ")}]`,
            input: body.verifier_metadata ?? null,
          })),
        );
      }
      const mode = metadata.grading_mode ?? "binary";
      if (mode !== "binary" && mode !== "fraction") throw unprocessable(["verifier_metadata", "grading_mode"], "grading_mode should be 'binary' or 'fraction'", mode);
      if (typeof metadata.prompt !== "string") throw unprocessable(["verifier_metadata", "prompt"], "prompt should be a string", metadata.prompt);
      let scored;
      try {
        scored = scoreInstructions(INSTRUCTION_FOLLOWING_REGISTRY, metadata.instruction_id_list, metadata.kwargs, metadata.prompt, lastOutputText(body.response as JsonObject), {
          base: ["verifier_metadata"],
        });
      } catch (error) {
        if (error instanceof RowError) throw unprocessable(error.loc, error.message, error.input);
        throw error;
      }
      return {
        reward: gradeReward(scored.strict, mode),
        follow_all_instructions: scored.strict.every(Boolean),
        follow_instruction_list: scored.strict,
        verifier_metadata: metadata,
        reward_loose: gradeReward(scored.loose, mode),
        follow_all_instructions_loose: scored.loose.every(Boolean),
        follow_instruction_list_loose: scored.loose,
      };
    },
  },
  computeMetrics: (tasks) => instructionFollowingMetrics(tasks),
  keyMetrics: instructionFollowingKeyMetrics,
});
