/**
 * hotpotqa_qa: short-answer QA scored without a judge. The answer is read from the reply's last JSON `{"answer": …}`;
 * it gets SQuAD exact match and F1 and the alternative-aware substring matches; the reward is the strict match.
 * Metrics: pass@k / majority@k over the four scores, and the same over the tasks whose ground truth is reliable
 * (`filtered_…`).
 */
import { pyFloat } from "../../../metrics/pyjson.ts";
import { computePassMajorityMetrics, highestKMetrics, type ScoreFn } from "../../../metrics/pass-k.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { outputText } from "../_common/output.ts";
import { answerExactMatch, answerF1, gtAlternatives, isCorrect, isCorrectStrict, parseGeneration, shouldRemove } from "./scoring.ts";
import { meanTokenMetrics } from "../_common/key-metrics.ts";

interface HotpotConfig extends JsonObject {
  report_filtered_metrics: boolean;
}

const SCORES = ["answer_em", "answer_f1", "is_correct", "is_correct_strict"];
const scoreFn: ScoreFn = (r) => Object.fromEntries(SCORES.filter((k) => Object.hasOwn(r, k)).map((k) => [k, Number(r[k])]));
const passMajority = (tasks: JsonObject[][]) => computePassMajorityMetrics(tasks, { scoreFn, answerKey: "extracted_answer" }).metrics as JsonObject;

export default defineResourcesServer<HotpotConfig>({
  name: "hotpotqa_qa",
  className: "HotpotQAQAResourcesServer",
  config: { fields: { report_filtered_metrics: py.withDefault(py.bool(), () => true) } },
  verify: {
    request: { fields: { expected_answer: py.str() }, extra: "allow" },
    response: ["expected_answer", "extracted_answer", "answer_em", "answer_f1", "is_correct", "is_correct_strict", "gt_should_remove", "gt_remove_reason"],
    echoExtra: true,
    handler(body) {
      const pred = parseGeneration(outputText(body.response as JsonObject));
      const gold = body.expected_answer as string;
      const alternatives = gtAlternatives(gold);
      const strict = isCorrectStrict(alternatives, pred) ? 1 : 0;
      const [remove, reason] = shouldRemove(gold);
      return {
        reward: strict,
        extracted_answer: pred || null,
        answer_em: pyFloat(answerExactMatch(pred, gold)),
        answer_f1: pyFloat(answerF1(pred, gold)[0]),
        is_correct: pyFloat(isCorrect(alternatives, pred) ? 1 : 0),
        is_correct_strict: pyFloat(strict),
        gt_should_remove: remove,
        gt_remove_reason: reason,
      };
    },
  },
  computeMetrics(tasks, config) {
    const metrics = passMajority(tasks);
    if (config.report_filtered_metrics !== false) {
      const kept = tasks.filter((rollouts) => rollouts.length > 0 && !rollouts[0]!.gt_should_remove);
      if (kept.length > 0) {
        const filtered = passMajority(kept);
        delete filtered.per_sample_aggregate;
        for (const [k, v] of Object.entries(filtered)) metrics[`filtered_${k}`] = v;
      }
      metrics.filtered_num_tasks = kept.length;
      metrics.unfiltered_num_tasks = tasks.length;
    }
    return metrics;
  },
  keyMetrics(agentMetrics) {
    const key = meanTokenMetrics(agentMetrics);
    for (const prefix of ["", "filtered_"]) {
      for (const pattern of ["pass@1[avg-of-{k}]", "pass@{k}", "majority@{k}"]) Object.assign(key, highestKMetrics(agentMetrics, `${prefix}${pattern}`, SCORES));
    }
    return key;
  },
});
