/**
 * lc_niah (long-context needle in a haystack, graphwalks-style): the answer's `Final Answer: [...]` node-list F1
 * (`answer_score`), and three measures of how much the reasoning copies the input (difflib ratio, 16-gram overlap,
 * longest common substring over the reasoning's length); `overlap_metric_rule` picks one as `reasoning_overlap`,
 * `overlap_grading_rule` combines it with the answer score into the reward.
 */
import { pyFloat } from "../../../metrics/pyjson.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { longestMatchSize, sequenceRatio } from "../../../text/difflib.ts";
import { expectedNodeKeys, nodeF1, parseNodeList } from "../_common/node-list.ts";
import { outputText } from "../_common/output.ts";
import { pyCollapseSpace, pySplit, pyStrip } from "../_python/text.ts";

/** `_normalize`: stripped, lower-cased, every whitespace run one space. */
const normalize = (text: string) => pyCollapseSpace(pyStrip(text).toLowerCase());

/** The summary texts of every reasoning item, joined with nothing. */
export function reasoningText(response: JsonObject): string {
  let text = "";
  for (const item of (Array.isArray(response.output) ? response.output : []) as JsonObject[]) {
    if (item.type === "reasoning" && Array.isArray(item.summary)) for (const part of item.summary as JsonObject[]) text += part.text as string;
  }
  return text;
}

/** The input's text: a string input as it is; else each message's string content, or its blocks' non-empty texts, joined with "\n". */
export function inputText(params: JsonObject): string {
  const input = params.input;
  if (typeof input === "string") return input;
  const parts: string[] = [];
  for (const item of (Array.isArray(input) ? input : []) as JsonObject[]) {
    const content = item?.content;
    if (typeof content === "string") parts.push(content);
    else if (Array.isArray(content)) for (const block of content as JsonObject[]) if (typeof block?.text === "string" && block.text !== "") parts.push(block.text);
  }
  return parts.join("\n");
}

/** The three overlap signals of the reasoning against the input, each in [0, 1]. */
export function overlaps(reasoning: string, input: string): { seq_match: number; ngram16: number; lcs: number } {
  const r = Array.from(normalize(reasoning));
  if (r.length === 0) return { seq_match: 0, ngram16: 0, lcs: 0 };
  const i = Array.from(normalize(input));
  return { seq_match: sequenceRatio(r, i), ngram16: ngramOverlap(reasoning, input, 16), lcs: longestMatchSize(r, i, false) / r.length };
}

/** Share of the reasoning's distinct word n-grams that also occur in the input; 0 under n words. */
function ngramOverlap(reasoning: string, input: string, n: number): number {
  const grams = (words: string[]) => {
    const out = new Set<string>();
    for (let k = 0; k + n <= words.length; k++) out.add(JSON.stringify(words.slice(k, k + n)));
    return out;
  };
  const words = pySplit(normalize(reasoning));
  if (words.length < n) return 0;
  const mine = grams(words);
  const theirs = grams(pySplit(normalize(input)));
  let shared = 0;
  for (const g of mine) if (theirs.has(g)) shared++;
  return shared / mine.size;
}

const METRIC_RULES = ["seq_match", "ngram16", "lcs"] as const;
const GRADING_RULES = ["base", "multiply", "minus"] as const;

export default defineResourcesServer<{ overlap_metric_rule: (typeof METRIC_RULES)[number]; overlap_grading_rule: (typeof GRADING_RULES)[number] }>({
  name: "lc_niah",
  className: "LCNIAHResourcesServer",
  config: {
    fields: {
      overlap_metric_rule: py.withDefault(py.literal(METRIC_RULES), () => "lcs"),
      overlap_grading_rule: py.withDefault(py.literal(GRADING_RULES), () => "multiply"),
    },
  },
  verify: {
    request: { fields: { expected_answer: py.str() }, extra: "allow" },
    response: ["answer_score", "overlap_seq_match", "overlap_ngram16", "overlap_lcs", "reasoning_overlap"],
    echoExtra: true,
    handler(body, { config }) {
      const response = body.response as JsonObject;
      const { nodes, parseFailed } = parseNodeList(outputText(response), true);
      const answer = nodeF1(nodes, expectedNodeKeys(body.expected_answer as string), parseFailed);
      const signals = overlaps(reasoningText(response), inputText(body.responses_create_params as JsonObject));
      const overlap = signals[config.overlap_metric_rule];
      const rule = config.overlap_grading_rule;
      const reward = rule === "base" ? answer : rule === "multiply" ? answer * (1 - overlap) : answer - overlap;
      return {
        reward,
        answer_score: pyFloat(answer),
        overlap_seq_match: pyFloat(signals.seq_match),
        overlap_ngram16: pyFloat(signals.ngram16),
        overlap_lcs: pyFloat(signals.lcs),
        reasoning_overlap: pyFloat(overlap),
      };
    },
  },
});
