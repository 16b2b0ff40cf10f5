/**
 * iheval: the IHEval instruction-hierarchy benchmark (NeMo Gym's `iheval`). The row's `task` picks a rule-based scorer
 * (score.ts); reference rows also carry their prediction and gold for the cross-row averages of compute_metrics
 * (metrics.ts), whose task-macro `result_score` follows the config's `accuracy_mode`. Reverify mode unknown, as NeMo Gym's.
 */
import type { JsonObject } from "../../../protocol/responses.ts";
import { HttpFailure } from "../../../servers/gym-app.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { outputText } from "../_common/output.ts";
import { RowError } from "../_instructions/score.ts";
import { pyJsonLoads } from "../_python/values.ts";
import { pyCompile } from "../_python/re.ts";
import { pyPrefix, pyStrip } from "../_python/text.ts";
import { ihevalKeyMetrics, ihevalMetrics } from "./metrics.ts";
import { pyStr, referenceStash, scoreTask } from "./score.ts";

const THINK = () => pyCompile(String.raw`<think>.*?</think>`, { dotAll: true });

/** `<think>…</think>` blocks removed (else everything up to the first `</think>`), then stripped; untouched without one. */
export function stripThink(text: string): string {
  if (!text.includes("</think>")) return text;
  let cleaned = text.replace(new RegExp(THINK().global.source, THINK().global.flags), "");
  if (cleaned === text) cleaned = text.slice(text.indexOf("</think>") + "</think>".length);
  return pyStrip(cleaned);
}

/** NeMo Gym's `_response_text`: `output_text`, else every message's text parts joined. */
function responseText(response: JsonObject): string {
  const text = outputText(response);
  if (text) return text;
  const parts: string[] = [];
  for (const item of (Array.isArray(response.output) ? response.output : []) as JsonObject[]) {
    if (item?.type !== "message") continue;
    const content = item.content;
    if (typeof content === "string") parts.push(content);
    else if (Array.isArray(content)) {
      for (const c of content as unknown[]) {
        if (typeof c === "string") parts.push(c);
        else if (typeof (c as JsonObject | null)?.text === "string") parts.push((c as JsonObject).text as string);
      }
    }
  }
  return parts.join("");
}

function decodeAnswer(answer: unknown): unknown {
  if (typeof answer !== "string") return answer;
  try {
    return pyJsonLoads(answer);
  } catch {
    return answer;
  }
}

export default defineResourcesServer<{ accuracy_mode: string }>({
  name: "iheval",
  className: "IHEvalResourcesServer",
  config: { fields: { accuracy_mode: py.withDefault(py.literal(["hierarchy", "hierarchy_sysprompt"]), () => "hierarchy") } },
  verify: {
    request: {
      fields: {
        id: py.withDefault(py.any(), () => null),
        task: py.withDefault(py.str(), () => ""),
        domain: py.withDefault(py.str(), () => ""),
        setting: py.withDefault(py.str(), () => ""),
        instruction: py.withDefault(py.str(), () => ""),
        answer: py.withDefault(py.any(), () => null),
        verifier_metadata: py.optional(py.dict()),
      },
      extra: "allow",
    },
    response: ["task", "setting", "domain", "row_id", "generation"],
    echoExtra: true,
    handler(body) {
      const meta = (body.verifier_metadata ?? {}) as JsonObject;
      const pick = (key: string) => (body[key] as string) || pyStr(meta[key] ?? "");
      const [task, setting, domain, instruction] = [pick("task"), pick("setting"), pick("domain"), pick("instruction")];
      const answer = decodeAnswer(body.answer !== null ? body.answer : (meta.answer ?? null));
      const isRef = setting.startsWith("reference");
      const response = stripThink(responseText(body.response as JsonObject));
      let result;
      try {
        result = scoreTask(task, response, answer, instruction, isRef);
      } catch (error) {
        if (error instanceof RowError) throw new HttpFailure(422, [{ type: "value_error", loc: ["body", ...error.loc], msg: `Value error, ${error.message}`, input: error.input as never }]);
        throw error;
      }
      if (isRef) Object.assign(result, referenceStash(task, answer, response));
      const { reward, ...rest } = result;
      const rowId = body.id !== null ? body.id : (meta.id ?? "");
      return { reward: Number(reward), task, setting, domain, row_id: pyStr(rowId), generation: pyPrefix(response, 500), ...rest };
    },
  },
  computeMetrics: (tasks, config) => ihevalMetrics(tasks, config.accuracy_mode) as never,
  keyMetrics: (agent) => ihevalKeyMetrics(agent) as never,
});
