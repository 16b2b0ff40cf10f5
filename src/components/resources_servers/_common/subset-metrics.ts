/**
 * The metrics of a server whose reward is a continuous score (graphwalks' F1, mrcr's match ratio): NeMo Gym's
 * pass@k family over `accuracy` = the reward (pass@k is then the max of k), overall and per value of a row field.
 */
import { computePassMajorityMetrics, computeSubsetMetrics, highestKMetrics, type ScoreFn } from "../../../metrics/pass-k.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import type { RolloutTasks } from "../../../servers/resources/metrics.ts";
import { meanTokenMetrics } from "./key-metrics.ts";

const scoreFn: ScoreFn = (r) => ({ accuracy: r.reward as number });

/** pass@k overall, then per value of `field` under `field=value/…`. */
export function rewardMetricsBySubset(tasks: RolloutTasks, field: string): JsonObject {
  const metrics = computePassMajorityMetrics(tasks, { scoreFn }).metrics as JsonObject;
  const subsets = computeSubsetMetrics(tasks, field, { scoreFn });
  for (const [key, value] of Object.entries(subsets)) metrics[key.includes("/") ? `${field}=${key}` : key] = value as never;
  return metrics;
}

/** The headline: mean tokens, then pass@1[avg-of-k] and pass@k at the highest k. */
export function rewardKeyMetrics(agentMetrics: Record<string, unknown>): JsonObject {
  const key = meanTokenMetrics(agentMetrics);
  Object.assign(key, highestKMetrics(agentMetrics, "pass@1[avg-of-{k}]"), highestKMetrics(agentMetrics, "pass@{k}"));
  return key;
}
