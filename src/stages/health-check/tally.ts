/**
 * The one implementation of health-check's verdicts and summary, in two steps so a stage that reads rows in
 * another order (aggregate's scan) can check them as it parses: `inspect` runs the rollout checks of a row
 * (their counts do not depend on order), `verdict` then takes rows in file order (duplicates, task repeats,
 * the verdict line), and `finish` writes `quality_summary.json`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { RowReader, UNREADABLE } from "../../jsonl/rows.ts";
import { PyFloat } from "../../metrics/pyjson.ts";
import { type ByteText, utf8 } from "../../metrics/byte-text.ts";
import { FileWriter, siblingPath } from "../aggregate/files.ts";
import { ALL_CHECK_IDS, forgetRow, ROLLOUT_CHECKS, type Finding } from "./checks.ts";
import { identity, IdentityMap } from "./keys.ts";

type Row = Record<string, unknown>;
export type Verdict = "healthy" | "unhealthy" | "unobserved";

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

/** What the rollout checks said about one row: its findings (shared empty list when none) and whether evidence lacked. */
export interface RowChecks {
  findings: Finding[];
  lacking: boolean;
}

const NONE: Finding[] = [];
const SOURCE = 4294967296;

/** Counts of one health check over rows given (for `verdict`) in file order. */
export class HealthTally {
  readonly checks: QualitySummary["checks"];
  private readonly active: typeof ROLLOUT_CHECKS;
  /** The counts of `active[i]` (the same objects as in `checks`). */
  private readonly activeCounts: QualitySummary["checks"][string][];
  private readonly seen = new IdentityMap();
  private readonly tasks = new Map<number, { repeats: number; bad: number }>();
  private readonly counts = { checked: 0, healthy: 0, unhealthy: 0, unobserved: 0 };

  /** `shown`: the sources as locators name them (source number s of `verdict`'s `where`). */
  constructor(
    private readonly ignored: string[],
    private readonly shown: string[],
  ) {
    this.active = ROLLOUT_CHECKS.filter((c) => !ignored.includes(c.id));
    this.checks = Object.fromEntries(ALL_CHECK_IDS.filter((id) => !ignored.includes(id)).map((id) => [id, { scope: id.startsWith("task_") ? "task" : id.startsWith("run_") ? "run" : "rollout", unhealthy: 0, unobserved: 0 }]));
    this.activeCounts = this.active.map((c) => this.checks[c.id]!);
  }

  /** Runs the rollout-scope checks of one parsed row (as JSON.parse gave it) and counts them. */
  inspect(row: Row): RowChecks {
    const findings = this.check(row);
    return { findings, lacking: this.lacking };
  }

  /** Whether the row `check` last saw lacked evidence for some check. */
  lacking = false;

  /** `inspect` without an object per row: returns the findings, sets `lacking`. */
  check(row: Row): Finding[] {
    let findings = NONE;
    let lacking = false;
    const active = this.active;
    for (let c = 0; c < active.length; c++) {
      const result = active[c]!.run(row);
      if ("unobserved" in result) {
        lacking = true;
        this.activeCounts[c]!.unobserved++;
      } else if (result.unhealthy.length > 0) {
        if (findings === NONE) findings = [];
        for (const f of result.unhealthy) this.record(findings, f);
      }
    }
    forgetRow();
    this.lacking = lacking;
    return findings;
  }

  /**
   * The verdict of an inspected row, taken in file order: `where` is source × 2^32 + line. Returns its
   * `rollout_verdicts.jsonl` line.
   */
  verdict(task: unknown, rollout: unknown, rewardMissing: boolean, checked: RowChecks, where: number): string {
    return this.verdictOf(task, rollout, rewardMissing, checked.findings, checked.lacking, where);
  }

  /** `verdict` with the checks' result spread (no object per row). */
  verdictOf(task: unknown, rollout: unknown, rewardMissing: boolean, checkFindings: Finding[], lacking: boolean, where: number): string {
    const verdict = this.decide(task, rollout, rewardMissing, checkFindings, lacking, where);
    return verdictLine(task, rollout, verdict, this.findings);
  }

