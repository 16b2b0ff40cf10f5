/**
 * polymath: math_with_judge (math-verify first, the optional equality judge) with PolyMath's `weight` and `language`
 * carried through, and its metrics: math_with_judge's pass@k family, the same per language, and the
 * difficulty-weighted family (`…_weighted`).
 */
import { computePassMajorityMetrics, computeSubsetMetrics, highestKMetrics } from "../../../metrics/pass-k.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import mathWithJudge, { mathScoreFn, type MathWithJudgeConfig, type MathWithJudgeState } from "../math_with_judge/index.ts";
import { weightedPassMajorityMetrics } from "./weighted.ts";
import { meanTokenMetrics } from "../_common/key-metrics.ts";

const parent = mathWithJudge.definition;
const options = { scoreFn: mathScoreFn, answerKey: "extracted_answer" };

export default defineResourcesServer<MathWithJudgeConfig, MathWithJudgeState>({
  ...parent,
  // NeMo Gym's PolyMath config declares no REVERIFY_MODE (the base's UNKNOWN).
  reverifyMode: "unknown",
  name: "polymath",
  className: "PolyMathResourcesServer",
  verify: {
    ...parent.verify!,
    request: { fields: { ...parent.verify!.request!.fields, weight: py.optional(py.float()), language: py.optional(py.str()) } },
    response: [...parent.verify!.response!, "weight", "language"],
    async handler(body, ctx) {
      // The parent sees only its own four fields, as NeMo Gym rebuilds a LibraryJudgeMathVerifyRequest.
      const { responses_create_params, response, question, expected_answer } = body;
      return parent.verify!.handler({ responses_create_params, response, question, expected_answer } as JsonObject, ctx);
    },
  },
  computeMetrics(tasks) {
    if (tasks.length === 0) return {};
    const metrics = computePassMajorityMetrics(tasks, options).metrics as JsonObject;
    Object.assign(metrics, computeSubsetMetrics(tasks, "language", options));
    Object.assign(metrics, weightedPassMajorityMetrics(tasks, mathScoreFn, "extracted_answer"));
    return metrics;
  },
  keyMetrics(agentMetrics) {
    const key = meanTokenMetrics(agentMetrics);
    Object.assign(key, highestKMetrics(agentMetrics, "pass@1[avg-of-{k}]"));
    Object.assign(key, highestKMetrics(agentMetrics, "pass@{k}", undefined, ["no_answer"]));
    Object.assign(key, highestKMetrics(agentMetrics, "majority@{k}", undefined, ["no_answer"]));
    return key;
  },
});
