/** `gym eval health-check`: per-rollout verdicts (healthy / unhealthy / unobserved) and a run quality summary. */
import * as fs from "node:fs";
import * as path from "node:path";
import { emptyInput, GymError } from "../../errors.ts";
import { guardOutputs } from "../../outputs/guard.ts";
import { healthReportPaths } from "../../outputs/paths.ts";
import { readJsonFile } from "../../jsonl/json-file.ts";
import { HEALTH_CHECKS, statsShape } from "../../jsonl/rollout-rows.ts";
import { RowReader, UNREADABLE } from "../../jsonl/rows.ts";
import { collectGarbage } from "../../runtime/gc.ts";
import { closeMatches } from "../../text/difflib.ts";
import { ByteWriter } from "../aggregate/copy.ts";
import { siblingPath } from "../aggregate/files.ts";
import { ALL_CHECK_IDS } from "./checks.ts";
import { at, HealthTally, type QualitySummary } from "./tally.ts";
import { Phases } from "../aggregate/phases.ts";

export type { QualitySummary, Verdict } from "./tally.ts";

export interface HealthCheckOptions {
  runDir: string;
  /** File name inside the run dir (default rollouts.jsonl), or "-" for stdin. */
  rolloutsFile?: string;
  ignoreChecks?: string[];
}

/**
 * The console line printed after a run or an aggregate; with the summary's `checks`, an indented line naming
 * the checks that found something, and one saying why rows were unobserved when they lack `ng_trajectory`.
 */
export function healthSummaryLine(s: Pick<QualitySummary, "checked" | "healthy" | "unhealthy" | "unobserved"> & { checks?: QualitySummary["checks"] }): string {
  const lines = [`Rollout health: ${s.checked} checked, ${s.healthy} healthy, ${s.unhealthy} unhealthy, ${s.unobserved} unobserved`];
  const found = Object.entries(s.checks ?? {}).filter(([, c]) => c.unhealthy > 0);
  if (found.length) lines.push(`  unhealthy findings: ${found.map(([id, c]) => `${id} ${c.unhealthy}`).join(", ")} (see the rollout verdicts file)`);
  const untraced = s.checks?.rollout_missing_agent_turns?.unobserved ?? 0;
  if (s.unobserved > 0 && untraced > 0) lines.push(`  ${untraced} without ng_trajectory, so their turns are unobserved (simple_agent records it with +observability_enabled=true); model-call checks read response.usage and incomplete_details`);
  return lines.join("\n");
}

function rolloutSources(runDir: string, name: string): string[] {
  if (name === "-") return ["-"];
  const file = path.join(runDir, name);
  if (fs.existsSync(file)) return [file];
  const sources = siblingPath(file, "_sources", ".json");
  if (fs.existsSync(sources)) {
    const shards = ((readJsonFile(sources, "sources") as { shards?: unknown }).shards ?? []) as Array<{ path: string }>;
    if (shards.length) return shards.map((s) => s.path);
  }
  throw new GymError("E_INPUT_NOT_FOUND", `No rollouts at ${file}`, { hint: "Pass the run directory, and --rollouts-file NAME if the rollouts file has another name." });
}

/** Checks every rollout, writes its verdicts and quality summary into the run dir (names: healthReportPaths), returns the summary. */
export async function healthCheck(options: HealthCheckOptions): Promise<QualitySummary> {
  const ignored = options.ignoreChecks ?? [];
  for (const id of ignored) {
    if (!ALL_CHECK_IDS.includes(id)) {
      const near = closeMatches(id, ALL_CHECK_IDS, 1, 0.6);
      throw new GymError("E_BAD_FLAG_VALUE", `Unknown check '${id}' in --ignore-checks`, { hint: near.length ? `Did you mean ${near[0]}?` : `Checks: ${ALL_CHECK_IDS.join(", ")}` });
    }
  }
  const name = options.rolloutsFile ?? "rollouts.jsonl";
  const sources = rolloutSources(options.runDir, name);
  const tally = new HealthTally(ignored, sources.map((source) => (source === "-" ? "<stdin>" : source)));
  const reports = healthReportPaths(options.runDir, name);
  guardOutputs(sources.map((s) => ({ path: s, role: "the rollouts file" })), [{ path: reports.rolloutVerdicts, role: "the verdicts file" }, { path: reports.qualitySummary, role: "the quality summary" }], { command: "gym eval health-check", suggestion: "The reports are named after the rollouts file's stem; rename the rollouts file." });
  const phases = new Phases("eval health-check");
  let checked = 0;
  // Verdict lines are built as bytes (no string per row); a row with findings is the rare string.
  const verdicts = new ByteWriter(reports.rolloutVerdicts);
  const out = verdicts.out;
  const reader = new RowReader({ ...statsShape(HEALTH_CHECKS, true), badLines: "mark" });
  let sinceGc = 0;
  try {
    for (let s = 0; s < sources.length; s++) {
      for await (const { rows, lines } of reader.batches(sources[s]!)) {
        for (let i = 0; i < rows.length; i++) {
          const row = rows[i]!;
          const where = at(s, lines[i]!);
          checked++;
          if (row === UNREADABLE) out.text(tally.unreadable(where));
          else {
            const findings = tally.check(row);
            tally.verdictInto(out, row._ng_task_index, row._ng_rollout_index, row.reward === undefined || row.reward === null, findings, tally.lacking, where);
          }
        }
        // Each batch leaves its row objects behind; the engine lets that garbage pile up to ~400 MB on a
        // GB of rollouts before it collects. A full collection every ~32k rows keeps the peak near 100 MB (same CPU).
        if ((sinceGc += rows.length) >= 1 << 15) (sinceGc = 0), collectGarbage();
      }
    }
    if (checked === 0) throw emptyInput(sources.map((s) => (s === "-" ? "<stdin>" : s)).join(", "), "the rollouts to check");
  } catch (error) {
    verdicts.abort();
    throw error;
  }
  verdicts.commit();
  phases.mark("parse and verdicts");
  const file = path.join(options.runDir, name);
  const summary = await tally.finish(reports.qualitySummary, name === "-" ? "<stdin>" : file, sources[0] !== "-" ? file : null, sources.length > 1 || sources[0] !== file ? sources : []);
  phases.mark("summary");
  phases.report();
  return summary;
}
