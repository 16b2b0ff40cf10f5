/**
 * Aggregate's health check of the merged rollouts, computed while the shards are parsed (NeMo Gym re-reads
 * the merged file for it): rows are inspected in read order, then given verdicts in merged order, which is
 * what `healthCheck()` on the merged file sees — same files, same summary.
 */
import * as path from "node:path";
import type { RolloutTable } from "../../metrics/rollout-table.ts";
import { ROLLOUT_INDEX, TASK_INDEX } from "../../metrics/records.ts";
import { healthReportPaths } from "../../outputs/paths.ts";
import { ByteWriter } from "./copy.ts";
import type { Finding } from "../health-check/checks.ts";
import { at, HealthTally, type QualitySummary } from "../health-check/tally.ts";

type Row = Record<string, unknown>;

const LACKING = 1;
const NO_REWARD = 2;
/** Task or rollout index not a plain number: kept as read in `odd`. */
const ODD = 4;
const FOUND = 8;
const NONE: Finding[] = [];

/** Per-row check results (one byte a row; findings and odd indices in maps, being rare). */
export class AggregateHealth {
  private flags = new Uint8Array(1024);
  private readonly findings = new Map<number, Finding[]>();
  private readonly odd = new Map<number, [unknown, unknown]>();
  private readonly runDir: string;
  private readonly file: string;
  private readonly tally: HealthTally;

  /** `merged`: the merged rollouts file the verdicts are about. */
  constructor(merged: string) {
    this.runDir = path.dirname(merged);
    this.file = path.join(this.runDir, path.basename(merged));
    this.tally = new HealthTally([], [this.file]);
  }

  /** Checks row number `r` as JSON.parse gave it (before any typing of its numbers). */
  add(r: number, row: Row): void {
    if (r >= this.flags.length) {
      const grown = new Uint8Array(this.flags.length * 2);
      grown.set(this.flags);
      this.flags = grown;
    }
    const findings = this.tally.check(row);
    const lacking = this.tally.lacking;
    const task = row[TASK_INDEX];
    const rollout = row[ROLLOUT_INDEX];
    const reward = row.reward;
    let flags = (lacking ? LACKING : 0) | (reward === undefined || reward === null ? NO_REWARD : 0);
    if (typeof task !== "number" || typeof rollout !== "number") {
      flags |= ODD;
      this.odd.set(r, [task, rollout]);
    }
    if (findings.length > 0) {
      flags |= FOUND;
      this.findings.set(r, findings);
    }
    this.flags[r] = flags;
  }

  /** Writes `rollout_verdicts.jsonl` (rows in merged `order`) and `quality_summary.json` beside the merged file. */
  async write(order: Int32Array, table: RolloutTable): Promise<QualitySummary> {
    const { flags, tally } = this;
    const reports = healthReportPaths(this.runDir, path.basename(this.file));
    const verdicts = new ByteWriter(reports.rolloutVerdicts);
    try {
      for (let i = 0; i < order.length; i++) {
        const r = order[i]!;
        const f = flags[r]!;
        // Plain-number indices are the table's own (the table keeps numbers as read).
        const odd = f & ODD ? this.odd.get(r)! : undefined;
        const task = odd ? odd[0] : table.task[r]!;
        const rollout = odd ? odd[1] : table.rollout[r]!;
        tally.verdictInto(verdicts.out, task, rollout, (f & NO_REWARD) !== 0, f & FOUND ? this.findings.get(r)! : NONE, (f & LACKING) !== 0, at(0, i + 1));
      }
      verdicts.commit();
    } catch (error) {
      verdicts.abort();
      throw error;
    }
    return tally.finish(reports.qualitySummary, this.file, this.file, []);
  }
}
