/**
 * longmemeval: LongMemEval long-term-memory QA scored by an LLM judge with the upstream per-question-type rubrics
 * (the abstention rubric for `_abs` rows); 1 when the judge's reply contains "yes". Judge failures, unknown question
 * types, empty answers and bad metadata are classified in the row (`judge_error`), as NeMo Gym's app.py does, and
 * its metrics exclude the judge failures and unknown types from `accuracy`.
 */
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { pyFloat as pyFloatOf } from "../../../metrics/pyjson.ts";
import { outputText } from "../_common/output.ts";
import { pyStrip } from "../_python/text.ts";
import { Judge, judgeConfigFields, JudgeError, readPromptFile, type JudgeConfig } from "../_judge/index.ts";

export interface LongMemEvalConfig extends JudgeConfig {
  judge_max_retries: number;
  judge_retry_base_delay: number;
}

/** Rubric file (prompts/<name>.txt) per question type. */
const RUBRIC_BY_TYPE: Record<string, string> = {
  "single-session-user": "contain",
  "single-session-assistant": "contain",
  "multi-session": "contain",
  "temporal-reasoning": "temporal",
  "knowledge-update": "knowledge_update",
  "single-session-preference": "preference",
};

const COUNTERS: Record<string, string> = {
  judge_call_failed: "n_judge_call_failed",
  empty_judge_output: "n_empty_judge_output",
  unknown_question_type: "n_unknown_question_type",
  bad_metadata: "n_bad_metadata",
};
const EXCLUDED = new Set(["judge_call_failed", "unknown_question_type"]);

/** Reasoning blocks dropped, a truncated (unclosed) `<think>` included. */
export function stripThink(text: string): string {
  if (!text) return "";
  if (text.includes("<think>") && !text.includes("</think>")) return pyStrip(text.split("<think>")[0]!);
  if (!text.includes("</think>")) return text;
  let cleaned = text.replace(/<think>[\s\S]*?<\/think>/g, "");
  if (cleaned === text) cleaned = text.slice(text.indexOf("</think>") + "</think>".length);
  return pyStrip(cleaned);
}

/** `_response_text`: `output_text`, else every message's content flattened. */
function responseText(response: JsonObject): string {
  const text = outputText(response);
  if (text) return text;
  let out = "";
  for (const item of (Array.isArray(response?.output) ? response.output : []) as JsonObject[]) {
    if (item.type !== "message") continue;
    const content = item.content;
    if (typeof content === "string") out += content;
    else if (Array.isArray(content)) for (const c of content as unknown[]) out += typeof c === "string" ? c : typeof (c as JsonObject)?.text === "string" ? (c as JsonObject).text : "";
  }
  return out;
}

const asStr = (meta: JsonObject, key: string) => {
  const v = meta[key];
  return v === undefined || v === null || v === "" || v === false || v === 0 ? "" : typeof v === "string" ? v : String(v);
};

export function isBadMetadata(meta: unknown): boolean {
  if (meta === null || typeof meta !== "object" || Array.isArray(meta) || Object.keys(meta).length === 0) return true;
  return !asStr(meta as JsonObject, "question_type") || !asStr(meta as JsonObject, "question");
}

/** Python's `"…{}…{}…{}".format(a, b, c)` for the rubrics (three positional fields, no other braces). */
function fillRubric(template: string, values: string[]): string {
  const parts = template.split("{}");
  return parts.map((p, i) => (i < values.length ? p + values[i] : p)).join("");
}

interface State {
  judge: Judge;
  rubrics: Map<string, Promise<string>>;
}

const rubric = (state: State, name: string) => {
  let text = state.rubrics.get(name);
  if (!text) state.rubrics.set(name, (text = readPromptFile(`prompts/${name}.txt`, "longmemeval", "rubric")));
  return text;
};

const isReward = (v: unknown) => typeof v === "number" || (v !== null && typeof v === "object" && "value" in (v as object));