  /** `verdictOf` written as UTF-8 into `out` (plain index numbers and no findings: no string per row). */
  verdictInto(out: ByteText, task: unknown, rollout: unknown, rewardMissing: boolean, checkFindings: Finding[], lacking: boolean, where: number): void {
    const verdict = this.decide(task, rollout, rewardMissing, checkFindings, lacking, where);
    const findings = this.findings;
    if (findings.length > 0 || !plainIndex(task) || !plainIndex(rollout)) return out.text(verdictLine(task, rollout, verdict, findings));
    out.bytes(HEAD);
    out.int(task);
    out.bytes(ROLLOUT);
    out.int(rollout);
    out.bytes(ID);
    out.int(task);
    out.bytes(COLON);
    out.int(rollout);
    out.bytes(EMPTY_TAIL[verdict]);
  }

  /** The findings of the row `decide` last saw (its duplicate finding first). */
  private findings: Finding[] = NONE;

  /** Counts a row's verdict in file order (duplicates, task repeats). */
  private decide(task: unknown, rollout: unknown, rewardMissing: boolean, checkFindings: Finding[], lacking: boolean, where: number): Verdict {
    let findings = checkFindings;
    const id = identity(task, rollout);
    const first = this.seen.get(id);
    let duplicate = false;
    if (first === undefined) this.seen.add(id, where);
    else if (this.checks.record_duplicate_identity) {
      duplicate = true;
      const evidence = { first: `${this.shown[Math.floor(first / SOURCE)]}:${first % SOURCE}` };
      findings = [];
      this.record(findings, { check: "record_duplicate_identity", subject: "record", locator: this.locator(where), evidence });
      findings.push(...checkFindings);
    }
    const verdict: Verdict = findings.length ? "unhealthy" : lacking ? "unobserved" : "healthy";
    this.counts.checked++;
    this.counts[verdict]++;
    const t = Number(task ?? NaN);
    // A duplicate row is not another repeat of its task.
    if (Number.isFinite(t) && !duplicate) {
      let entry = this.tasks.get(t);
      if (!entry) this.tasks.set(t, (entry = { repeats: 0, bad: 0 }));
      entry.repeats++;
      if (verdict === "unhealthy" || rewardMissing) entry.bad++;
    }
    this.findings = findings;
    return verdict;
  }

  /** The verdict of a line that is not a JSON object. */
  unreadable(where: number): string {
    const findings: Finding[] = [];
    if (this.checks.record_unreadable) this.record(findings, { check: "record_unreadable", subject: "record", locator: this.locator(where), evidence: {} });
    const verdict: Verdict = findings.length ? "unhealthy" : "healthy";
    this.counts.checked++;
    this.counts[verdict]++;
    return `{"_ng_task_index":null,"_ng_rollout_index":null,"rollout_id":null,${tail(verdict, findings)}`;
  }

  /**
   * Task and run verdicts, then `quality_summary.json` in `runDir`. `rolloutsPath`: the rollouts file whose
   * `_materialized_inputs` / `_failures` siblings tell the missing rollouts (null when read from stdin).
   */
  async finish(summaryPath: string, rolloutsFile: string, rolloutsPath: string | null, sources: string[]): Promise<QualitySummary> {
    const { checks } = this;
    const taskVerdicts: QualitySummary["tasks"] = {};
    for (const [t, { repeats, bad }] of [...this.tasks].sort((a, b) => a[0] - b[0])) {
      const verdict: Verdict = !checks.task_failed_every_repeat ? "healthy" : repeats < 2 ? "unobserved" : bad === repeats ? "unhealthy" : "healthy";
      if (checks.task_failed_every_repeat && verdict !== "healthy") checks.task_failed_every_repeat[verdict]++;
      taskVerdicts[String(t)] = { verdict, repeats };
    }
    const missing = checks.run_missing_rollouts && rolloutsPath !== null ? await missingRollouts(rolloutsPath, this.seen) : null;
    if (checks.run_missing_rollouts) {
      if (missing === null) checks.run_missing_rollouts.unobserved++;
      else if (missing > 0) checks.run_missing_rollouts.unhealthy++;
    }
    const summary: QualitySummary = {
      schema_version: 1,
      rollouts_file: rolloutsFile,
      sources,
      ...this.counts,
      ignored_checks: this.ignored,
      checks,
      tasks: taskVerdicts,
      run: { run_missing_rollouts: { verdict: missing === null ? "unobserved" : missing > 0 ? "unhealthy" : "healthy", missing } },
    };
    const out = new FileWriter(summaryPath);
    out.write(`${JSON.stringify(summary, null, 2)}\n`);
    out.commit();
    return summary;
  }

