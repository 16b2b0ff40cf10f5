/** `gym eval resubmit GYM_JOB_ID BENCHMARK [--recover [--inspect]]`: queue a submitted benchmark again (§9.6). */
import * as fs from "node:fs";
import { join } from "node:path";
import { GymError } from "../errors.ts";
import { CHAIN_FILES } from "./chain.ts";
import { connect } from "./connection.ts";
import { decide, readEvidence, type Decision, type Evidence } from "./recover.ts";
import { benchmarkOf, jobIndexDir, writeJsonAtomic, type BenchmarkRecord, type JobRecord } from "./records.ts";
import { shq, slurmSeconds } from "./shell.ts";

export interface ResubmitOptions {
  recover: boolean;
  inspect: boolean;
  /** `--max-walltime T --walltime-reason TEXT`: raise the chain's cap (journaled) before deciding. */
  maxWalltime?: { time: string; reason: string };
  env?: NodeJS.ProcessEnv;
}

export interface ResubmitReport {
  gym_job_id: string;
  benchmark: string;
  action: Decision["action"];
  reason: string;
  fix?: string;
  job_id?: string;
  aggregate_job_id?: string;
  error?: string;
  budgets: "fresh" | "kept";
  resubmit_offset?: number;
  evidence?: Omit<Evidence, "stems">;
  gate_task?: Decision["gate_task"];
}

export async function resubmit(record: JobRecord, benchmark: string, options: ResubmitOptions): Promise<ResubmitReport> {
  const bench = benchmarkOf(record, benchmark);
  const base = { gym_job_id: record.gym_job_id, benchmark };
  if (!options.recover) {
    if (options.inspect) throw new GymError("E_USAGE", "--inspect plans a --recover decision; it needs --recover.", { hint: `gym eval resubmit ${record.gym_job_id} ${benchmark} --recover --inspect` });
    const offset = freshBudgets(bench.job_dir, options.env ?? process.env);
    const queued = await queue(record, bench);
    return { ...base, action: "resubmit", reason: "queued again with a fresh retry, walltime and per-rollout attempt allowance", budgets: "fresh", resubmit_offset: offset, ...queued };
  }
  if (options.maxWalltime && !options.inspect) raiseWalltime(bench.job_dir, options.maxWalltime);
  const evidence = await readEvidence(bench.job_dir);
  if (options.maxWalltime && options.inspect) evidence.maxWalltimeS = slurmSeconds(options.maxWalltime.time);
  const { stems: _stems, ...shown } = evidence;
  const decision = decide(evidence, `gym eval resubmit ${record.gym_job_id} ${benchmark} --recover`);
  const report: ResubmitReport = { ...base, action: decision.action, reason: decision.reason, ...(decision.fix ? { fix: decision.fix } : {}), budgets: "kept", evidence: shown, gate_task: decision.gate_task };
  if (options.inspect || decision.action !== "resubmit") return report;
  return { ...report, ...(await queue(record, bench)) };
}

/** Writes the raised cap and journals who raised it and why. */
function raiseWalltime(jobDir: string, raise: { time: string; reason: string }): void {
  const seconds = slurmSeconds(raise.time);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new GymError("E_BAD_FLAG_VALUE", `--max-walltime expects a Slurm time, got '${raise.time}'.`, { hint: "For example --max-walltime 24:00:00 (or 2-00:00:00)." });
  }
  fs.writeFileSync(join(jobDir, CHAIN_FILES.maxWalltime), `${seconds}\n`);
  fs.appendFileSync(join(jobDir, CHAIN_FILES.journal), `${JSON.stringify({ at: new Date().toISOString(), decision: "max_walltime", max_walltime: raise.time, seconds, reason: raise.reason })}\n`);
}

/** Resets the chain's retry and walltime counters and records the resubmit offset and a fresh attempt allowance. */
function freshBudgets(jobDir: string, env: NodeJS.ProcessEnv): number {
  if (!fs.existsSync(jobDir)) {
    throw new GymError("E_INPUT_NOT_FOUND", `${jobDir} is not reachable from here.`, { hint: "Run gym eval resubmit where the run dir recorded by the submission is mounted (the login node, or this machine for a local cluster)." });
  }
  fs.writeFileSync(join(jobDir, CHAIN_FILES.retries), "0\n");
  fs.writeFileSync(join(jobDir, CHAIN_FILES.walltime), "0\n");
  let lines = 0;
  let highest = -1;
  for (const failures of failureFiles(join(jobDir, "artifacts"))) {
    for (const line of fs.readFileSync(failures, "utf8").split("\n")) {
      if (!line.trim()) continue;
      lines++;
      const m = /"_ng_attempt_index":\s*(\d+)/.exec(line);
      highest = Math.max(highest, m ? Number(m[1]) : 0);
    }
  }
  const allowance = Number(env.NEMO_GYM_MAX_ROLLOUT_ATTEMPTS) > 0 ? Number(env.NEMO_GYM_MAX_ROLLOUT_ATTEMPTS) : 3;
  fs.writeFileSync(join(jobDir, CHAIN_FILES.resubmitOffset), `${lines}\n`);
  if (highest >= 0) fs.writeFileSync(join(jobDir, CHAIN_FILES.attemptAllowance), `${highest + 1 + allowance}\n`);
  return lines;
}

function failureFiles(artifacts: string): string[] {
  const out: string[] = [];
  const visit = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory() && /^shard-\d+$/.test(e.name)) visit(join(dir, e.name));
      else if (e.isFile() && e.name.endsWith("_failures.jsonl")) out.push(join(dir, e.name));
    }
  };
  visit(artifacts);
  return out;
}

/** sbatch job.sh (and a sharded benchmark's aggregate after it) where the submission went; the record notes the new job. */
async function queue(record: JobRecord, bench: BenchmarkRecord): Promise<{ job_id?: string; aggregate_job_id?: string; error?: string }> {
  const host = (record.executor_metadata?.login_hostname as string | null | undefined) ?? null;
  const conn = connect(host);
  try {
    const job = shq(`${bench.job_dir}/job.sh`);
    const agg = shq(`${bench.job_dir}/aggregate.sh`);
    const script = bench.shards
      ? `id=$(sbatch --parsable ${job}) || exit 1\necho "Submitted batch job \${id%%;*}"\nagg=$(sbatch --parsable --dependency=afterok:"\${id%%;*}" --kill-on-invalid-dep=yes ${agg}) && echo "Submitted aggregate job \${agg%%;*}"\n`
      : `sbatch ${job}\n`;
    const out = await conn.run(script);
    const jobId = /Submitted batch job (\d+)/.exec(out.stdout)?.[1];
    const aggId = /Submitted aggregate job (\d+)/.exec(out.stdout)?.[1];
    if (!jobId) return { error: (out.stderr || out.stdout).trim() || `sbatch exited ${out.code}` };
    const entry = { job_id: jobId, ...(aggId ? { aggregate_job_id: aggId } : {}), submitted_at: new Date().toISOString() };
    const updated: JobRecord = {
      ...record,
      benchmarks: record.benchmarks.map((b) => (b.benchmark === bench.benchmark ? { ...b, resubmits: [...((b as { resubmits?: unknown[] }).resubmits ?? []), entry] } : b)),
    };
    writeJsonAtomic(join(jobIndexDir(), `${record.gym_job_id}.json`), updated);
    if (!conn.remote && fs.existsSync(record.run_dir)) writeJsonAtomic(join(record.run_dir, "gym-job.json"), updated);
    return { job_id: jobId, ...(aggId ? { aggregate_job_id: aggId } : {}) };
  } finally {
    conn.close();
  }
}
