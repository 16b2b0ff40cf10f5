/** `gym eval health-check`: per-rollout verdicts (healthy / unhealthy / unobserved) and a run quality summary. */
import * as fs from "node:fs";
import * as path from "node:path";
import { GymError } from "../errors.ts";
import { readTextBatches } from "../jsonl/lines.ts";
import { closeMatches } from "../text/difflib.ts";
import { FileWriter, siblingPath } from "./_aggregate-files.ts";
import { ALL_CHECK_IDS, ROLLOUT_CHECKS, type Finding } from "./_health-check-checks.ts";
import { identity, IdentityMap } from "./_health-check-keys.ts";

type Row = Record<string, unknown>;
export type Verdict = "healthy" | "unhealthy" | "unobserved";

export interface HealthCheckOptions {
  runDir: string;
  /** File name inside the run dir (default rollouts.jsonl), or "-" for stdin. */
  rolloutsFile?: string;
  ignoreChecks?: string[];
}

export interface QualitySummary {
  schema_version: 1;
  rollouts_file: string;
  sources: string[];
  checked: number;
  healthy: number;
  unhealthy: number;
  unobserved: number;
  ignored_checks: string[];
  checks: Record<string, { scope: string; unhealthy: number; unobserved: number }>;
  tasks: Record<string, { verdict: Verdict; repeats: number }>;
  run: { run_missing_rollouts: { verdict: Verdict; missing: number | null } };
}

/** The console line printed after a run or an aggregate. */
export function healthSummaryLine(s: Pick<QualitySummary, "checked" | "healthy" | "unhealthy" | "unobserved">): string {
  return `Rollout health: ${s.checked} checked, ${s.healthy} healthy, ${s.unhealthy} unhealthy, ${s.unobserved} unobserved`;
}

function rolloutSources(runDir: string, name: string): string[] {
  if (name === "-") return ["-"];
  const file = path.join(runDir, name);
  if (fs.existsSync(file)) return [file];
  const sources = siblingPath(file, "_sources", ".json");
  if (fs.existsSync(sources)) {
    const shards = (JSON.parse(fs.readFileSync(sources, "utf8")).shards ?? []) as Array<{ path: string }>;
    if (shards.length) return shards.map((s) => s.path);
  }
  throw new GymError("E_INPUT_NOT_FOUND", `No rollouts at ${file}`, { hint: "Pass the run directory, and --rollouts-file NAME if the rollouts file has another name." });
}

/** Checks every rollout, writes `rollout_verdicts.jsonl` and `quality_summary.json` into the run dir, returns the summary. */
export async function healthCheck(options: HealthCheckOptions): Promise<QualitySummary> {
  const ignored = options.ignoreChecks ?? [];
  for (const id of ignored) {
    if (!ALL_CHECK_IDS.includes(id)) {
      const near = closeMatches(id, ALL_CHECK_IDS, 1, 0.6);
      throw new GymError("E_BAD_FLAG_VALUE", `Unknown check '${id}' in --ignore-checks`, { hint: near.length ? `Did you mean ${near[0]}?` : `Checks: ${ALL_CHECK_IDS.join(", ")}` });
    }
  }
  const active = ROLLOUT_CHECKS.filter((c) => !ignored.includes(c.id));
  const name = options.rolloutsFile ?? "rollouts.jsonl";
  const sources = rolloutSources(options.runDir, name);
  const checks: QualitySummary["checks"] = Object.fromEntries(ALL_CHECK_IDS.filter((id) => !ignored.includes(id)).map((id) => [id, { scope: id.startsWith("task_") ? "task" : id.startsWith("run_") ? "run" : "rollout", unhealthy: 0, unobserved: 0 }]));
  const verdicts = new FileWriter(path.join(options.runDir, "rollout_verdicts.jsonl"));
  // Where each identity was first seen: source number × 2^32 + line (a locator string only when a duplicate needs it).
  const seen = new IdentityMap();
  const tasks = new Map<number, { repeats: number; bad: number }>();
  const counts = { checked: 0, healthy: 0, unhealthy: 0, unobserved: 0 };
  const shownSources = sources.map((source) => (source === "-" ? "<stdin>" : source));
  const duplicateCheck = checks.record_duplicate_identity;
  for (let s = 0; s < sources.length; s++) {
    const shown = shownSources[s]!;
    for await (const { texts, first: firstLine } of readTextBatches(sources[s]!)) {
      let out = "";
      for (let i = 0; i < texts.length; i++) {
        const text = texts[i]!;
        const line = firstLine + i;
        let row: Row | undefined;
        try {
          const v = JSON.parse(text);
          if (v && typeof v === "object" && !Array.isArray(v)) row = v as Row;
        } catch {
          if (text.trim() === "") continue;
        }
        const findings: Finding[] = [];
        let lacking = false;
        let duplicate = false;
        if (!row) {
          if (checks.record_unreadable) record(checks, findings, { check: "record_unreadable", subject: "record", locator: `${shown}:${line}`, evidence: {} });
        } else {
          const id = identity(row._ng_task_index, row._ng_rollout_index);
          const first = seen.get(id);
          if (first === undefined) seen.add(id, s * 4294967296 + line);
          else if (duplicateCheck) {
            duplicate = true;
            const where = `${shownSources[Math.floor(first / 4294967296)]}:${first % 4294967296}`;
            record(checks, findings, { check: "record_duplicate_identity", subject: "record", locator: `${shown}:${line}`, evidence: { first: where } });
          }
          for (const check of active) {
            const result = check.run(row);
            if ("unobserved" in result) {
              lacking = true;
              checks[check.id]!.unobserved++;
            } else for (const f of result.unhealthy) record(checks, findings, f);
          }
        }
        const verdict: Verdict = findings.length ? "unhealthy" : lacking ? "unobserved" : "healthy";
        counts.checked++;
        counts[verdict]++;
        const task = Number(row?._ng_task_index ?? NaN);
        // A duplicate row is not another repeat of its task.
        if (row && Number.isFinite(task) && !duplicate) {
          let t = tasks.get(task);
          if (!t) tasks.set(task, (t = { repeats: 0, bad: 0 }));
          t.repeats++;
          if (verdict === "unhealthy" || row.reward === undefined || row.reward === null) t.bad++;
        }
        out += verdictLine(row, verdict, findings);
      }
      verdicts.write(out);
    }
  }
  verdicts.commit();
  const taskVerdicts: QualitySummary["tasks"] = {};
  for (const [t, { repeats, bad }] of [...tasks].sort((a, b) => a[0] - b[0])) {
    const verdict: Verdict = !checks.task_failed_every_repeat ? "healthy" : repeats < 2 ? "unobserved" : bad === repeats ? "unhealthy" : "healthy";
    if (checks.task_failed_every_repeat && verdict !== "healthy") checks.task_failed_every_repeat[verdict]++;
    taskVerdicts[String(t)] = { verdict, repeats };
  }
  const missing = checks.run_missing_rollouts && sources[0] !== "-" ? await missingRollouts(path.join(options.runDir, name), seen) : null;
  if (checks.run_missing_rollouts) {
    if (missing === null) checks.run_missing_rollouts.unobserved++;
    else if (missing > 0) checks.run_missing_rollouts.unhealthy++;
  }
  const summary: QualitySummary = {
    schema_version: 1,
    rollouts_file: name === "-" ? "<stdin>" : path.join(options.runDir, name),
    sources: sources.length > 1 || sources[0] !== path.join(options.runDir, name) ? sources : [],
    ...counts,
    ignored_checks: ignored,
    checks,
    tasks: taskVerdicts,
    run: { run_missing_rollouts: { verdict: missing === null ? "unobserved" : missing > 0 ? "unhealthy" : "healthy", missing } },
  };
  const out = new FileWriter(path.join(options.runDir, "quality_summary.json"));
  out.write(`${JSON.stringify(summary, null, 2)}\n`);
  out.commit();
  return summary;
}

