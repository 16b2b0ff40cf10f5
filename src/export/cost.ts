/** A run's `<stem>_cost.json` as tracker metrics (`cost/total_usd`, `cost/input_tokens`, …), when the run wrote one. */
import { existsSync, readFileSync } from "node:fs";
import { costFilePath } from "../stages/cost/index.ts";

const FIELDS = ["policy_usd", "judge_usd", "total_usd", "input_tokens", "output_tokens", "cached_input_tokens", "reasoning_tokens"];

/** The numeric totals only (a USD total without a price is null and is not sent: no made-up $). */
export function costMetrics(rolloutsPath: string): Record<string, number> {
  const file = costFilePath(rolloutsPath);
  if (!existsSync(file)) return {};
  try {
    const cost = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    const out: Record<string, number> = {};
    for (const field of FIELDS) if (typeof cost[field] === "number") out[`cost/${field}`] = cost[field] as number;
    return out;
  } catch {
    return {};
  }
}