  private locator(where: number): string {
    return `${this.shown[Math.floor(where / SOURCE)]}:${where % SOURCE}`;
  }

  /** Counts a finding against its check (when the check is active) and keeps it with the row's findings. */
  private record(findings: Finding[], f: Finding): void {
    findings.push(f);
    if (this.checks[f.check]) this.checks[f.check]!.unhealthy++;
  }
}

/** `where` of line `line` of source `s`. */
export const at = (s: number, line: number): number => s * SOURCE + line;

/** Materialized rollouts found neither in the output nor in the failure sidecar; null without materialized inputs. */
async function missingRollouts(rolloutsPath: string, seen: IdentityMap): Promise<number | null> {
  const inputs = siblingPath(rolloutsPath, "_materialized_inputs", ".jsonl");
  if (!fs.existsSync(inputs)) return null;
  const failures = siblingPath(rolloutsPath, "_failures", ".jsonl");
  const failed = new IdentityMap();
  // Only the two indices of each row are read (the row reader skips the rest); a bad failures line is passed over, as before.
  const value = (v: unknown) => (v instanceof PyFloat ? v.value : v);
  if (fs.existsSync(failures)) {
    for await (const { rows } of new RowReader({ strings: true, badLines: "mark" }).batches(failures)) {
      for (const r of rows) if (r !== UNREADABLE) failed.add(identity(value(r._ng_task_index), value(r._ng_rollout_index)), 1);
    }
  }
  let missing = 0;
  for await (const { rows } of new RowReader({ strings: true }).batches(inputs)) {
    for (const r of rows) {
      const key = identity(value(r._ng_task_index), value(r._ng_rollout_index));
      if (!seen.has(key) && !failed.has(key)) missing++;
    }
  }
  return missing;
}

/** A whole number JS and Python print alike (digits only). */
const plainIndex = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0 && !Object.is(v, -0);
const HEAD = utf8('{"_ng_task_index":');
const ROLLOUT = utf8(',"_ng_rollout_index":');
const ID = utf8(',"rollout_id":"');
const COLON = utf8(":");

const tail = (verdict: Verdict, findings: Finding[]) => `"verdict":"${verdict}","findings":${findings.length ? JSON.stringify(findings) : "[]"}}\n`;

const EMPTY_TAIL: Record<Verdict, Uint8Array> = { healthy: utf8(`",${tail("healthy", NONE)}`), unhealthy: utf8(`",${tail("unhealthy", NONE)}`), unobserved: utf8(`",${tail("unobserved", NONE)}`) };

/** One `rollout_verdicts.jsonl` line: JSON.stringify of {_ng_task_index, _ng_rollout_index, rollout_id, verdict, findings}. */
function verdictLine(task: unknown, rollout: unknown, verdict: Verdict, findings: Finding[]): string {
  if (typeof task === "number" && typeof rollout === "number") return `{"_ng_task_index":${task},"_ng_rollout_index":${rollout},"rollout_id":"${task}:${rollout}",${tail(verdict, findings)}`;
  return `{"_ng_task_index":${JSON.stringify(task ?? null)},"_ng_rollout_index":${JSON.stringify(rollout ?? null)},"rollout_id":${JSON.stringify(`${task ?? 0}:${rollout ?? 0}`)},${tail(verdict, findings)}`;
}