/** Materialized rollouts found neither in the output nor in the failure sidecar; null without materialized inputs. */
async function missingRollouts(rolloutsPath: string, seen: IdentityMap): Promise<number | null> {
  const inputs = siblingPath(rolloutsPath, "_materialized_inputs", ".jsonl");
  if (!fs.existsSync(inputs)) return null;
  const failures = siblingPath(rolloutsPath, "_failures", ".jsonl");
  const failed = new IdentityMap();
  if (fs.existsSync(failures)) {
    for await (const { texts } of readTextBatches(failures)) {
      for (const text of texts) {
        try {
          const r = JSON.parse(text) as Row;
          failed.add(identity(r._ng_task_index, r._ng_rollout_index), 1);
        } catch {}
      }
    }
  }
  let missing = 0;
  for await (const { texts } of readTextBatches(inputs)) {
    for (const text of texts) {
      if (text.trim() === "") continue;
      const r = JSON.parse(text) as Row;
      const key = identity(r._ng_task_index, r._ng_rollout_index);
      if (!seen.has(key) && !failed.has(key)) missing++;
    }
  }
  return missing;
}

/** Counts a finding against its check (when the check is active) and keeps it with the row's findings. */
function record(checks: QualitySummary["checks"], findings: Finding[], f: Finding): void {
  findings.push(f);
  if (checks[f.check]) checks[f.check]!.unhealthy++;
}

/** One `rollout_verdicts.jsonl` line: JSON.stringify of {_ng_task_index, _ng_rollout_index, rollout_id, verdict, findings}. */
function verdictLine(row: Row | undefined, verdict: Verdict, findings: Finding[]): string {
  const tail = `"verdict":"${verdict}","findings":${findings.length ? JSON.stringify(findings) : "[]"}}\n`;
  if (!row) return `{"_ng_task_index":null,"_ng_rollout_index":null,"rollout_id":null,${tail}`;
  const task = row._ng_task_index;
  const rollout = row._ng_rollout_index;
  if (typeof task === "number" && typeof rollout === "number") return `{"_ng_task_index":${task},"_ng_rollout_index":${rollout},"rollout_id":"${task}:${rollout}",${tail}`;
  return `{"_ng_task_index":${JSON.stringify(task ?? null)},"_ng_rollout_index":${JSON.stringify(rollout ?? null)},"rollout_id":${JSON.stringify(`${task ?? 0}:${rollout ?? 0}`)},${tail}`;
}
