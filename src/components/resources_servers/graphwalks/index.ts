/**
 * graphwalks (openai/graphwalks: BFS at a depth, or a node's parents, over a long edge list): the reward is the F1
 * between the node set of the reply's last-line `Final Answer: [...]` and the expected set (0 when that line is
 * missing). Metrics: pass@k (max of k for this continuous score) overall and per `problem_type`.
 */
import { pyFloat } from "../../../metrics/pyjson.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { expectedNodeKeys, nodeF1, parseNodeList } from "../_common/node-list.ts";
import { outputText } from "../_common/output.ts";
import { rewardKeyMetrics, rewardMetricsBySubset } from "../_common/subset-metrics.ts";

export default defineResourcesServer({
  name: "graphwalks",
  className: "GraphWalksResourcesServer",
  verify: {
    request: {
      fields: {
        expected_answer: py.str(),
        problem_type: py.str(),
        n_tokens: py.optional(py.int()),
        prompt_chars: py.optional(py.int()),
      },
    },
    response: ["expected_answer", "problem_type", "n_tokens", "prompt_chars", "f1", "parse_failed", "predicted_nodes"],
    handler(body) {
      const { nodes, parseFailed } = parseNodeList(outputText(body.response as JsonObject));
      const f1 = nodeF1(nodes, expectedNodeKeys(body.expected_answer as string), parseFailed);
      return { reward: f1, f1: pyFloat(f1), parse_failed: parseFailed, predicted_nodes: nodes };
    },
  },
  computeMetrics: (tasks) => rewardMetricsBySubset(tasks, "problem_type"),
  keyMetrics: rewardKeyMetrics,
});
