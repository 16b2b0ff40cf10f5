/** mcqa: multiple-choice answers graded by letter extraction (4 grading modes + template regexes), with pass@k / majority@k metrics. */
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { computePassMajorityMetrics, highestKMetrics } from "../../../metrics/pass-k.ts";
import { outputText } from "../_common/output.ts";
import { pyStrip } from "../_python/text.ts";
import {
  allowedLetters,
  answerColonLetter,
  answerColonMarkdownLetter,
  matchOptionText,
  strictBoxedLetter,
  templateRegexesLetter,
  type Options,
} from "./extract.ts";

const ROW_MODES = ["strict_single_letter_boxed", "lenient_boxed", "lenient_answer_colon"] as const;
// The markdown-aware mode may only be chosen by the server config; a row asking for it is a 422.
const CONFIG_MODES = [...ROW_MODES, "lenient_answer_colon_md"] as const;

export interface McqaConfig extends JsonObject {
  grading_mode: (typeof CONFIG_MODES)[number] | null;
}

/** The letter the model chose, or null. */
export function extractLetter(text: string, body: JsonObject, gradingMode: string): string | null {
  const options = body.options as Options | null;
  const allowed = allowedLetters(options);
  let pred: string | null = null;
  const template = body.template_metadata as JsonObject | null;
  if (template && Object.hasOwn(template, "output_regex")) {
    const patterns = template.output_regex;
    // A dict iterates over its keys in Python.
    const list = patterns !== null && typeof patterns === "object" && !Array.isArray(patterns) ? Object.keys(patterns) : patterns;
    pred = templateRegexesLetter(text, list, allowed, options);
  }
  if (pred !== null) return pred;
  switch (gradingMode) {
    case "strict_single_letter_boxed":
      return strictBoxedLetter(text, allowed);
    case "lenient_boxed":
      return strictBoxedLetter(text, allowed) ?? matchOptionText(text, options, allowed);
    case "lenient_answer_colon":
      return answerColonLetter(text, options, allowed);
    case "lenient_answer_colon_md":
      return answerColonMarkdownLetter(text, allowed);
  }
  return null;
}

export default defineResourcesServer<McqaConfig>({
  name: "mcqa",
  className: "MCQAResourcesServer",
  reverifyMode: "stateless",
  config: { fields: { grading_mode: py.optional(py.literal(CONFIG_MODES)) } },
  verify: {
    request: {
      fields: {
        uuid: py.optional(py.str()),
        options: py.optional(py.list(py.dictOf(py.optional(py.str())))),
        expected_answer: py.optional(py.str()),
        metadata: py.optional(py.dict()),
        grading_mode: py.withDefault(py.literal(ROW_MODES), () => "strict_single_letter_boxed"),
        template_metadata: py.optional(py.dict()),
      },
    },
    response: ["expected_answer", "extracted_answer"],
    handler(body, { config }) {
      const gold = pyStrip((body.expected_answer as string | null) ?? "").toUpperCase();
      const text = pyStrip(outputText(body.response as JsonObject));
      if (!text) return { reward: 0, expected_answer: gold, extracted_answer: null };
      const pred = extractLetter(text, body, config.grading_mode ?? (body.grading_mode as string));
      return { reward: pred !== null && gold && pred === gold ? 1 : 0, expected_answer: gold, extracted_answer: pred };
    },
  },
  computeMetrics: (tasks) => computePassMajorityMetrics(tasks, { scoreFn: (r) => ({ accuracy: r.reward }), answerKey: "extracted_answer" }).metrics,
  keyMetrics(agentMetrics) {
    const key: JsonObject = {};
    if ("mean/reward" in agentMetrics) key["mean/reward"] = agentMetrics["mean/reward"];
    Object.assign(key, highestKMetrics(agentMetrics, "pass@1[avg-of-{k}]", ["accuracy", "no_answer"]));
    Object.assign(key, highestKMetrics(agentMetrics, "pass@{k}", ["no_answer"]));
    Object.assign(key, highestKMetrics(agentMetrics, "majority@{k}", ["accuracy"]));
    if ("pass@1/accuracy" in agentMetrics) key["pass@1/accuracy"] = agentMetrics["pass@1/accuracy"];
    return key;
  },
});
