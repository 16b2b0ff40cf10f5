/**
 * spartqa: SpartQA's choose-object questions. The reply's final answer must resolve to the row's gold label
 * (`target`) among the two `options`, "both of them" and "none of them" (reward 1.0, else 0.0). Metrics: the mean
 * reward, exact-copy, parse and label-resolve rates, and the accuracy on the "both" / "none" slices.
 */
import { pyFloat } from "../../../metrics/pyjson.ts";
import { pySum } from "../../../metrics/numeric.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { outputText } from "../_common/output.ts";
import { pyRepr } from "../_python/errors.ts";
import { pyPrefix } from "../_python/text.ts";
import { BOTH_LABEL, NONE_LABEL, candidateLabels, extractAnswer, labelKey, matchLabel, normalize } from "./answer.ts";

const str = (v: unknown) => (typeof v === "string" ? v : pyRepr(v));

export default defineResourcesServer({
  name: "spartqa",
  className: "SpartqaResourcesServer",
  verify: {
    request: {
      fields: { target: py.withDefault(py.str(), () => ""), options: py.withDefault(py.list(py.str()), () => []), verifier_metadata: py.optional(py.dict()) },
      extra: "allow",
    },
    response: ["exact", "parsed", "extracted", "predicted_label"],
    echoExtra: true,
    handler(body) {
      const response = body.response as JsonObject;
      const prediction = extractAnswer(outputText(response));
      const meta = (body.verifier_metadata as JsonObject | null) ?? {};
      const gold = (body.target as string) || str(meta.target ?? "");
      const options = (body.options as string[]).length > 0 ? (body.options as string[]) : ((meta.options as string[] | null) || []).map(str);
      const labels = candidateLabels(options.length > 0 ? options : [gold]);
      const predicted = matchLabel(prediction, labels);
      const goldKey = labelKey(gold);
      const correct = Boolean(goldKey) && predicted !== null && labelKey(predicted) === goldKey;
      return {
        reward: correct ? 1 : 0,
        exact: correct && labelKey(prediction) === goldKey,
        parsed: Boolean(normalize(prediction)),
        extracted: pyPrefix(prediction, 200),
        predicted_label: predicted ?? "",
      };
    },
  },
  computeMetrics(tasks) {
    const rows = tasks.flat();
    if (rows.length === 0) return {};
    const metrics: JsonObject = {};
    const rewards = rows.map((r) => r.reward).filter((v) => typeof v === "number" || typeof v === "boolean" || (v !== null && typeof v === "object" && "value" in v)).map(Number);
    if (rewards.length > 0) {
      metrics.mean_reward = pyFloat(Number(pySum(rewards)) / rewards.length);
      metrics.count = rewards.length;
    }
    const rate = (keep: (r: JsonObject) => boolean, of: JsonObject[] = rows) => pyFloat(of.filter(keep).length / of.length);
    metrics.exact_match_rate = rate((r) => Boolean(r.exact));
    metrics.parse_rate = rate((r) => Boolean(r.parsed));
    metrics.label_resolve_rate = rate((r) => Boolean(r.predicted_label));
    for (const label of [BOTH_LABEL, NONE_LABEL]) {
      const slice = rows.filter((r) => labelKey(Object.hasOwn(r, "target") ? str(r.target) : "") === labelKey(label));
      if (slice.length > 0) metrics[`accuracy_${label.replaceAll(" ", "_")}`] = rate((r) => Number(r.reward) === 1, slice);
    }
    return metrics;
  },
  keyMetrics: (agentMetrics) => Object.fromEntries(["mean_reward", "exact_match_rate"].filter((k) => k in agentMetrics).map((k) => [k, agentMetrics[k]])) as JsonObject,
});
