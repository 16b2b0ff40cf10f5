/**
 * The health check of a rollouts file fed by its writer: `gym eval run` hands each row over as it appends it,
 * so the end of a run writes the verdicts and the quality summary without reading the file again. Rows already
 * in the file when the run starts (a resume) come first, from the one pass the resume inventory makes over them;
 * the reports are then byte for byte what `healthCheck()` on the finished file writes.
 */
import * as path from "node:path";
import { healthReportPaths } from "../../outputs/paths.ts";
import { ByteWriter } from "../aggregate/copy.ts";
import { at, HealthTally, type QualitySummary } from "./tally.ts";

type Row = Record<string, unknown>;

export class LiveHealthCheck {
  private readonly tally: HealthTally;
  private readonly verdicts: ByteWriter;
  private readonly file: string;
  private readonly summaryPath: string;
  private line = 0;
  private done = false;
  private rejected = false;

  /** `rolloutsPath`: the rollouts file the writer appends to (its reports are named after it, beside it). */
  constructor(rolloutsPath: string) {
    const runDir = path.dirname(rolloutsPath);
    const name = path.basename(rolloutsPath);
    this.file = path.join(runDir, name);
    const reports = healthReportPaths(runDir, name);
    this.summaryPath = reports.qualitySummary;
    this.tally = new HealthTally([], [this.file]);
    this.verdicts = new ByteWriter(reports.rolloutVerdicts);
  }

  /** A row already in the file when the run started (as JSON.parse gave it), in file order, with its line number. */
  addRead(row: Row, line: number): void {
    this.line = line;
    if (this.rejected) return;
    if (!readable(row)) this.rejected = true;
    else this.verdict(row);
  }

  /** The row just appended as the file's next line (the object whose JSON the line is). */
  add(row: Row): void {
    this.line++;
    if (this.rejected) return;
    // A row the reader refuses (HEALTH_CHECKS) makes `healthCheck()` fail with that row's error: leave it to that.
    if (!readable(row)) this.rejected = true;
    else this.verdict(row);
  }

  private verdict(row: Row): void {
    const tally = this.tally;
    const findings = tally.check(row);
    tally.verdictInto(this.verdicts.out, row._ng_task_index, row._ng_rollout_index, row.reward === undefined || row.reward === null, findings, tally.lacking, at(0, this.line));
  }

  /**
   * Writes the verdicts and the quality summary (as `healthCheck()` would for the file now). Null when that would
   * fail (an empty file, a row of the wrong types): `healthCheck()` on the file then says why.
   */
  async finish(): Promise<QualitySummary | null> {
    this.done = true;
    if (this.line === 0 || this.rejected) {
      this.verdicts.abort();
      return null;
    }
    this.verdicts.commit();
    return this.tally.finish(this.summaryPath, this.file, this.file, []);
  }

  /** Drops the partial reports (the run failed before it finished). */
  abort(): void {
    if (this.done) return;
    this.done = true;
    this.verdicts.abort();
  }
}

const isIndex = (v: unknown) => typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= Number.MAX_SAFE_INTEGER;

/** Whether the reader's HEALTH_CHECKS pass for a row (indices, agent_ref and its name, a number or null reward). */
function readable(row: Row): boolean {
  const agent = row.agent_ref;
  const reward = row.reward;
  if (row._ng_task_index !== undefined && !isIndex(row._ng_task_index)) return false;
  if (row._ng_rollout_index !== undefined && !isIndex(row._ng_rollout_index)) return false;
  if (agent !== undefined && (agent === null || typeof agent !== "object" || Array.isArray(agent))) return false;
  const name = agent === undefined ? undefined : (agent as Row).name;
  if (name !== undefined && typeof name !== "string") return false;
  return reward === undefined || reward === null || typeof reward === "number";
}
