/**
 * ragtruth: RAGTruth case-level hallucination detection. The reply's `{"hallucination list": […]}` verdict (any item =
 * hallucinated) is compared with the row's `is_halu` (reward 1.0 on agreement). Metrics: mean reward, parse failures,
 * corpus precision / recall / F1 of the hallucination class, and the same with accuracy per `task_type`.
 */
import { pyFloat, stringifyPython } from "../../../metrics/pyjson.ts";
import { pySum } from "../../../metrics/numeric.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { outputText } from "../_common/output.ts";
import { pyPrefix } from "../_python/text.ts";
import { parseVerdict } from "./verdict.ts";

interface RagtruthConfig extends JsonObject {
  think_tag: string;
}

const isNumber = (v: unknown) => typeof v === "number" || typeof v === "boolean" || (v !== null && typeof v === "object" && "value" in (v as object));
const mean = (values: number[]) => pyFloat(Number(pySum(values)) / values.length);

function confusion(group: JsonObject[]): JsonObject {
  const tp = group.filter((r) => r.pred_halu && r.is_halu).length;
  const fp = group.filter((r) => r.pred_halu && !r.is_halu).length;
  const fn = group.filter((r) => !r.pred_halu && r.is_halu).length;
  const precision = tp + fp ? tp / (tp + fp) : 0;
  const recall = tp + fn ? tp / (tp + fn) : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  const rewards = group.map((r) => r.reward).filter(isNumber).map(Number);
  return { precision: pyFloat(precision), recall: pyFloat(recall), f1: pyFloat(f1), accuracy: rewards.length ? mean(rewards) : pyFloat(0), count: group.length };
}

export default defineResourcesServer<RagtruthConfig>({
  name: "ragtruth",
  className: "RagtruthResourcesServer",
  config: { fields: { think_tag: py.withDefault(py.str(), () => "think") } },
  verify: {
    request: { fields: { is_halu: py.withDefault(py.bool(), () => false), task_type: py.withDefault(py.str(), () => "") }, extra: "allow" },
    response: ["task_type", "is_halu", "pred_halu", "parse_fail", "extracted"],
    echoExtra: true,
    handler(body, { config }) {
      const parsed = parseVerdict(outputText(body.response as JsonObject), config.think_tag);
      const list = parsed?.["hallucination list"];
      const predHalu = Array.isArray(list) && list.length > 0;
      const isHalu = Boolean(body.is_halu);
      const extracted = Array.isArray(list) ? stringifyPython(list, { spaced: true, ensureAscii: false, pythonNonFinite: true }) : "";
      return { reward: predHalu === isHalu ? 1 : 0, is_halu: Number(isHalu), pred_halu: Number(predHalu), parse_fail: Number(parsed === null), extracted: pyPrefix(extracted, 500) };
    },
  },
  computeMetrics(tasks) {
    const rows = tasks.flat();
    const metrics: JsonObject = {};
    const rewards = rows.map((r) => r.reward).filter(isNumber).map(Number);
    if (rewards.length) {
      metrics.mean_reward = mean(rewards);
      metrics.count = rewards.length;
    }
    if (rows.length) metrics.parse_fail_rate = pyFloat(rows.reduce((s, r) => s + Number(r.parse_fail ?? 0), 0) / rows.length);
    if (rows.length) {
      const overall = confusion(rows);
      for (const key of ["precision", "recall", "f1"]) metrics[key] = overall[key]!;
      const byType = new Map<string, JsonObject[]>();
      for (const r of rows) {
        const type = (r.task_type as string) || "unknown";
        byType.set(type, [...(byType.get(type) ?? []), r]);
      }
      const types = [...byType.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      for (const type of types) for (const [key, value] of Object.entries(confusion(byType.get(type)!))) metrics[`task_type/${type}/${key}`] = value;
    }
    return metrics;
  },
  keyMetrics(agentMetrics) {
    const out: JsonObject = {};
    for (const k of ["mean_reward", "f1", "precision", "recall"]) if (k in agentMetrics) out[k] = agentMetrics[k] as never;
    for (const [k, v] of Object.entries(agentMetrics)) if (k.endsWith("/f1") || k.endsWith("/accuracy")) out[k] = v as never;
    return out;
  },
});
