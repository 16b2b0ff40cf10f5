/** Job records (collection.md §9.2 step 6–7, §9.4): the gym job id, gym-job.json in the run dir, the local index. */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { GymError } from "../errors.ts";

export const RECORD_SCHEMA_VERSION = 1;
export const GYM_JOB_ID = /^gym-job-\d{8}T\d{6}Z-[0-9a-f]{6}$/;

export interface BenchmarkRecord {
  benchmark: string;
  job_dir: string;
  job_id?: string;
  error?: string;
  /** Sharded benchmarks: the array's shard count and the dependent aggregate job. */
  shards?: number;
  aggregate_job_id?: string;
}

export interface JobRecord {
  gym_job_id: string;
  gym_version: string;
  gym_commit?: string;
  submitted_at: string;
  run_dir: string;
  cluster: string;
  executor: "slurm";
  submitted_by: string;
  hostname?: string;
  benchmarks: BenchmarkRecord[];
  executor_metadata: Record<string, unknown>;
  schema_version: number;
}

/** `gym-job-<UTC %Y%m%dT%H%M%SZ>-<6 hex>`. */
export function newGymJobId(now = new Date()): string {
  const utc = now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  return `gym-job-${utc}-${randomBytes(3).toString("hex")}`;
}

/** `$XDG_CACHE_HOME/nemo-gym/jobs` (default `~/.cache/nemo-gym/jobs`). */
export function jobIndexDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "nemo-gym", "jobs");
}

/** Writes a JSON file through a temporary file and a rename. */
export function writeJsonAtomic(path: string, value: unknown, mode?: number): void {
  fs.mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`, mode === undefined ? undefined : { mode });
  fs.renameSync(tmp, path);
}

/** The local index entry first (best effort: a warning when it cannot be written). */
export function writeIndexEntry(record: JobRecord, warn: (m: string) => void, env: NodeJS.ProcessEnv = process.env): void {
  try {
    writeJsonAtomic(join(jobIndexDir(env), `${record.gym_job_id}.json`), record);
  } catch (error) {
    warn(`could not write the local job index (${(error as Error).message}); gym eval status ${record.gym_job_id} will need the run dir.`);
  }
}

/** Reads a record with the versioned reader rule: versions up to ours are read, newer ones refused. */
export function parseRecord(text: string, where: string): JobRecord {
  let record: JobRecord;
  try {
    record = JSON.parse(text) as JobRecord;
  } catch {
    throw new GymError("E_INPUT_JSON", `${where} is not valid JSON.`, { hint: "The record is rewritten by gym eval submit; restore it from the run dir's gym-job.json." });
  }
  const version = record.schema_version;
  if (typeof version !== "number" || version > RECORD_SCHEMA_VERSION) {
    throw new GymError("E_INPUT_SCHEMA", `${where} has schema_version ${JSON.stringify(version)}; this gym reads versions up to ${RECORD_SCHEMA_VERSION}.`, {
      hint: "Read it with the gym version that submitted the job (or a newer one).",
    });
  }
  if (!Array.isArray(record.benchmarks) || typeof record.run_dir !== "string") {
    throw new GymError("E_INPUT_SCHEMA", `${where} has no benchmarks list or run_dir.`, { hint: "It is not a gym job record; check the file." });
  }
  return record;
}

/** Looks a gym job id up in the local index. */
export function readIndexEntry(gymJobId: string, env: NodeJS.ProcessEnv = process.env): JobRecord {
  const path = join(jobIndexDir(env), `${gymJobId}.json`);
  if (!fs.existsSync(path)) {
    throw new GymError("E_INPUT_NOT_FOUND", `No submission ${gymJobId} in the local job index (${path}).`, {
      hint: "gym eval submit writes it on the machine that submitted; copy gym-job.json from the run dir there, or run this where you submitted.",
    });
  }
  return parseRecord(fs.readFileSync(path, "utf8"), path);
}

/** One benchmark of a record, or an error listing the ones it has. */
export function benchmarkOf(record: JobRecord, benchmark: string): BenchmarkRecord {
  const found = record.benchmarks.find((b) => b.benchmark === benchmark);
  if (!found) {
    throw new GymError("E_USAGE", `${record.gym_job_id} has no benchmark '${benchmark}'.`, { hint: `Its benchmarks: ${record.benchmarks.map((b) => b.benchmark).join(", ")}.` });
  }
  return found;
}