export default defineResourcesServer<LongMemEvalConfig, State>({
  name: "longmemeval",
  className: "LongMemEvalResourcesServer",
  config: {
    fields: {
      ...judgeConfigFields({ maxConcurrency: 32 }),
      judge_max_retries: py.withDefault(py.int(), () => 5),
      judge_retry_base_delay: py.withDefault(py.float(), () => 1.0),
    },
  },
  createState: (config, { servers }) => ({ judge: new Judge(config, servers), rubrics: new Map() }),
  verify: {
    request: { fields: { verifier_metadata: py.optional(py.dict()) }, extra: "allow" },
    response: ["question_id", "question_type", "abstention", "judge_label", "judge_raw", "judge_error", "judge_error_detail", "empty_response", "generation"],
    echoExtra: true,
    async handler(body, { state }) {
      const raw = body.verifier_metadata;
      const meta = (raw && typeof raw === "object" && !Array.isArray(raw) ? raw : {}) as JsonObject;
      const questionId = asStr(meta, "question_id");
      const questionType = asStr(meta, "question_type");
      const abstention = Boolean(meta.abstention) || questionId.includes("_abs");
      const response = pyStrip(stripThink(responseText(body.response as JsonObject)));
      const empty = !response;
      let judgeRaw = "";
      let judgeError: string | null = null;
      let detail = "";
      let label = false;
      const rubricName = abstention ? "abstention" : RUBRIC_BY_TYPE[questionType];
      if (isBadMetadata(raw)) judgeError = "bad_metadata";
      else if (rubricName === undefined) judgeError = "unknown_question_type";
      else if (!empty) {
        const prompt = fillRubric(await rubric(state, rubricName), [asStr(meta, "question"), asStr(meta, "answer"), response]);
        try {
          const exchange = await state.judge.send({ ...structuredClone(state.judge.config.judge_responses_create_params), input: [{ role: "user", content: prompt }] });
          judgeRaw = pyStrip(stripThink(responseText(exchange.response)));
          if (!judgeRaw) judgeError = "empty_judge_output";
          else label = judgeRaw.toLowerCase().includes("yes");
        } catch (error) {
          // app.py keeps a failed judge call in the row (excluded from its metrics), not in the failures sidecar.
          if (!(error instanceof JudgeError)) throw error;
          judgeError = "judge_call_failed";
          detail = error.message;
        }
      }
      return {
        reward: label ? 1.0 : 0.0,
        question_id: questionId,
        question_type: questionType,
        abstention,
        judge_label: label,
        judge_raw: judgeRaw,
        judge_error: judgeError,
        judge_error_detail: detail,
        empty_response: empty,
        generation: [...response].slice(0, 500).join(""),
      };
    },
  },
  computeMetrics(tasks) {
    const rows = tasks.flat();
    const metrics: JsonObject = {};
    const rewarded = rows.filter((r) => isReward(r.reward) && typeof r.reward !== "boolean");
    if (rewarded.length === 0) return metrics;
    for (const counter of Object.values(COUNTERS)) metrics[counter] = 0;
    let other = 0;
    for (const r of rewarded) {
      if (!r.judge_error) continue;
      const counter = COUNTERS[String(r.judge_error)];
      if (counter === undefined) other++;
      else metrics[counter] = (metrics[counter] as number) + 1;
    }
    metrics.n_judge_errors_other = other;
    const scored = rewarded.filter((r) => !EXCLUDED.has(r.judge_error as string));
    const mean = (rs: JsonObject[]) => rs.reduce((s, r) => s + Number(r.reward), 0) / rs.length;
    metrics.n_excluded = rewarded.length - scored.length;
    metrics.n_empty_response = scored.filter((r) => r.empty_response).length;
    metrics.accuracy_strict = pyFloatOf(mean(rewarded));
    if (scored.length === 0) return metrics;
    metrics.accuracy = pyFloatOf(mean(scored));
    metrics.count = scored.length;
    const buckets = new Map<string, JsonObject[]>();
    for (const r of scored) {
      const key = String(r.question_type || "unknown");
      buckets.set(key, [...(buckets.get(key) ?? []), r]);
    }
    for (const key of [...buckets.keys()].sort()) {
      metrics[`question_type/${key}/accuracy`] = pyFloatOf(mean(buckets.get(key)!));
      metrics[`question_type/${key}/count`] = buckets.get(key)!.length;
    }
    const abstain = scored.filter((r) => r.abstention);
    if (abstain.length) {
      metrics["abstention/accuracy"] = pyFloatOf(mean(abstain));
      metrics["abstention/count"] = abstain.length;
    }
    return metrics;
  },
  keyMetrics: (m) => Object.fromEntries(["accuracy", "abstention/accuracy", "n_excluded"].filter((k) => k in m).map((k) => [k, m[k]])),
});

