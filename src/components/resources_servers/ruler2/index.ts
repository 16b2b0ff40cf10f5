/**
 * ruler2 (RULER v2: needle, MMLU-with-distractors and HotpotQA-with-distractors tasks): per row, `eval_type`
 * `ruler2` scores the soft string match of the reply against the `expected_answer` list by `match_type`; `multichoice`
 * scores 1 when the reply's extracted letter is the expected one. Metrics: pass@k overall and per `task`, and the
 * suite mean when all 12 sub-tasks are present.
 */
import { computePassMajorityMetrics, computeSubsetMetrics, highestKMetrics, type ScoreFn } from "../../../metrics/pass-k.ts";
import { pySum } from "../../../metrics/numeric.ts";
import { numericValue, pyFloat } from "../../../metrics/pyjson.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { outputText } from "../_common/output.ts";
import { PyException, pyRepr } from "../_python/errors.ts";
import { pyStrip } from "../_python/text.ts";
import { defaultParse, extractLetter, MATCH_TYPES } from "./grade.ts";
import { meanTokenMetrics } from "../_common/key-metrics.ts";

/** The 12 sub-tasks whose presence makes the suite mean. */
export const SUBTASKS = ["mk_niah_basic", "mk_niah_easy", "mk_niah_medium", "mk_niah_hard", "mv_niah_basic", "mv_niah_easy", "mv_niah_medium", "mv_niah_hard", "qa_basic", "qa_easy", "qa_medium", "qa_hard"];

/** Python's str() of a JSON value. */
const pyStr = (value: unknown) => (typeof value === "string" ? value : pyRepr(value));
const scoreFn: ScoreFn = (r) => ({ accuracy: Number(r.reward) });

export default defineResourcesServer({
  name: "ruler2",
  className: "Ruler2ResourcesServer",
  verify: {
    request: {
      fields: {
        expected_answer: py.any(),
        eval_type: py.withDefault(py.str(), () => "ruler2"),
        match_type: py.withDefault(py.str(), () => "all"),
        task: py.optional(py.str()),
        length: py.optional(py.int()),
      },
    },
    response: ["eval_type", "match_type", "task", "length", "predicted_answer", "extracted_answer"],
    handler(body) {
      const prediction = outputText(body.response as JsonObject);
      const predicted = defaultParse(prediction);
      const expected = body.expected_answer;
      if (body.eval_type === "multichoice") {
        const letter = extractLetter(prediction);
        const gold = expected === null ? "" : pyStrip(pyStr(expected)).toUpperCase();
        return { reward: letter !== null && letter === gold ? 1 : 0, predicted_answer: predicted, extracted_answer: letter };
      }
      const match = Object.hasOwn(MATCH_TYPES, body.match_type as string) ? MATCH_TYPES[body.match_type as string]! : undefined;
      if (!match) throw new PyException("ValueError", `Unsupported match_type=${pyRepr(body.match_type)}; expected one of ['2steps', 'all', 'part']`);
      const refs = (Array.isArray(expected) ? expected : [expected]).map(pyStr);
      return { reward: match(prediction, refs), predicted_answer: predicted, extracted_answer: null };
    },
  },
  computeMetrics(tasks) {
    const metrics = computePassMajorityMetrics(tasks, { scoreFn }).metrics as JsonObject;
    const subsets = computeSubsetMetrics(tasks, "task", { scoreFn });
    Object.assign(metrics, subsets);
    const bySuffix = new Map<string, Map<string, number>>();
    for (const [key, value] of Object.entries(subsets)) {
      const cut = key.indexOf("/");
      if (cut < 0) continue;
      const rest = key.slice(cut + 1);
      if (!bySuffix.has(rest)) bySuffix.set(rest, new Map());
      bySuffix.get(rest)!.set(key.slice(0, cut), numericValue(value)!);
    }
    for (const [rest, byTask] of bySuffix) {
      if (SUBTASKS.every((t) => byTask.has(t))) metrics[`ruler2_suite_avg/${rest}`] = pyFloat((pySum(SUBTASKS.map((t) => byTask.get(t)!)) as number) / SUBTASKS.length);
    }
    return metrics;
  },
  keyMetrics(agentMetrics) {
    const key = meanTokenMetrics(agentMetrics);
    Object.assign(key, highestKMetrics(agentMetrics, "pass@1[avg-of-{k}]"), highestKMetrics(agentMetrics, "pass@{k}"));
    for (const [k, v] of Object.entries(agentMetrics)) if (k.startsWith("ruler2_suite_avg/")) key[k] = v as never;
    return key;
  },
});
