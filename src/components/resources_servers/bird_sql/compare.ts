/** BIRD's result comparison: `set(gold) == set(pred)` over row tuples (order and duplicates ignored, 1 == 1.0). */
import type { SqlRow } from "../_sql/execute.ts";
import { pyRowKey } from "../_sql/values.ts";

export function resultSetsMatch(gold: SqlRow[], pred: SqlRow[]): boolean {
  const goldKeys = new Set(gold.map(pyRowKey));
  const predKeys = new Set(pred.map(pyRowKey));
  if (goldKeys.size !== predKeys.size) return false;
  for (const key of predKeys) if (!goldKeys.has(key)) return false;
  return true;
}
