/**
 * proof_genselect: pairwise proof selection. The assistant's `output_text` after its last `</think>` must end in
 * `<best_solution>1|2</best_solution>` naming the row's `correct_index` (reward 1.0). With PROOF_GENSELECT_LOG_JSONL_PATH
 * set, every verdict is also appended there (timestamp, problem, reply, reward, selected and correct index, reason).
 */
import { appendFileSync } from "node:fs";
import { pyFloat, stringifyPython } from "../../../metrics/pyjson.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { PyException } from "../_python/errors.ts";
import { pyInt } from "../_python/number.ts";
import { pyStrip } from "../_python/text.ts";

interface GenSelectConfig extends JsonObject {
  assert_think_end: boolean;
}

/** The chosen proof (1 or 2), or null with the reason NeMo Gym gives. */
export function extractBestSolution(response: string, assertThinkEnd = false): [number | null, string | null] {
  if (assertThinkEnd && !response.includes("</think>")) return [null, "missing_think_end"];
  const tail = pyStrip(response.split("</think>").at(-1)!);
  if (!tail.includes("<best_solution>") || !tail.includes("</best_solution>")) return [null, "missing_best_solution_tag"];
  const inner = pyStrip(tail.slice(tail.indexOf("<best_solution>") + "<best_solution>".length).split("</best_solution>")[0]!);
  let best: number;
  try {
    best = pyInt(inner);
  } catch (error) {
    if (error instanceof PyException && error.pyType === "ValueError") return [null, "invalid_best_solution_value"];
    throw error;
  }
  return best === 1 || best === 2 ? [best, null] : [null, "best_solution_out_of_range"];
}

/** The `output_text` parts of the assistant messages, joined with nothing. */
function assistantOutputText(response: JsonObject): string {
  let text = "";
  for (const item of (response.output as JsonObject[] | undefined) ?? []) {
    if (item?.type !== "message" || item.role !== "assistant" || !Array.isArray(item.content)) continue;
    for (const part of item.content as JsonObject[]) if (part?.type === "output_text") text += (part.text as string) || "";
  }
  return text;
}

/** `datetime.now(timezone.utc).isoformat()`: microseconds and `+00:00`. */
const isoNow = () => new Date().toISOString().replace("Z", "000+00:00");

export default defineResourcesServer<GenSelectConfig>({
  name: "proof_genselect",
  className: "ProofGenSelectResourcesServer",
  config: { fields: { assert_think_end: py.withDefault(py.bool(), () => false) } },
  verify: {
    request: { fields: { problem: py.str(), proof_1: py.str(), proof_2: py.str(), correct_index: py.int(), score_1: py.optional(py.float()), score_2: py.optional(py.float()) } },
    handler(body, { config }) {
      const text = assistantOutputText(body.response as JsonObject);
      if (!text) return { reward: 0 };
      const [selected, reason] = extractBestSolution(text, config.assert_think_end);
      const reward = selected === body.correct_index ? 1 : 0;
      const logPath = process.env.PROOF_GENSELECT_LOG_JSONL_PATH;
      if (logPath) {
        const record: JsonObject = { ts: isoNow(), problem: body.problem, generated_sequence: text, reward: pyFloat(reward), selected_index: selected, correct_index: body.correct_index };
        if (reason !== null) record.reason = reason;
        try {
          appendFileSync(logPath, `${stringifyPython(record, { spaced: true, ensureAscii: false })}\n`);
        } catch (error) {
          console.warn(`[proof_genselect] Failed to append log_jsonl ${logPath}: ${(error as Error).message}`);
        }
      }
      return { reward };
    },
  },
});
