/** The closing lines of `gym eval reverify` (stderr): counts, coverage, artifact paths, key metrics. */
import type { Row } from "../../jsonl/read.ts";
import { stringifyPython } from "../../metrics/pyjson.ts";
import type { ReverifyReport } from "./index.ts";

/** Human summary of a finished (or interrupted) reverification. */
export function formatReverifySummary(r: ReverifyReport, disableAggregation: boolean): string {
  const failed = Object.values(r.failuresByClass).reduce((a, b) => a + b, 0);
  const classes = Object.entries(r.failuresByClass).map(([k, v]) => `${k}: ${v}`).join(", ");
  const lines = [
    `Re-verified ${r.verified} rollout(s): ${r.succeeded} scored, ${failed} to the failures sidecar${classes ? ` (${classes})` : ""}${r.noPersist ? `, ${r.noPersist} not persisted` : ""}.`,
  ];
  const skipped = r.skipped.done + r.skipped.terminal + r.skipped.maxedOut;
  if (skipped > 0) lines.push(`Skipped ${skipped} already settled (${r.skipped.done} in the output, ${r.skipped.terminal} terminal, ${r.skipped.maxedOut} at the retry cap).`);
  if (r.seeded > 0) lines.push(`Seeded ${r.seeded} successful rollout(s) from --rollouts.`);
  if (r.interrupted) lines.push("Interrupted: rows verified so far are saved; run the same command with --resume to finish.");
  lines.push(`Re-verified rollouts: ${r.output === "-" ? "<stdout>" : r.output}`);
  if (failed > 0) lines.push(`Failures sidecar: ${r.failures}`);
  lines.push(`Aggregate metrics: ${disableAggregation ? "skipped (--disable-aggregation)" : (r.aggregateMetrics ?? "none (no rows to aggregate)")}`);
  for (const entry of r.metrics ?? []) {
    const name = (entry.agent_ref as Row | undefined)?.name;
    lines.push(`Key metrics for ${name}:`, stringifyPython(entry.key_metrics ?? {}, { indent: 4 }));
  }
  return `${lines.join("\n")}\n`;
}
