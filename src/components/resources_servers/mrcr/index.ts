/**
 * mrcr (OpenAI's Multi-Round Coreference Resolution): the reply must start with the row's random prefix (else reward 0);
 * then the prefix is cut from reply and expected answer and difflib's SequenceMatcher ratio is the reward. Metrics:
 * pass@k (max of k for this continuous score) overall and per `n_needles`.
 */
import { pyFloat } from "../../../metrics/pyjson.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { sequenceRatio } from "../../../text/difflib.ts";
import { outputText } from "../_common/output.ts";
import { rewardKeyMetrics, rewardMetricsBySubset } from "../_common/subset-metrics.ts";
import { pyStrip } from "../_python/text.ts";

/** NeMo Gym's `_grade`: 0 without the prefix, else the SequenceMatcher ratio of the two texts minus the prefix (by code point, as Python strings). */
export function gradeMrcr(response: string, expected: string, prefix: string): number {
  if (!response.startsWith(prefix)) return 0;
  const cut = (s: string) => (s.startsWith(prefix) ? s.slice(prefix.length) : s);
  return sequenceRatio(Array.from(cut(response)), Array.from(cut(expected)));
}

export default defineResourcesServer({
  name: "mrcr",
  className: "MRCRResourcesServer",
  verify: {
    request: {
      fields: {
        expected_answer: py.str(),
        random_string_to_prepend: py.str(),
        n_needles: py.int(),
        n_tokens: py.int(),
      },
    },
    response: ["expected_answer", "random_string_to_prepend", "n_needles", "n_tokens", "prefix_matched", "seq_match_ratio"],
    handler(body) {
      const response = pyStrip(outputText(body.response as JsonObject));
      const prefix = body.random_string_to_prepend as string;
      const ratio = gradeMrcr(response, body.expected_answer as string, prefix);
      return { reward: ratio, prefix_matched: response.startsWith(prefix), seq_match_ratio: pyFloat(ratio) };
    },
  },
  computeMetrics: (tasks) => rewardMetricsBySubset(tasks, "n_needles"),
  keyMetrics: rewardKeyMetrics,
});
