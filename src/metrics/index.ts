/**
 * NeMo Gym's metrics with NeMo Gym's exact numerics.
 *
 * - `computeAggregateMetrics(verifyResponses, { hooks })` is the body of a `/aggregate_metrics` reply
 *   (`{agent_metrics, key_metrics, group_level_metrics, repeat_level_metrics}`): baseline statistics per
 *   task and per agent, the server's `computeMetrics` / `getKeyMetrics` hooks, 0.7 repeat-level metrics.
 *   A resources server's route should parse its request body with `parsePythonJson` (so `1.0` stays a
 *   float) and reply with `stringifyPython(result)`.
 * - `computePassMajorityMetrics`, `addAvgSampleStdDev`, `computeSubsetMetrics`, `highestKMetrics`: the
 *   pass@k family servers use inside `computeMetrics`.
 * - Numerics: `pairwiseSum` (numpy), `pySum` (CPython sum), `pyRound`, `comb`/`bigRatio`, `median`,
 *   `percentileLinear`; Student t (`studentTQuantile`) and intervals (`welchInterval`, `pairedInterval`,
 *   `weightedWelch`, `tInterval`).
 */
export { computeAggregateMetrics, groupByTask, groupTail, ProfileAccumulator, sortByRolloutKey } from "./baseline.ts";
export type { AggregateHooks, AggregateMetrics, AggregateOptions } from "./baseline.ts";
export { addAvgSampleStdDev, computePassMajorityMetrics, computeSubsetMetrics, highestKMetrics } from "./pass-k.ts";
export type { PassMajorityResult, ScoreFn } from "./pass-k.ts";
export { acrossRepeatMetrics, repeatLevelMetrics } from "./repeat-level.ts";
export { describeFrame, NumericTable } from "./frame.ts";
export { indexValue, numericRecord, pyStr, rolloutInfo, ROLLOUT_INDEX, stripForAggregate, STRIPPED_FOR_AGGREGATE, TASK_INDEX } from "./records.ts";
export { bigRatio, comb, meanVariance, median, pairwiseSum, percentileLinear, pyDiv, pyRound, pySum, toFloat } from "./numeric.ts";
export type { PyScalar } from "./numeric.ts";
export { formatPyFloat, numericValue, parsePythonJson, PyFloat, pyFloat, pyNumber, stringifyPython } from "./pyjson.ts";
export type { PyJsonOptions, PyNumber } from "./pyjson.ts";
export { incompleteBeta, normalQuantile, studentTCdf, studentTQuantile } from "./student-t.ts";
export { minimumDetectableEffect, pairedInterval, summarize, tInterval, weightedWelch, welchInterval } from "./intervals.ts";
export type { DifferenceInterval, SampleSummary, WelchCell } from "./intervals.ts";
