/**
 * imo_gradingbench: the policy grades a proof; the last word of its reply (markdown and punctuation stripped, lower
 * case) must be the gold grade among correct (7) / almost (6) / partial (1) / incorrect (0). Adds `binary_match`
 * (high: correct/almost, low: partial/incorrect) and `score_diff`; metrics add the MAE of the grade scores.
 */
import { computePassMajorityMetrics, highestKMetrics } from "../../../metrics/pass-k.ts";
import { pyFloat } from "../../../metrics/pyjson.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { assistantTexts } from "../_common/output.ts";
import { pySplit, pyStrip } from "../_python/text.ts";

export const GRADE_TO_SCORE: Record<string, number> = { correct: 7, almost: 6, partial: 1, incorrect: 0 };
const GRADE_TO_BINARY: Record<string, string> = { correct: "high", almost: "high", partial: "low", incorrect: "low" };
const PUNCT = /[*_`.,;:!?()[\]{}]+/g;

/** The last whitespace-separated word, punctuation stripped and lower-cased, when it is one of the four grades. */
export function extractGrade(text: string | null): string | null {
  if (!text) return null;
  const words = pySplit(pyStrip(text));
  if (words.length === 0) return null;
  const last = words.at(-1)!.replace(PUNCT, "").toLowerCase();
  return Object.hasOwn(GRADE_TO_SCORE, last) ? last : null;
}

const normalizeExpected = (text: unknown): string | null => {
  if (!text || typeof text !== "string") return null;
  const grade = pyStrip(text).toLowerCase();
  return Object.hasOwn(GRADE_TO_SCORE, grade) ? grade : null;
};

const scoreFn = (r: JsonObject) => ({ exact_accuracy: pyFloat(Number(r.reward ?? 0)), binarized_accuracy: pyFloat(r.binary_match ? 1 : 0) });

/** `_compute_mae`: per k, the pooled MAE of the first k rollouts' valid pairs and the mean of each task's best. */
export function maeMetrics(tasks: JsonObject[][], maxK: number): JsonObject {
  if (maxK === 0 || tasks.length === 0) return {};
  const out: JsonObject = {};
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  for (let k = 1; k <= maxK; k++) {
    const pooled: number[] = [];
    const best: number[] = [];
    for (const rollouts of tasks) {
      const errors = rollouts.slice(0, k).filter((r) => r.score_diff !== null && r.score_diff !== undefined).map((r) => Number(r.score_diff));
      pooled.push(...errors);
      if (errors.length) best.push(Math.min(...errors));
    }
    if (pooled.length) {
      out[`pass@1[avg-of-${k}]/mae`] = pyFloat(mean(pooled));
      out[`pass@1[avg-of-${k}]/mae_count`] = pyFloat(pooled.length);
    }
    if (best.length) {
      out[`pass@${k}/mae`] = pyFloat(mean(best));
      out[`pass@${k}/mae_count`] = pyFloat(best.length);
    }
  }
  if (`pass@1[avg-of-${maxK}]/mae` in out) {
    out.mae = out[`pass@1[avg-of-${maxK}]/mae`]!;
    out.mae_count = out[`pass@1[avg-of-${maxK}]/mae_count`]!;
  }
  return out;
}

export default defineResourcesServer({
  name: "imo_gradingbench",
  className: "ImoGradingBenchResourcesServer",
  verify: {
    request: { fields: { expected_answer: py.optional(py.str()), grading_id: py.optional(py.str()), problem_id: py.optional(py.str()) }, extra: "allow" },
    response: ["expected_answer", "extracted_grade", "binary_match", "score_diff"],
    echoExtra: true,
    handler(body) {
      const pred = extractGrade(pyStrip(assistantTexts(body.response as JsonObject).join("\n")));
      const gold = normalizeExpected(body.expected_answer);
      const predBinary = pred === null ? undefined : GRADE_TO_BINARY[pred];
      const goldBinary = gold === null ? undefined : GRADE_TO_BINARY[gold];
      return {
        reward: pred !== null && pred === gold ? 1 : 0,
        extracted_grade: pred,
        binary_match: predBinary !== undefined && predBinary === goldBinary,
        score_diff: pred !== null && gold !== null ? pyFloat(Math.abs(GRADE_TO_SCORE[pred]! - GRADE_TO_SCORE[gold]!)) : null,
      };
    },
  },
  computeMetrics(tasks) {
    const result = computePassMajorityMetrics(tasks, { scoreFn, answerKey: "extracted_grade" });
    return { ...(result.metrics as JsonObject), ...maeMetrics(tasks, result.maxK) };
  },
  keyMetrics(agentMetrics) {
    const key: JsonObject = {};
    if ("mean/reward" in agentMetrics) key["mean/reward"] = agentMetrics["mean/reward"] as never;
    Object.assign(key, highestKMetrics(agentMetrics, "pass@1[avg-of-{k}]", ["exact_accuracy", "binarized_accuracy", "mae", "no_answer"]));
    Object.assign(key, highestKMetrics(agentMetrics, "pass@{k}", ["exact_accuracy", "binarized_accuracy", "mae"]));
    Object.assign(key, highestKMetrics(agentMetrics, "majority@{k}", ["exact_accuracy", "binarized_accuracy"]));
    if ("mae" in agentMetrics) {
      key.mae = agentMetrics.mae as never;
      key.mae_count = (agentMetrics.mae_count ?? pyFloat(0)) as never;
    }
    return key;
  },
});
