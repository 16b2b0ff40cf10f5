/** The closing report of a run on stderr: metrics, coverage, drops by class, latency, health, and where every file went. */
import * as fs from "node:fs";
import { basename } from "node:path";
import type { CollectionResult } from "./collection.ts";
import type { RunPaths } from "../outputs/paths.ts";
import { processCounts, responseCacheEnabled } from "../servers/calls/cache/index.ts";
import { costFilePath, costLine, formatUsd } from "../stages/cost/index.ts";
import { modelCallsSummary } from "./model-calls.ts";

/** `resumeCommand`: the command line that resumes this run, printed when the completion rules say resuming is next. */
export async function printSummary(result: CollectionResult, paths: RunPaths, toStdout: boolean, resumeCommand?: string): Promise<void> {
  const out: string[] = [];
  if (result.aborted && result.aborted !== "interrupted") out.push(`Run stopped: ${result.aborted}`, "  (pass +route_failures_to_sidecar=true to record failed /run calls and keep going; --resume retries them)");
  if (result.aborted === "interrupted") out.push("Run interrupted: the rollouts that finished are saved; --resume runs the rest.");
  if (result.budgetStop) out.push(`Stopped at the budget: ${result.budgetStop}. The rollouts in flight finished and are saved; --resume with a larger budget continues (exit 77).`);
  for (const entry of result.metrics ?? []) {
    const name = (entry.agent_ref as { name: string }).name;
    const keyMetrics = Object.entries((entry.key_metrics as Record<string, unknown>) ?? {})
      .map(([k, v]) => `${k}=${formatMetric(v)}`)
      .join(", ");
    out.push(`Metrics for ${name}: ${keyMetrics || "(none)"}`);
  }
  const scored = result.scored + result.counted + result.imputed;
  const missing = result.expected - scored;
  out.push(`Coverage: ${scored} of ${result.expected} rollouts scored (${result.scored} succeeded${result.counted ? `, ${result.counted} failures counted as 0` : ""}${result.imputed ? `, ${result.imputed} missing imputed as 0` : ""})${missing > 0 ? `; ${missing} missing` : ""}${result.notStarted ? `; ${result.notStarted} not started (dispatch budget)` : ""}.`);
  const drops = Object.entries(result.failuresByClass);
  if (drops.length) out.push(`Left the score this run: ${drops.map(([cls, n]) => `${n} ${cls}`).join(", ")} (see ${paths.failures}).`);
  out.push(result.latency);
  if (responseCacheEnabled()) out.push(`Response cache: ${processCounts.hits} model calls served from the cache, ${processCounts.misses} sent upstream.`);
  if (result.cost) {
    out.push(`Cost: ${costLine(result.cost)}.`);
  }
  const calls = result.modelCalls;
  if (calls.calls > 0) out.push(`Model calls (this process, policy and judges): ${calls.calls}, ${calls.tokens.toLocaleString("en-US")} tokens${calls.unpriced.length === 0 ? `, ${formatUsd(calls.usd)}` : ""}.`);
  const limits = modelCallsSummary();
  if (limits) out.push(limits);
  if (result.health && !toStdout) {
    // Made while the rows were written: the file is not read again.
    out.push("error" in result.health ? `Rollout health: not checked (${result.health.error})` : (await import("../stages/health-check/index.ts")).healthSummaryLine(result.health));
  } else if (fs.existsSync(paths.rollouts) && !toStdout) {
    try {
      const { healthCheck, healthSummaryLine } = await import("../stages/health-check/index.ts");
      out.push(healthSummaryLine(await healthCheck({ runDir: paths.dir, rolloutsFile: basename(paths.rollouts) })));
    } catch (error) {
      out.push(`Rollout health: not checked (${(error as Error).message})`);
    }
  }
  if (!toStdout) {
    out.push("Files:");
    for (const [what, file] of [
      ["rollouts", paths.rollouts],
      ["materialized inputs", paths.materializedInputs],
      ["failures", paths.failures],
      ["aggregate metrics", paths.aggregateMetrics],
      ["manifest", paths.manifest],
      ["status", paths.batchStatus],
      ["resolved config", paths.resolvedConfig],
      ["cost", costFilePath(paths.rollouts)],
    ] as const) {
      if (fs.existsSync(file)) out.push(`  ${what.padEnd(20)} ${file}`);
    }
  }
  // Last, so it is what a user (or a job log) sees: why the exit code is what it is, and the next command.
  if (result.completion?.why) out.push(result.completion.why);
  if (result.completion?.resume && resumeCommand) out.push(`Resume with:\n  ${resumeCommand}`);
  process.stderr.write(`${out.join("\n")}\n`);
}

/** A metric for people: numbers (including Python-typed floats) to 6 decimals, the rest as JSON. */
function formatMetric(value: unknown): string {
  const n = typeof value === "number" ? value : value !== null && typeof value === "object" && typeof value.valueOf() === "number" ? (value.valueOf() as number) : undefined;
  return n === undefined ? JSON.stringify(value) : String(Number(n.toFixed(6)));
}
